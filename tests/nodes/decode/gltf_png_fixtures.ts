/**
 * PNGs made byte by byte for the PNG data-size checks: a palette image whose header may declare another
 * width than its data holds (its CRC correct, so only the data tells).
 *
 * @module
 */
import { deflateSync } from "node:zlib";
import { crc32 } from "../../../runtime/scene/png.ts";

/** One PNG chunk: length, type, data and CRC. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/**
 * An 8-bit palette PNG of `width` × `height` indices (a stripe pattern over four colours), its header
 * declaring `declaredWidth` (CRC correct, so the header reads as valid).
 */
export function palettePng(width: number, height: number, declaredWidth = width): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, declaredWidth);
  view.setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8);
  const palette = new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]);
  const rows = new Uint8Array(height * (1 + width));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows[y * (1 + width) + 1 + x] = (x + y) % 4;
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("PLTE", palette),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, at), at += part.length;
  return out;
}
