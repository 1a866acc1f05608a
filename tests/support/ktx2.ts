/**
 * KTX2 textures as web optimisers ship them (Basis Universal UASTC, `KHR_texture_basisu`), written
 * by code: no Basis encoder is a dependency, and a UASTC image of solid-colour blocks is simple
 * enough to write from the format's definition (UASTC block mode 8 carries one RGBA colour and the
 * ETC1 hints transcoders to ETC use), so exact pixels can be asserted. The transcoder that turns it
 * into a GPU format is Binomial's own, in three.js's `KTX2Loader`. What only a real encoder writes —
 * ETC1S (BasisLZ codebooks, gltfpack `-tc`'s default), mip chains, Zstandard supercompression, a
 * real picture ({@link withKtx2Textures}) — comes from Binomial's own encoder ({@link encodedKtx2};
 * `ktx2-encoder`, its WebAssembly build).
 *
 * @module
 */
import { KHRTextureBasisu } from "@gltf-transform/extensions";
import { encodeToKTX2 } from "ktx2-encoder";
import { texturedQuadGlb, withTexturesAs } from "./textured.ts";

/** The twelve bytes a KTX 2.0 file starts with. */
const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];
/** Khronos data format descriptor colour model of UASTC. */
const KHR_DF_MODEL_UASTC = 166;
/** UASTC block mode 8 (solid colour): its 5-bit code, written first. */
const UASTC_SOLID_MODE = { code: 0b10111, bits: 5 };

/** An RGB colour, each channel 0–255. */
export type Rgb = readonly [number, number, number];

/** Appends `bits` low bits of `value` to `block` at `at`, least significant first; returns the next offset. */
function putBits(block: Uint8Array, at: number, value: number, bits: number): number {
  for (let i = 0; i < bits; i++, at++) {
    if ((value >> i) & 1) block[at >> 3] |= 1 << (at & 7);
  }
  return at;
}

/** One 16-byte UASTC solid-colour block of `rgb` (opaque). */
function solidBlock([r, g, b]: Rgb): Uint8Array {
  const block = new Uint8Array(16);
  let at = putBits(block, 0, UASTC_SOLID_MODE.code, UASTC_SOLID_MODE.bits);
  for (const channel of [r, g, b, 255]) at = putBits(block, at, channel, 8);
  // ETC1 hints: differential mode, intensity table 0, selector 0, the colour in 5 bits a channel.
  at = putBits(block, at, 1, 1);
  at = putBits(block, at, 0, 3);
  at = putBits(block, at, 0, 2);
  for (const channel of [r, g, b]) at = putBits(block, at, channel >> 3, 5);
  return block;
}

/**
 * A `width` × `height` KTX2 file (one mip level, sRGB, no supercompression) of UASTC blocks, each
 * 4 × 4 block coloured by `colourAt(blockX, blockY)`.
 *
 * @example
 * ```ts
 * const red = uastcKtx2(8, 8, () => [255, 0, 0]);
 * ```
 */
