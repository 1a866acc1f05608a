/**
 * WebP images to RGBA pixels with libwebp (Google's decoder, as Squoosh builds it to WebAssembly:
 * `npm:@jsquash/webp`), loaded on first use. The image's size is read from its header first, so
 * no decoder allocates for a size beyond `MAX_TEXTURE_SIDE` (`limits.ts`).
 *
 * @module
 */
import type { RgbaPixels } from "../../runtime/scene/png.ts";
import { loadSquooshCodec } from "./squoosh.ts";
import { checkTextureSize, imageFail } from "./limits.ts";

type Decode = (buffer: ArrayBuffer) => Promise<{ width: number; height: number; data: Uint8ClampedArray }>;

let decoder: Promise<Decode> | undefined;

/** Loads libwebp's decoder once per process. */
export function loadWebpDecoder(): Promise<Decode> {
  decoder ??= loadSquooshCodec<Decode>(
    import("@jsquash/webp/decode.js"),
    "@jsquash/webp/codec/dec/webp_dec.wasm",
  );
  decoder.catch(() => decoder = undefined);
  return decoder;
}

/**
 * Width and height from a WebP file's first chunk (`VP8 ` lossy, `VP8L` lossless, `VP8X` extended),
 * or a `DecodeError` at `pointer` saying what is wrong.
 */
export function webpSize(bytes: Uint8Array, pointer: string): [number, number] {
  const fail = imageFail("webp", pointer);
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.byteLength < 30 || text(0) !== "RIFF" || text(8) !== "WEBP") {
    fail("a WebP file (RIFF … WEBP and its first chunk)", `${bytes.byteLength} bytes`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunk = text(12);
  if (chunk === "VP8 ") return [view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff];
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === "VP8X") {
    if (bytes[20] & 0x02) fail("a still image", "an animated WebP");
    const u24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
    return [u24(24) + 1, u24(27) + 1];
  }
  return fail("a VP8, VP8L or VP8X chunk first", `'${chunk}'`);
}

/**
 * A WebP image as RGBA pixels; {@link loadWebpDecoder} must have resolved to `decode`. A file that
 * is not one, is animated, or is larger than {@link MAX_TEXTURE_SIDE} a side is a
 * `DecodeError` at `pointer` (the texture's JSON pointer).
 *
 * @example
 * ```ts ignore
 * const { width, height, data } = await webpToRgba(await loadWebpDecoder(), bytes, "/textures/0");
 * ```
 */
export async function webpToRgba(decode: Decode, bytes: Uint8Array, pointer: string): Promise<RgbaPixels> {
  const [width, height] = webpSize(bytes, pointer);
  const fail = imageFail("webp", pointer);
  checkTextureSize(fail, width, height);
  const image = await decode(bytes.slice().buffer).catch((error) =>
    fail("WebP data libwebp decodes", String(error instanceof Error ? error.message : error))
  );
  if (image.width !== width || image.height !== height || image.data.length !== 4 * width * height) {
    fail(`the ${width} × ${height} px its header declares`, `${image.width} × ${image.height} px decoded`);
  }
  return { width, height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length) };
}
