/**
 * DDS (the `MIPS` leaf of a texture): top mip level of DXT1, DXT3, DXT5 or uncompressed RGB(A)
 * to RGBA8. Sizes are checked against the data before the output is allocated.
 *
 * @module
 */
import type { ByteWindow } from "../../../../runtime/binary.ts";

/** Decoded RGBA8 pixels, top row first. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

const DDS_MAGIC = 0x20534444;
const FOURCC_FLAG = 0x4;
const ALPHA_FLAG = 0x1;
const MAX_SIDE = 16384;

const fourCC = (s: string) =>
  s.charCodeAt(0) | s.charCodeAt(1) << 8 | s.charCodeAt(2) << 16 | s.charCodeAt(3) << 24;

/**
 * Decodes the first mip level of a DDS file.
 *
 * @example
 * ```ts
 * const { width, height, data } = decodeDds(window);
 * ```
 */
export function decodeDds(dds: ByteWindow): RgbaImage {
  const magic = dds.u32(0, "DDS magic");
  if (magic !== DDS_MAGIC) dds.fail(0, "DDS magic 'DDS '", "0x" + magic.toString(16));
  const height = dds.u32(12, "DDS height");
  const width = dds.u32(16, "DDS width");
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    dds.fail(12, `DDS size within 1..${MAX_SIDE}`, `${width}×${height}`);
  }
  const pfFlags = dds.u32(80, "DDS pixel format flags");
  const code = dds.u32(84, "DDS fourCC");
  if (pfFlags & FOURCC_FLAG) {
    const kind = code === fourCC("DXT1") ? 1 : code === fourCC("DXT3") ? 3 : code === fourCC("DXT5") ? 5 : 0;
    if (!kind) {
      dds.fail(
        84,
        "fourCC DXT1, DXT3 or DXT5",
        JSON.stringify(String.fromCharCode(code & 0xff, code >> 8 & 0xff, code >> 16 & 0xff, code >>> 24)),
      );
    }
    const blockBytes = kind === 1 ? 8 : 16;
    const size = Math.ceil(width / 4) * Math.ceil(height / 4) * blockBytes;
    dds.need(128, size, "DXT blocks");
    return decodeDxt(dds.view(128, size), width, height, kind);
  }
  const bits = dds.u32(88, "DDS bit count");
  if (bits !== 16 && bits !== 24 && bits !== 32) dds.fail(88, "16, 24 or 32 bits per pixel", String(bits));
  const masks = [92, 96, 100, 104].map((at) => dds.u32(at, "DDS channel mask"));
  if (!(pfFlags & ALPHA_FLAG)) masks[3] = 0;
  const bpp = bits >> 3;
  dds.need(128, width * height * bpp, "DDS pixels");
  const src = dds.view(128, width * height * bpp);
  const out = new Uint8Array(width * height * 4);
  const shifts = masks.map((m) => (m ? 31 - Math.clz32(m & -m) : 0));
  const scales = masks.map((m, i) => (m ? 255 / (m >>> shifts[i]) : 0));
  for (let p = 0; p < width * height; p++) {
    let v = 0;
    for (let b = 0; b < bpp; b++) v |= src[p * bpp + b] << (8 * b);
    for (let c = 0; c < 4; c++) {
      out[4 * p + c] = masks[c] ? Math.round(((v & masks[c]) >>> shifts[c]) * scales[c]) : c === 3 ? 255 : 0;
    }
  }
  return { width, height, data: out };
}

function decodeDxt(src: Uint8Array, width: number, height: number, kind: 1 | 3 | 5): RgbaImage {
  const out = new Uint8Array(width * height * 4);
  const blockBytes = kind === 1 ? 8 : 16;
  const bw = Math.ceil(width / 4), bh = Math.ceil(height / 4);
  const palette = new Uint8Array(16);
  const alphas = new Uint8Array(8);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const block = (by * bw + bx) * blockBytes;
      const colorAt = kind === 1 ? block : block + 8;
      const c0 = src[colorAt] | src[colorAt + 1] << 8;
      const c1 = src[colorAt + 2] | src[colorAt + 3] << 8;
      expand565(c0, palette, 0);
      expand565(c1, palette, 4);
      // DXT1 blocks with c0 <= c1 have 1-bit alpha: colour 3 is transparent black.
      const fourColor = kind !== 1 || c0 > c1;
      for (let c = 0; c < 3; c++) {
        const a = palette[c], b = palette[4 + c];
        palette[8 + c] = fourColor ? ((2 * a + b) / 3) | 0 : ((a + b) / 2) | 0;
        palette[12 + c] = fourColor ? ((a + 2 * b) / 3) | 0 : 0;
      }
      palette[3] = palette[7] = palette[11] = 255;
      palette[15] = fourColor ? 255 : 0;
      if (kind === 5) {
        alphas[0] = src[block];
        alphas[1] = src[block + 1];
        for (let i = 2; i < 8; i++) {
          alphas[i] = alphas[0] > alphas[1]
            ? ((8 - i) * alphas[0] + (i - 1) * alphas[1]) / 7
            : i < 6
            ? ((6 - i) * alphas[0] + (i - 1) * alphas[1]) / 5
            : i === 6
            ? 0
            : 255;
        }
      }
      for (let py = 0; py < 4; py++) {
        const y = by * 4 + py;
        if (y >= height) break;
        const rowBits = src[colorAt + 4 + py];
        for (let px = 0; px < 4; px++) {
          const x = bx * 4 + px;
          if (x >= width) break;
          const index = (rowBits >> (2 * px)) & 3;
          const o = (y * width + x) * 4;
          out[o] = palette[4 * index];
          out[o + 1] = palette[4 * index + 1];
          out[o + 2] = palette[4 * index + 2];
          out[o + 3] = palette[4 * index + 3];
          const texel = py * 4 + px;
          if (kind === 3) {
            const nibble = (src[block + (texel >> 1)] >> ((texel & 1) * 4)) & 0xf;
            out[o + 3] = nibble * 17;
          } else if (kind === 5) {
            const bit = 3 * texel;
            const byte = block + 2 + (bit >> 3);
            const word = src[byte] | (src[byte + 1] ?? 0) << 8;
            out[o + 3] = alphas[(word >> (bit & 7)) & 7];
          }
        }
      }
    }
  }
  return { width, height, data: out };
}

function expand565(c: number, out: Uint8Array, at: number): void {
  const r = c >> 11 & 31, g = c >> 5 & 63, b = c & 31;
  out[at] = (r << 3) | (r >> 2);
  out[at + 1] = (g << 2) | (g >> 4);
  out[at + 2] = (b << 3) | (b >> 2);
}