export function uastcKtx2(
  width: number,
  height: number,
  colourAt: (x: number, y: number) => Rgb,
): Uint8Array {
  const blocksX = Math.ceil(width / 4), blocksY = Math.ceil(height / 4);
  const dfdOffset = 80 + 24; // header and index, then one level's index entry
  const dfdLength = 4 + 24 + 16; // total size, the basic block, one sample
  const dataOffset = Math.ceil((dfdOffset + dfdLength) / 16) * 16; // levels align to the 16-byte block
  const dataLength = blocksX * blocksY * 16;
  const file = new Uint8Array(dataOffset + dataLength);
  const view = new DataView(file.buffer);
  file.set(KTX2_IDENTIFIER);
  // vkFormat 0 (Basis), typeSize 1, width, height, depth 0, layers 0, faces 1, levels 1, no supercompression.
  [0, 1, width, height, 0, 0, 1, 1, 0].forEach((value, i) => view.setUint32(12 + 4 * i, value, true));
  view.setUint32(48, dfdOffset, true);
  view.setUint32(52, dfdLength, true);
  // No key/value data, no supercompression global data (their offsets and lengths stay 0).
  view.setBigUint64(80, BigInt(dataOffset), true);
  view.setBigUint64(88, BigInt(dataLength), true);
  view.setBigUint64(96, BigInt(dataLength), true);

  let at = dfdOffset;
  view.setUint32(at, dfdLength, true);
  view.setUint32(at + 4, 0, true); // vendor Khronos, descriptor type basic
  view.setUint16(at + 8, 2, true); // version 1.3
  view.setUint16(at + 10, 24 + 16, true);
  file.set([KHR_DF_MODEL_UASTC, 1, /* BT.709 */ 2, /* sRGB */ 0], at + 12);
  file.set([3, 3, 0, 0], at + 16); // 4 × 4 texel blocks (each dimension minus one)
  file[at + 20] = 16; // bytes per block in plane 0
  at += 28;
  view.setUint16(at, 0, true); // the sample: bit offset 0, 128 bits, channel UASTC RGB (0)
  file[at + 2] = 127;
  file[at + 3] = 0;
  view.setUint32(at + 8, 0, true);
  view.setUint32(at + 12, 0xffffffff, true);

  for (let y = 0; y < blocksY; y++) {
    for (let x = 0; x < blocksX; x++) {
      file.set(solidBlock(colourAt(x, y)), dataOffset + (y * blocksX + x) * 16);
    }
  }
  return file;
}

/**
 * A GLB of one textured quad (`Panel`) whose base colour is `ktx2`, required through
 * `KHR_texture_basisu` as optimisers write it.
 *
 * @example
 * ```ts
 * const glb = await basisuQuadGlb(uastcKtx2(8, 8, () => [255, 0, 0]));
 * ```
 */
export function basisuQuadGlb(ktx2: Uint8Array): Promise<Uint8Array> {
  return texturedQuadGlb(ktx2, "image/ktx2", KHRTextureBasisu);
}

/**
 * `glb` with every PNG texture replaced by a KTX2 of it as gltfpack `-tc` writes one (ETC1S with its
 * mip chain, by {@link encodedKtx2}), required through `KHR_texture_basisu` as a texture-compressing
 * optimiser leaves a file. `effort` is the ETC1S compression level (see {@link Ktx2Encoding}).
 */
export function withKtx2Textures(glb: Uint8Array, effort?: number): Promise<Uint8Array> {
  return withTexturesAs(
    glb,
    "image/ktx2",
    KHRTextureBasisu,
    (rgba, width, height) => encodedKtx2(width, height, rgba, { codec: "etc1s", mipmaps: true, effort }),
  );
}

/**
 * How {@link encodedKtx2} encodes: the codec, a full mip chain, Zstandard (UASTC only), and the
 * ETC1S encoder's effort (its compression level 0–6, 2 when absent as in `basisu`). Effort trades
 * encoding time for file size only: the file's layout (BasisLZ, the level index) is the same.
 */
export interface Ktx2Encoding {
  readonly codec: "etc1s" | "uastc";
  readonly mipmaps: boolean;
  readonly zstd?: boolean;
  readonly effort?: number;
}

/**
 * RGBA pixels (`width` × `height`, rows top to bottom) encoded by Binomial's Basis Universal encoder
 * as a web optimiser would (sRGB; ETC1S at quality 128, the encoders' middle setting).
 */
export async function encodedKtx2(
  width: number,
  height: number,
  rgba: Uint8Array,
  encoding: Ktx2Encoding,
): Promise<Uint8Array> {
  // The encoder's WebAssembly prints its progress through console.log whatever its debug flag says.
  const log = console.log;
  console.log = () => {};
  try {
    return await encodeToKTX2(rgba, {
      isUASTC: encoding.codec === "uastc",
      generateMipmap: encoding.mipmaps,
      needSupercompression: encoding.zstd ?? false,
      qualityLevel: 128,
      // Absent, the encoder keeps its own default (2): the files made before stay byte for byte.
      ...(encoding.effort === undefined ? {} : { compressionLevel: encoding.effort }),
      isSetKTX2SRGBTransferFunc: true,
      imageDecoder: () => Promise.resolve({ width, height, data: rgba }),
    });
  } finally {
    console.log = log;
  }
}
