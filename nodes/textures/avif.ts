/**
 * AVIF images to RGBA pixels with libavif and dav1d (as Squoosh builds them to WebAssembly:
 * `npm:@jsquash/avif`), loaded on first use. The image's size is read from its container first
 * (the `ispe` properties of an ISO-BMFF `meta` box), so no decoder allocates for a size beyond
 * `MAX_TEXTURE_SIDE` (`limits.ts`).
 *
 * @module
 */
import type { RgbaPixels } from "../../runtime/scene/png.ts";
import { loadSquooshCodec } from "./squoosh.ts";
import { checkTextureSize, type ImageFail, imageFail } from "./limits.ts";

type Decode = (buffer: ArrayBuffer) => Promise<{ width: number; height: number; data: Uint8ClampedArray }>;

let decoder: Promise<Decode> | undefined;

/** Loads libavif's decoder once per process. */
export function loadAvifDecoder(): Promise<Decode> {
  decoder ??= loadSquooshCodec<Decode>(
    import("@jsquash/avif/decode.js"),
    "@jsquash/avif/codec/dec/avif_dec.wasm",
  );
  decoder.catch(() => decoder = undefined);
  return decoder;
}

/** One ISO-BMFF box: its type and where its payload lies. */
interface Box {
  readonly type: string;
  readonly start: number;
  readonly end: number;
}

/** The boxes laid end to end in `bytes[start, end)`; a box overrunning its parent is a `DecodeError`. */
function boxes(bytes: Uint8Array, start: number, end: number, fail: ImageFail): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Box[] = [];
  for (let at = start; at < end;) {
    if (end - at < 8) fail("a box header (8 bytes)", `${end - at} bytes at byte ${at}`);
    let size = view.getUint32(at), header = 8;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (size === 1) {
      if (end - at < 16) fail("a 64-bit box size", `${end - at} bytes at byte ${at}`);
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || size > end - at) {
      fail(`a '${type}' box within its parent (${end - at} bytes left)`, `${size} bytes at byte ${at}`);
    }
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

/** The one box of `type` among `list`, or a `DecodeError`. */
function only(list: readonly Box[], type: string, fail: ImageFail, within: string): Box {
  const found = list.filter((box) => box.type === type);
  if (found.length !== 1) fail(`one '${type}' box in ${within}`, `${found.length}`);
  return found[0];
}

/**
 * Every image size an AVIF file declares (its `ispe` properties: the primary image's, and any
 * tile's, alpha plane's or thumbnail's), or a `DecodeError` at `pointer` saying what is wrong.
 */
export function avifSizes(bytes: Uint8Array, pointer: string): [number, number][] {
  const fail = imageFail("avif", pointer);
  const top = boxes(bytes, 0, bytes.byteLength, fail);
  const ftyp = top[0]?.type === "ftyp" ? top[0] : fail("an 'ftyp' box first", `'${top[0]?.type}'`);
  const brands: string[] = [];
  for (let at = ftyp.start; at + 4 <= ftyp.end; at += at === ftyp.start ? 8 : 4) {
    brands.push(String.fromCharCode(...bytes.subarray(at, at + 4)));
  }
  if (!brands.includes("avif")) fail("an AVIF still image (brand 'avif')", `brands ${brands.join(", ")}`);
  // `meta` and `ispe` are full boxes: version and flags (4 bytes) before their content.
  const meta = only(top, "meta", fail, "the file");
  const iprp = only(boxes(bytes, meta.start + 4, meta.end, fail), "iprp", fail, "'meta'");
  const ipco = only(boxes(bytes, iprp.start, iprp.end, fail), "ipco", fail, "'iprp'");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sizes = boxes(bytes, ipco.start, ipco.end, fail).filter((box) => box.type === "ispe").map((box) => {
    if (box.end - box.start < 12) fail("an 'ispe' box of 12 bytes", `${box.end - box.start} bytes`);
    return [view.getUint32(box.start + 4), view.getUint32(box.start + 8)] as [number, number];
  });
  if (!sizes.length) fail("an image size ('ispe' property)", "none");
  return sizes;
}

/**
 * An AVIF image (its primary item; an image sequence's first frame) as RGBA pixels;
 * {@link loadAvifDecoder} must have resolved to `decode`. A file that is not one, or declares a
 * size over {@link MAX_TEXTURE_SIDE} a side for any of its images, is a `DecodeError` at `pointer`
 * (the texture's JSON pointer), before the decoder runs.
 *
 * @example
 * ```ts ignore
 * const { width, height, data } = await avifToRgba(await loadAvifDecoder(), bytes, "/textures/0");
 * ```
 */
export async function avifToRgba(decode: Decode, bytes: Uint8Array, pointer: string): Promise<RgbaPixels> {
  const sizes = avifSizes(bytes, pointer);
  const fail = imageFail("avif", pointer);
  for (const [width, height] of sizes) checkTextureSize(fail, width, height);
  const image = await decode(bytes.slice().buffer).catch((error) =>
    fail("AVIF data libavif decodes", String(error instanceof Error ? error.message : error))
  );
  const { width, height } = image;
  if (!sizes.some(([w, h]) => w === width && h === height) || image.data.length !== 4 * width * height) {
    fail(
      `an image of a size the file declares (${sizes.map((s) => s.join(" × ")).join(", ")})`,
      `${width} × ${height} px decoded`,
    );
  }
  return { width, height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length) };
}
