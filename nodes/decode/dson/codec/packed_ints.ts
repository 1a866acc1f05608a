/**
 * A list of polygon vertex indices (-1: a triangle's empty fourth corner) packed into a short
 * base64 string for a mesh's extras: each index is written as the zigzag varint of its difference
 * from the index in the same corner of the polygon before (4 corners a polygon) plus one (0: a -1).
 * Neighbouring polygons of a mesh's region are mostly numbered in runs whose corners step by one,
 * so a quad takes about 4 bytes (5–6 base64 characters) instead of about 21 characters as a JSON
 * list.
 *
 * @module
 */
import { Buffer } from "node:buffer";

/**
 * Packs indices (each -1 or 0..2^31-1) into base64 text; {@link unpackIndices} reads it back.
 *
 * @example
 * ```ts
 * unpackIndices(packIndices([5, 6, 7, -1])); // Int32Array [5, 6, 7, -1]
 * ```
 */
export function packIndices(indices: ArrayLike<number>): string {
  const bytes: number[] = [];
  const previous = [0, 0, 0, 0];
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (v < 0) {
      bytes.push(0);
      continue;
    }
    const d = v - previous[i % 4];
    previous[i % 4] = v;
    // zigzag in floats: differences reach ±2^31, past a 32-bit shift's range.
    let z = (d >= 0 ? d * 2 : -d * 2 - 1) + 1;
    while (z >= 128) {
      bytes.push((z % 128) | 128);
      z = Math.floor(z / 128);
    }
    bytes.push(z);
  }
  return Buffer.from(bytes).toString("base64");
}

/**
 * The indices {@link packIndices} packed; undefined for text that is not such a packing (not
 * base64, a varint cut short or past 2^31).
 */
export function unpackIndices(text: string): Int32Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64");
  const out: number[] = [];
  const previous = [0, 0, 0, 0];
  for (let i = 0; i < bytes.length;) {
    let z = 0, scale = 1, byte: number;
    do {
      if (i >= bytes.length || scale > 2 ** 35) return undefined;
      byte = bytes[i++];
      z += (byte & 127) * scale;
      scale *= 128;
    } while (byte & 128);
    if (z === 0) {
      out.push(-1);
      continue;
    }
    const v = previous[out.length % 4] + (z % 2 === 1 ? (z - 1) / 2 : -(z / 2));
    if (v < 0 || v > 2 ** 31 - 1) return undefined;
    previous[out.length % 4] = v;
    out.push(v);
  }
  return Int32Array.from(out);
}
