/**
 * `unreadableImage`: a PNG or JPEG whose bytes end before its image data, or a PNG whose first chunk is
 * not its header, and nothing else, is named.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { encode } from "fast-png";
import { unreadableImage } from "../../../nodes/export/check/images.ts";

/** A JPEG's headers up to its start of frame (SOI, APP0 JFIF, DQT of 64 entries, SOF0 of 3 components). */
function jpegHeaders(): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const dqt = [0xff, 0xdb, 0, 67, 0, ...new Array(64).fill(1)];
  const sof = [0xff, 0xc0, 0, 17, 8, 0, 2, 0, 2, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, ...app0, ...dqt, ...sof]);
}

Deno.test("unreadableImage: PNG and JPEG cut before their image data, and a PNG without its header first, are named; whole ones and others not", () => {
  const png = encode({ width: 2, height: 2, data: new Uint8Array(16).fill(9), channels: 4 });
  assertEquals(unreadableImage(png), undefined);
  assertEquals(unreadableImage(png.subarray(0, 40)), "PNG ends before its image data");
  const jpeg = jpegHeaders();
  assertEquals(unreadableImage(jpeg), undefined);
  assertEquals(unreadableImage(jpeg.subarray(0, 30)), "JPEG ends inside a segment");
  assertEquals(unreadableImage(jpeg.subarray(0, 20)), "JPEG ends before its frame header");
  // A PNG whose IHDR's type bytes were damaged (found by the fuzz: the Khronos validator crashed on
  // it, taking the process with it); a later chunk of a wrong length is left to the validator.
  const damaged = png.slice();
  damaged.set([0xe7, 0x60], 14);
  assertEquals(unreadableImage(damaged), "PNG without IHDR first");
  // Not PNG or JPEG (WebP, KTX2, garbage): never named, whatever their length.
  assertEquals(unreadableImage(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8L")), undefined);
  assertEquals(unreadableImage(new Uint8Array(3)), undefined);
});
