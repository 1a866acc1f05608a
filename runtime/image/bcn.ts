/**
 * Block-compressed texture formats beyond DXT1/3/5, as texture packs and LancerEdit write them into
 * `MIPS`: BC4 (`ATI1`, one channel: LancerEdit's metallic and roughness maps), BC5 (`ATI2`, two
 * channels: LancerEdit's normal maps), both unsigned and signed, and BC7 (DX10 header, modern
 * compressors). Written from the Direct3D 11 block layouts; every block is 8 or 16 bytes, so the
 * caller checks the whole block array against the data once and nothing here reads past it.
 *
 * Output is RGBA8, top row first. BC4 is written as grey (its one channel in R, G and B); BC5 as a
 * tangent-space normal map, its Z rebuilt in blue from X and Y (`z = √(1 − x² − y²)`), as normal maps
 * need it; D3D itself samples BC4 as (r, 0, 0, 1) and BC5 as (r, g, 0, 1).
 *
 * @module
 */

/** Writes one decoded 4×4 block (`texels`: 16 RGBA quadruples) into the image, clipped at its edges. */
function putBlock(
  out: Uint8Array,
  width: number,
  height: number,
  bx: number,
  by: number,
  texels: Uint8Array,
): void {
  for (let py = 0; py < 4; py++) {
    const y = by * 4 + py;
    if (y >= height) break;
    for (let px = 0; px < 4; px++) {
      const x = bx * 4 + px;
      if (x >= width) break;
      const o = (y * width + x) * 4, t = (py * 4 + px) * 4;
      out[o] = texels[t];
      out[o + 1] = texels[t + 1];
      out[o + 2] = texels[t + 2];
      out[o + 3] = texels[t + 3];
    }
  }
}

/**
 * One BC4 channel block (8 bytes at `at`) into `values` (16 numbers in 0..255). Unsigned: two 8-bit
 * endpoints; signed: two int8 endpoints (−128 reads as −127) mapped from [−1, 1] to 0..255. Eight
 * interpolated values when endpoint 0 > endpoint 1, else six plus the two extremes.
 */
function bc4Channel(src: Uint8Array, at: number, signed: boolean, values: Float64Array): void {
  const palette = new Float64Array(8);
  let e0 = src[at], e1 = src[at + 1];
  if (signed) {
    e0 = Math.max(-127, (e0 << 24) >> 24);
    e1 = Math.max(-127, (e1 << 24) >> 24);
  }
  palette[0] = e0;
  palette[1] = e1;
  if (e0 > e1) {
    for (let i = 1; i < 7; i++) palette[i + 1] = ((7 - i) * e0 + i * e1) / 7;
  } else {
    for (let i = 1; i < 5; i++) palette[i + 1] = ((5 - i) * e0 + i * e1) / 5;
    palette[6] = signed ? -127 : 0;
    palette[7] = signed ? 127 : 255;
  }
  // 48 bits of 3-bit indices, texel 0 lowest; read in two 24-bit halves to stay in integer range.
  const low = src[at + 2] | src[at + 3] << 8 | src[at + 4] << 16;
  const high = src[at + 5] | src[at + 6] << 8 | src[at + 7] << 16;
  for (let t = 0; t < 16; t++) {
    const index = t < 8 ? (low >> (3 * t)) & 7 : (high >> (3 * (t - 8))) & 7;
    const v = palette[index];
    values[t] = signed ? (v + 127) * 255 / 254 : v;
  }
}

/**
 * Decodes BC4 (`channels` 1, 8-byte blocks) or BC5 (`channels` 2, 16-byte blocks: red block, then
 * green) to RGBA8. `src` holds exactly the top level's blocks.
 *
 * @example
 * ```ts
 * const blocks = new Uint8Array(16 * 16 * 16); // 16 × 16 blocks of 16 bytes: a 64 × 64 ATI2 normal map
 * const rgba = decodeBc45(blocks, 64, 64, 2, false);
 * console.log(rgba.length); // 16384
 * ```
 */
