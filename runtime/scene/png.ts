/**
 * PNG encoding for decoders whose formats carry textures, with fast-png (and its deflate, the largest
 * module a node definition would otherwise pull in) imported when a decoder first runs rather than
 * at start-up: `partgraph nodes`, validation and graphs without such decoders never load it.
 *
 * @module
 */

type FastPng = typeof import("fast-png");

let fastPng: FastPng | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the encoder once; a decoder node awaits this before it builds a scene with textures.
 *
 * @example
 * ```ts
 * import { encodeRgbaPng, loadPngEncoder } from "./png.ts";
 *
 * await loadPngEncoder();
 * const pixels = new Uint8Array(4 * 256 * 256).fill(255); // opaque white
 * const png = encodeRgbaPng(256, 256, pixels);
 * ```
 */
export function loadPngEncoder(): Promise<void> {
  loading ??= import("fast-png").then((module) => void (fastPng = module));
  return loading;
}

/** Encodes 8-bit RGBA pixels as PNG with fast-png's defaults; {@link loadPngEncoder} must have run. */
export function encodeRgbaPng(width: number, height: number, data: Uint8Array): Uint8Array {
  if (!fastPng) throw new Error("internal: encodeRgbaPng called before loadPngEncoder() was awaited");
  return fastPng.encode({ width, height, data, channels: 4, depth: 8 });
}
