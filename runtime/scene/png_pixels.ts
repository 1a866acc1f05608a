/**
 * A texture's PNG as pixels, for decoders' repairs that must change what a texture holds (a DirectX
 * normal map's green, a glTF 1.0 RGB texture's alpha, a Carnivores picture's colour key): its header
 * read before anything is allocated, and any PNG (palette, grey, 16-bit) decoded to 8-bit RGBA by
 * `fast-png`.
 *
 * @module
 */
import type { RgbaPixels } from "./png.ts";
import { DecodeError } from "../errors.ts";
import { pngDataSizeFault } from "./png_data_size.ts";

/** `fast-png`'s decoder, loaded by the caller only for files that need it. */
export type PngDecoder = typeof import("fast-png").decode;

/** The largest image decoded here (pixels): 8K², past any a model's texture is; larger ones are left. */
export const MAX_PIXELS = 8192 * 8192;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What a PNG's header says: its size and colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA). */
export interface PngHeader {
  readonly width: number;
  readonly height: number;
  readonly colourType: number;
  /** Bits per sample (1, 2, 4, 8 or 16). */
  readonly depth: number;
  /** Whether it carries alpha: an alpha channel, or a `tRNS` chunk (palette alpha or a colour key). */
  readonly alpha: boolean;
}

/**
 * The header of `png` (its IHDR, and whether a `tRNS` chunk comes before the image data), or
 * undefined when it is no PNG. Reads chunk headers only: time linear in the number of chunks.
 *
 * @example
 * ```ts
 * const header = pngHeader(await Deno.readFile("wing.png"));
 * if (header?.alpha) console.log(`${header.width}×${header.height} with alpha`);
 * ```
 */
export function pngHeader(png: Uint8Array): PngHeader | undefined {
  if (png.length < 33 || SIGNATURE.some((b, i) => png[i] !== b)) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (view.getUint32(12) !== 0x49484452) return undefined; // IHDR first
  const colourType = png[25];
  let alpha = colourType === 4 || colourType === 6;
  for (let at = 33; !alpha && at + 8 <= png.length;) {
    const length = view.getUint32(at), type = view.getUint32(at + 4);
    if (type === 0x49444154 || type === 0x49454e44) break; // IDAT, IEND: tRNS comes before them
    if (type === 0x74524e53) alpha = true;
    at += 12 + length;
  }
  return { width: view.getUint32(16), height: view.getUint32(20), colourType, depth: png[24], alpha };
}

/**
 * `png` as 8-bit RGBA (16-bit channels rounded to 8 bits, palette entries looked up, grey spread to
 * RGB, a missing alpha 255). Throws what `decode` throws, or when the samples are fewer than its size,
 * or a {@link DecodeError} when its image data is not the size its header declares (which `decode`
 * would draw sheared, without an error: `runtime/scene/png_data_size.ts`).
 */
export function rgbaOfPng(png: Uint8Array, decode: PngDecoder): RgbaPixels {
  const fault = pngDataSizeFault(png);
  if (fault) throw fault;
  const { width, height, data, channels, depth, palette } = decode(png);
  const pixels = width * height;
  const out = new Uint8Array(4 * pixels);
  if (palette) {
    // Indices of fewer than 8 bits are packed, each row starting on a byte.
    const rowBytes = Math.ceil((width * depth) / 8), mask = (1 << depth) - 1;
    for (let y = 0, o = 0; y < height; y++) {
      for (let x = 0; x < width; x++, o += 4) {
        const bit = x * depth;
        const entry = palette[(data[y * rowBytes + (bit >> 3)] >> (8 - depth - (bit & 7))) & mask];
        out[o] = entry?.[0] ?? 0;
        out[o + 1] = entry?.[1] ?? 0;
        out[o + 2] = entry?.[2] ?? 0;
        out[o + 3] = entry?.[3] ?? 255;
      }
    }
    return { width, height, data: out };
  }
  if (depth < 8) throw new Error(`${depth}-bit samples outside a palette`);
  if (data.length < pixels * channels) throw new Error("fewer samples than the image's size");
  const to8 = depth === 16 ? (v: number) => Math.round(v / 257) : (v: number) => v;
  const grey = channels < 3;
  for (let i = 0, s = 0, o = 0; i < pixels; i++, s += channels, o += 4) {
    const r = to8(data[s]);
    out[o] = r;
    out[o + 1] = grey ? r : to8(data[s + 1]);
    out[o + 2] = grey ? r : to8(data[s + 2]);
    out[o + 3] = channels === 4 || channels === 2 ? to8(data[s + channels - 1]) : 255;
  }
  return { width, height, data: out };
}

/**
 * What a repair says of a PNG it could not read: the {@link DecodeError}'s message (a damaged PNG:
 * where, expected and found), else `fallback`.
 */
export function pngFailure(error: unknown, fallback: string): string {
  return error instanceof DecodeError ? `its PNG is damaged (${error.message})` : fallback;
}