export function decodeBc45(
  src: Uint8Array,
  width: number,
  height: number,
  channels: 1 | 2,
  signed: boolean,
): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const bw = Math.ceil(width / 4), bh = Math.ceil(height / 4);
  const blockBytes = 8 * channels;
  const r = new Float64Array(16), g = new Float64Array(16);
  const texels = new Uint8Array(64);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const at = (by * bw + bx) * blockBytes;
      bc4Channel(src, at, signed, r);
      if (channels === 2) bc4Channel(src, at + 8, signed, g);
      for (let t = 0; t < 16; t++) {
        const red = Math.round(r[t]);
        if (channels === 1) {
          texels[4 * t] = texels[4 * t + 1] = texels[4 * t + 2] = red;
        } else {
          const green = Math.round(g[t]);
          const x = red / 127.5 - 1, y = green / 127.5 - 1;
          const z = Math.sqrt(Math.max(0, 1 - x * x - y * y));
          texels[4 * t] = red;
          texels[4 * t + 1] = green;
          texels[4 * t + 2] = Math.round((z + 1) * 127.5);
        }
        texels[4 * t + 3] = 255;
      }
      putBlock(out, width, height, bx, by, texels);
    }
  }
  return out;
}

/** Per mode: subsets, partition bits, rotation bits, index-selection bit, colour bits, alpha bits,
 * per-endpoint p-bits, per-subset p-bits, index bits, second index bits (D3D11 BC7 mode table). */
const BC7_MODES: readonly (readonly number[])[] = [
  [3, 4, 0, 0, 4, 0, 1, 0, 3, 0],
  [2, 6, 0, 0, 6, 0, 0, 1, 3, 0],
  [3, 6, 0, 0, 5, 0, 0, 0, 2, 0],
  [2, 6, 0, 0, 7, 0, 1, 0, 2, 0],
  [1, 0, 2, 1, 5, 6, 0, 0, 2, 3],
  [1, 0, 2, 0, 7, 8, 0, 0, 2, 2],
  [1, 0, 0, 0, 7, 7, 1, 0, 4, 0],
  [2, 6, 0, 0, 5, 5, 1, 0, 2, 0],
];

/** Interpolation weights out of 64 for 2-, 3- and 4-bit indices. */
const BC7_WEIGHTS: Record<number, readonly number[]> = {
  2: [0, 21, 43, 64],
  3: [0, 9, 18, 27, 37, 46, 55, 64],
  4: [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64],
};

/** Two-subset partitions (the format's table): bit t set = texel t in subset 1. */
// deno-fmt-ignore
const BC7_PARTITION2: readonly number[] = [
  0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80,
  0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000,
  0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce,
  0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c,
  0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a,
  0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660,
  0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c,
  0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
];

/** Three-subset partitions: two bits a texel, texel 0 lowest. */
// deno-fmt-ignore
const BC7_PARTITION3: readonly number[] = [
  0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050,
  0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250,
  0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
  0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200,
  0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50,
  0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
  0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
  0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
];

/** Anchor texel of subset 1 in two-subset partitions. */
// deno-fmt-ignore
const BC7_ANCHOR2: readonly number[] = [
  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
  15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2,
  15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6,
  6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
];

/** Anchor texels of subsets 1 and 2 in three-subset partitions. */
// deno-fmt-ignore
const BC7_ANCHOR3A: readonly number[] = [
  3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3,
  3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15,
  8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15,
  3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
];
// deno-fmt-ignore
const BC7_ANCHOR3B: readonly number[] = [
  15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8,
  15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8,
  15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8,
  15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
];

/** Which subset texel `t` belongs to. */
function bc7Subset(subsets: number, partition: number, t: number): number {
  if (subsets === 2) return (BC7_PARTITION2[partition] >> t) & 1;
  if (subsets === 3) return (BC7_PARTITION3[partition] >>> (2 * t)) & 3;
  return 0;
}

/** True when texel `t` is an anchor (its index is stored with one bit less). */
function bc7Anchor(subsets: number, partition: number, t: number): boolean {
  if (t === 0) return true;
  if (subsets === 2) return t === BC7_ANCHOR2[partition];
  if (subsets === 3) return t === BC7_ANCHOR3A[partition] || t === BC7_ANCHOR3B[partition];
  return false;
}

