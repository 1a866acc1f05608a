/**
 * `unreadableImage`: a PNG or JPEG whose bytes end before its image data, or a PNG whose first chunk is
 * not its header, and nothing else, is named.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { encode } from "fast-png";
import { unreadableImage } from "../../../nodes/export/check/images.ts";
import { crc32 } from "../../../runtime/scene/png.ts";

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

Deno.test("unreadableImage: a PNG whose header no decoder accepts (of the wrong length, a size of 0, a bit depth its colour type lacks, an unknown interlace, a wrong checksum) is named", () => {
  const png = encode({ width: 2, height: 2, data: new Uint8Array(16).fill(9), channels: 4 });
  /** `png` with IHDR byte(s) at `at` set (its checksum recomputed unless `keepCrc`). */
  const edited = (at: number, bytes: number[], keepCrc = false) => {
    const out = png.slice();
    out.set(bytes, at);
    if (!keepCrc) new DataView(out.buffer).setUint32(29, crc32(out, 12, 29));
    return out;
  };
  // Found by the structure sweep: each passed through to a validated output no viewer could draw.
  assertEquals(unreadableImage(edited(16, [0, 0, 0, 0])), "PNG header declares 0×2 pixels");
  assertEquals(
    unreadableImage(edited(20, [0xff, 0xff, 0xff, 0xff])),
    "PNG header declares 2×4294967295 pixels",
  );
  assertEquals(unreadableImage(edited(24, [3])), "PNG header declares colour type 6 at bit depth 3");
  assertEquals(unreadableImage(edited(25, [1])), "PNG header declares colour type 1 at bit depth 8");
  assertEquals(
    unreadableImage(edited(28, [2])),
    "PNG header declares compression, filter and interlace methods 0, 0, 2",
  );
  assertEquals(unreadableImage(edited(16, [0, 0, 0, 3], true)), "PNG header's checksum does not match");
  assertEquals(unreadableImage(edited(8, [0, 0, 0, 12], true)), "PNG IHDR chunk of the wrong length");
  // A header a decoder accepts over data of another size (16 bits, interlaced, 1-bit grey, 65536 wide, all
  // over the 2 × 2 RGBA's 18 bytes) is named for its data (export.gltf v15; before, passed through and
  // drawn sheared or cut short).
  const data = (found: number, expected: number) =>
    `PNG data is ${found} bytes where its header's 2×2 pixels take ${expected}`;
  assertEquals(unreadableImage(edited(24, [16])), data(18, 34));
  assertEquals(unreadableImage(edited(28, [1])), data(18, 19));
  assertEquals(unreadableImage(edited(24, [1, 0])), data(18, 4));
  assertEquals(
    unreadableImage(edited(16, [0, 1, 0, 0])),
    "PNG data of 13 compressed bytes cannot hold the 524290 bytes its header's 65536×2 pixels take",
  );
  // Such images written as they are: 16 bits, grey.
  const sixteen = encode({
    width: 3,
    height: 2,
    data: new Uint16Array(24).fill(999),
    channels: 4,
    depth: 16,
  });
  assertEquals(unreadableImage(sixteen), undefined);
  assertEquals(
    unreadableImage(encode({ width: 3, height: 2, data: new Uint8Array(6).fill(9), channels: 1 })),
    undefined,
  );
});

Deno.test("unreadableImage: a JPEG whose frame header declares no width, no height or no components is named", () => {
  // Found by the structure sweep: each passed through to a validated output no viewer could draw.
  const jpeg = jpegHeaders();
  const sof = jpeg.length - 19;
  const edited = (at: number, bytes: number[]) => {
    const out = jpeg.slice();
    out.set(bytes, sof + at);
    return out;
  };
  assertEquals(unreadableImage(edited(5, [0, 0])), "JPEG frame header declares 2×0 pixels of 3 components");
  assertEquals(unreadableImage(edited(7, [0, 0])), "JPEG frame header declares 0×2 pixels of 3 components");
  assertEquals(unreadableImage(edited(9, [0])), "JPEG frame header declares 2×2 pixels of 0 components");
  // Any other size is a decoder's to read; other component counts are the validator's to judge.
  assertEquals(unreadableImage(edited(5, [0xff, 0xff])), undefined);
  assertEquals(unreadableImage(edited(9, [4])), undefined);
});
