/**
 * KTX2 holding GPU block formats (BC1–BC5, BC7) or plain 8-bit RGBA/BGRA, not Basis Universal: what
 * Microsoft Flight Simulator 2024's packages ship (`X_ALBD.PNG.KTX2`) and `toktx`/`ktx create` write
 * for desktop GPUs. Browsers and Blender read none of it; three.js's `KTX2Loader` needs a GPU that
 * samples the format. The top mip level is decoded to RGBA8 by the DDS reader's block decoders,
 * after undoing Zstandard or zlib supercompression (bounded by the size the level must have).
 * Basis Universal KTX2 (format 0) is `textures.to_png`'s, through Binomial's transcoder.
 *
 * @module
 */
import { inflateSync, zstdDecompressSync } from "node:zlib";
import { ByteWindow } from "../binary.ts";
import { decodeDxgiSurface, dxgiUnitBytes, type RgbaImage } from "./dds.ts";

/** The twelve bytes a KTX 2.0 file starts with. */
const IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_SIDE = 16384;
/** Supercompression schemes: none, Basis LZ (Basis's own), Zstandard, zlib. */
const NONE = 0, ZSTD = 2, ZLIB = 3;

/** Vulkan formats (KTX2's `vkFormat`) this reader decodes, as the DXGI formats of the same bytes. */
const VK_TO_DXGI = new Map<number, number>([
  [37, 28], // R8G8B8A8_UNORM
  [43, 28], // R8G8B8A8_SRGB
  [44, 87], // B8G8R8A8_UNORM
  [50, 87], // B8G8R8A8_SRGB
  [131, 71], // BC1_RGB_UNORM
  [132, 71], // BC1_RGB_SRGB
  [133, 71], // BC1_RGBA_UNORM
  [134, 71], // BC1_RGBA_SRGB
  [135, 74], // BC2_UNORM
  [136, 74], // BC2_SRGB
  [137, 77], // BC3_UNORM
  [138, 77], // BC3_SRGB
  [139, 80], // BC4_UNORM
  [140, 81], // BC4_SNORM
  [141, 83], // BC5_UNORM
  [142, 84], // BC5_SNORM
  [145, 98], // BC7_UNORM
  [146, 98], // BC7_SRGB
]);

/** True when `bytes` start as a KTX 2.0 file does. */
export function isKtx2(bytes: Uint8Array): boolean {
  return bytes.length >= IDENTIFIER.length && IDENTIFIER.every((b, i) => bytes[i] === b);
}

/** True for a KTX2 file in a block or plain format this reader decodes (not Basis Universal). */
export function isBlockKtx2(bytes: Uint8Array): boolean {
  return isKtx2(bytes) && bytes.length >= 16 &&
    VK_TO_DXGI.has(new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true));
}

/**
 * Decodes the top mip level of a KTX2 file in a block or plain format; a DecodeError at the byte
 * offset for anything else (Basis Universal, a cube map, an array, a volume, Basis LZ, data the
 * file does not hold, a level that decompresses to another size than its format needs).
 *
 * @example
 * ```ts
 * import { ByteWindow } from "../binary.ts";
 *
 * const file = await Deno.readFile("wing_ALBD.PNG.KTX2");
 * const { width, height, data } = decodeKtx2(ByteWindow.of(file, "ktx2", "wing_ALBD.PNG.KTX2"));
 * ```
 */
export function decodeKtx2(ktx: ByteWindow): RgbaImage {
  ktx.need(0, 80, "a KTX2 header");
  if (!isKtx2(ktx.view(0, 12))) ktx.fail(0, "the KTX 2.0 identifier", "other bytes");
  const vkFormat = ktx.u32(12, "vkFormat");
  const dxgi = VK_TO_DXGI.get(vkFormat);
  if (dxgi === undefined) {
    ktx.fail(
      12,
      "a block (BC1–BC5, BC7) or 8-bit RGBA format",
      vkFormat ? `Vulkan format ${vkFormat}` : "Basis Universal (format 0)",
    );
  }
  const width = ktx.u32(20, "pixelWidth"), height = ktx.u32(24, "pixelHeight");
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    ktx.fail(20, `a size within 1..${MAX_SIDE}`, `${width}×${height}`);
  }
  const depth = ktx.u32(28, "pixelDepth"),
    layers = ktx.u32(32, "layerCount"),
    faces = ktx.u32(36, "faceCount");
  if (depth > 1 || layers > 1 || faces !== 1) {
    ktx.fail(
      28,
      "one 2D image (depth 0, no layers, one face)",
      `depth ${depth}, ${layers} layers, ${faces} faces`,
    );
  }
  const scheme = ktx.u32(44, "supercompressionScheme");
  if (![NONE, ZSTD, ZLIB].includes(scheme)) {
    ktx.fail(44, "no supercompression, Zstandard or zlib", `scheme ${scheme}`);
  }
  // The level index starts at byte 80; level 0, the largest, comes first.
  const offset = u64(ktx, 80, "level 0 byteOffset"), length = u64(ktx, 88, "level 0 byteLength");
  ktx.need(offset, length, "level 0's data");
  const unit = dxgiUnitBytes(dxgi)!;
  const size = unit.block
    ? Math.ceil(width / 4) * Math.ceil(height / 4) * unit.bytes
    : width * height * unit.bytes;
  if (scheme === NONE) return decodeDxgiSurface(ktx, dxgi, offset, width, height)!;
  const packed = ktx.view(offset, length);
  let level: Uint8Array;
  try {
    // Bounded by the size the level must have: a bomb stops there.
    const options = { maxOutputLength: size + 1 };
    level = new Uint8Array(
      scheme === ZSTD ? zstdDecompressSync(packed, options) : inflateSync(packed, options),
    );
  } catch (cause) {
    ktx.fail(
      offset,
      `level 0 ${scheme === ZSTD ? "Zstandard" : "zlib"} data of ${size} bytes`,
      String(cause instanceof Error ? cause.message : cause),
    );
  }
  if (level.length !== size) {
    ktx.fail(offset, `level 0 of ${size} bytes once decompressed`, `${level.length} bytes`);
  }
  return decodeDxgiSurface(ByteWindow.of(level, ktx.format), dxgi, 0, width, height)!;
}

/** A u64 field that must fit in a JavaScript safe integer (files here are far below 4 GB). */
function u64(ktx: ByteWindow, at: number, what: string): number {
  const low = ktx.u32(at, what), high = ktx.u32(at + 4, what);
  if (high > 0x1fffff) ktx.fail(at, `${what} below 2⁵³`, `high word ${high}`);
  return high * 2 ** 32 + low;
}