/** Decodes one 16-byte BC7 block at `at` into `texels` (16 RGBA quadruples). */
function bc7Block(src: Uint8Array, at: number, texels: Uint8Array): void {
  let bit = 0;
  const read = (count: number): number => {
    let v = 0;
    for (let i = 0; i < count; i++, bit++) v |= ((src[at + (bit >> 3)] >> (bit & 7)) & 1) << i;
    return v;
  };
  let mode = 0;
  while (mode < 8 && read(1) === 0) mode++;
  if (mode === 8) {
    // No mode bit set: a reserved block, which D3D decodes as transparent black.
    texels.fill(0);
    return;
  }
  const [
    subsets,
    partitionBits,
    rotationBits,
    selectionBits,
    colorBits,
    alphaBits,
    endpointP,
    sharedP,
    ib,
    ib2,
  ] = BC7_MODES[mode];
  const partition = read(partitionBits);
  const rotation = read(rotationBits);
  const selection = read(selectionBits);
  const endpoints = 2 * subsets;
  // Endpoint e, channel c at ep[4e + c]; alpha 255 in modes without it.
  const ep = new Int32Array(4 * endpoints);
  for (let c = 0; c < 3; c++) for (let e = 0; e < endpoints; e++) ep[4 * e + c] = read(colorBits);
  for (let e = 0; e < endpoints; e++) ep[4 * e + 3] = alphaBits ? read(alphaBits) : 255;
  let cBits = colorBits, aBits = alphaBits;
  if (endpointP || sharedP) {
    cBits++;
    if (aBits) aBits++;
    // One p-bit per endpoint, or one per subset shared by its two endpoints (mode 1).
    const pbits = new Uint8Array(endpoints);
    if (endpointP) { for (let e = 0; e < endpoints; e++) pbits[e] = read(1); }
    else for (let s = 0; s < subsets; s++) pbits[2 * s] = pbits[2 * s + 1] = read(1);
    for (let e = 0; e < endpoints; e++) {
      for (let c = 0; c < 3; c++) ep[4 * e + c] = (ep[4 * e + c] << 1) | pbits[e];
      if (alphaBits) ep[4 * e + 3] = (ep[4 * e + 3] << 1) | pbits[e];
    }
  }
  for (let e = 0; e < endpoints; e++) {
    for (let c = 0; c < 3; c++) ep[4 * e + c] = expandBits(ep[4 * e + c], cBits);
    if (alphaBits) ep[4 * e + 3] = expandBits(ep[4 * e + 3], aBits);
  }
  // Primary indices (ib bits, anchors one less), then the secondary set (modes 4 and 5).
  const primary = new Uint8Array(16), secondary = new Uint8Array(16);
  for (let t = 0; t < 16; t++) primary[t] = read(bc7Anchor(subsets, partition, t) ? ib - 1 : ib);
  if (ib2) { for (let t = 0; t < 16; t++) secondary[t] = read(t === 0 ? ib2 - 1 : ib2); }
  for (let t = 0; t < 16; t++) {
    const s = bc7Subset(subsets, partition, t);
    let colorWeight: number, alphaWeight: number;
    if (!ib2) {
      colorWeight = alphaWeight = BC7_WEIGHTS[ib][primary[t]];
    } else if (selection) {
      colorWeight = BC7_WEIGHTS[ib2][secondary[t]];
      alphaWeight = BC7_WEIGHTS[ib][primary[t]];
    } else {
      colorWeight = BC7_WEIGHTS[ib][primary[t]];
      alphaWeight = BC7_WEIGHTS[ib2][secondary[t]];
    }
    const e0 = 8 * s, e1 = 8 * s + 4;
    for (let c = 0; c < 4; c++) {
      const w = c === 3 ? alphaWeight : colorWeight;
      texels[4 * t + c] = ((64 - w) * ep[e0 + c] + w * ep[e1 + c] + 32) >> 6;
    }
    if (rotation) {
      // Rotation 1, 2, 3 swaps alpha with red, green, blue.
      const c = rotation - 1, swap = texels[4 * t + c];
      texels[4 * t + c] = texels[4 * t + 3];
      texels[4 * t + 3] = swap;
    }
  }
}

/** An n-bit value widened to 8 bits by repeating its top bits below it. */
function expandBits(v: number, bits: number): number {
  const shifted = v << (8 - bits);
  return (shifted | (shifted >> bits)) & 0xff;
}

/**
 * Decodes BC7 blocks (16 bytes each) to RGBA8. `src` holds exactly the top level's blocks.
 *
 * @example
 * ```ts
 * const blocks = new Uint8Array(64 * 64 * 16); // 64 × 64 blocks of 16 bytes
 * const rgba = decodeBc7(blocks, 256, 256);
 * console.log(rgba.length); // 262144
 * ```
 */
export function decodeBc7(src: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const bw = Math.ceil(width / 4), bh = Math.ceil(height / 4);
  const texels = new Uint8Array(64);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      bc7Block(src, (by * bw + bx) * 16, texels);
      putBlock(out, width, height, bx, by, texels);
    }
  }
  return out;
}
