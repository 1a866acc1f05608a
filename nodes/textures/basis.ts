/**
 * KTX2 (Basis Universal) images to RGBA pixels with Binomial's own transcoder — the WebAssembly
 * build three.js ships and its `KTX2Loader` runs in browsers, taken from the locked `three` package
 * and loaded on first use. Only the first mip level of a 2D image is decoded: what a PNG holds.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { checkTextureSize, type ImageFail, imageFail } from "./limits.ts";
import type { RgbaPixels } from "../../runtime/scene/png.ts";

/** The twelve bytes a KTX 2.0 file starts with. */
const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];
/** The transcoder's `transcoder_texture_format` for 32-bit RGBA (`cTFRGBA32`). */
const RGBA32 = 13;

/** The part of the transcoder's KTX2 binding used here. */
interface Ktx2File {
  isValid(): boolean;
  isUASTC(): boolean;
  isETC1S(): boolean;
  startTranscoding(): boolean;
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number;
  transcodeImage(
    out: Uint8Array,
    level: number,
    layer: number,
    face: number,
    format: number,
    flags: number,
    channel0: number,
    channel1: number,
  ): number;
  close(): void;
  delete(): void;
}

interface BasisModule {
  initializeBasis(): void;
  KTX2File: new (bytes: Uint8Array) => Ktx2File;
}

let transcoder: Promise<BasisModule> | undefined;

/** Loads and initialises the transcoder once per process. */
export function loadBasisTranscoder(): Promise<BasisModule> {
  transcoder ??= (async () => {
    const file = (name: string) =>
      fileURLToPath(import.meta.resolve(`three/examples/jsm/libs/basis/${name}`));
    const [script, wasmBinary] = await Promise.all([
      Deno.readTextFile(file("basis_transcoder.js")),
      Deno.readFile(file("basis_transcoder.wasm")),
    ]);
    // An Emscripten script that defines `BASIS`; with no `process` or `require` in sight it takes
    // the plain-JavaScript path and instantiates the WebAssembly it is handed.
    const factory = new Function("process", "require", `${script}\nreturn BASIS;`)(undefined, undefined);
    const basis = await factory({ wasmBinary }) as BasisModule;
    basis.initializeBasis();
    return basis;
  })();
  transcoder.catch(() => transcoder = undefined);
  return transcoder;
}

/**
 * Each level of the KTX2 level index (after the 80-byte header; `levelCount` 0 means one) must lie
 * in the file. The transcoder adds offset and length in 32 bits: a level at byte 2³² − 1 wrapped
 * round to pass its own check, and it transcoded whatever lay in its memory there, without a word.
 */
function checkLevelIndex(fail: ImageFail, bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const levels = Math.max(1, view.getUint32(40, true));
  if (80 + 24 * levels > bytes.byteLength) {
    fail(`a level index within the file's ${bytes.byteLength} bytes`, `${levels} levels`);
  }
  for (let i = 0; i < levels; i++) {
    const offset = view.getBigUint64(80 + 24 * i, true), length = view.getBigUint64(88 + 24 * i, true);
    if (offset + length > BigInt(bytes.byteLength)) {
      fail(
        `levels within the file's ${bytes.byteLength} bytes`,
        `level ${i} at byte ${offset}, ${length} bytes long`,
      );
    }
  }
}

/**
 * The first mip level of a Basis Universal KTX2 image as RGBA pixels; {@link loadBasisTranscoder}
 * must have resolved. A file that is not one, or is larger than `MAX_TEXTURE_SIDE`, is a
 * `DecodeError` at `pointer` (the texture's JSON pointer).
 *
 * @example
 * ```ts ignore
 * const basis = await loadBasisTranscoder();
 * const { width, height, data } = ktx2ToRgba(basis, bytes, "/textures/0");
 * ```
 */
export function ktx2ToRgba(basis: BasisModule, bytes: Uint8Array, pointer: string): RgbaPixels {
  const fail = imageFail("ktx2", pointer);
  if (bytes.byteLength < 80 || KTX2_IDENTIFIER.some((b, i) => bytes[i] !== b)) {
    fail("a KTX 2.0 file (its 12-byte identifier and 68-byte header)", `${bytes.byteLength} bytes`);
  }
  const header = new DataView(bytes.buffer, bytes.byteOffset, 80);
  const [width, height, depth, layers, faces] = [20, 24, 28, 32, 36].map((at) => header.getUint32(at, true));
  checkTextureSize(fail, width, height);
  if (depth > 0 || layers > 0 || faces !== 1) {
    fail(
      "one 2D image (no depth, array layers or cube faces)",
      `depth ${depth}, ${layers} layers, ${faces} faces`,
    );
  }
  checkLevelIndex(fail, bytes);
  const file = new basis.KTX2File(bytes);
  try {
    if (!file.isValid() || !(file.isUASTC() || file.isETC1S())) {
      fail("a Basis Universal KTX2 image (ETC1S or UASTC) its transcoder reads", "one it refuses");
    }
    if (!file.startTranscoding()) fail("a KTX2 image whose data transcodes", "its transcoder refusing it");
    const data = new Uint8Array(file.getImageTranscodedSizeInBytes(0, 0, 0, RGBA32));
    if (data.byteLength !== 4 * width * height || !file.transcodeImage(data, 0, 0, 0, RGBA32, 0, -1, -1)) {
      fail("a KTX2 image whose data transcodes", "its transcoder failing on level 0");
    }
    return { width, height, data };
  } finally {
    file.close();
    file.delete();
  }
}
