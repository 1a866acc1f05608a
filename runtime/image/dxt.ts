/**
 * DXT1, DXT3 and DXT5 (BC1–BC3) blocks to RGBA8, top row first: the colour endpoints in RGB 5:6:5,
 * DXT1's three-colour mode with its transparent black, DXT3's explicit and DXT5's interpolated alpha.
 *
 * @module
 */
import type { RgbaImage } from "./dds.ts";

/** The `width` × `height` image the DXT`kind` blocks of `src` hold (the caller checks their size). */
export function decodeDxt(src: Uint8Array, width: number, height: number, kind: 1 | 3 | 5): RgbaImage {
  const out = new Uint8Array(width * height * 4);
  // Made before the loop, not after it: V8 compiles this function while the loop runs (on-stack
  // replacement), and an object literal after the loop, never yet run, had no type feedback — the
  // compiled code was thrown away there, image after image (20 times in 7 passes of the Freelancer
  // bench's 16 compounds).
  const image: RgbaImage = { width, height, data: out };
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
  return image;
}

function expand565(c: number, out: Uint8Array, at: number): void {
  const r = c >> 11 & 31, g = c >> 5 & 63, b = c & 31;
  out[at] = (r << 3) | (r >> 2);
  out[at + 1] = (g << 2) | (g >> 4);
  out[at + 2] = (b << 3) | (b >> 2);
}
