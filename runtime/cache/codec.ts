/**
 * How each socket type is stored in the disk cache: bytes raw, scenes as GLB (every extension
 * registered, so nothing is lost; NaN and ±Infinity in extras, which a GLB writes null, in the entry's
 * metadata beside it: `scene/nulled_record.ts`), everything else as canonical JSON.
 *
 * @module
 */
import type { BytesValue, JsonValue, SocketType } from "../node.ts";
import { canonicalJson } from "../canonical.ts";
import { importOnUse } from "../lazy_run.ts";
import { GENERATOR } from "../version.ts";

/** An encoded value: its bytes plus small metadata (e.g. a `bytes` value's file name). */
export interface Encoded {
  readonly bytes: Uint8Array;
  readonly meta?: JsonValue;
}

/** The glTF reader and writer, loaded when a scene is first stored or read (not at start-up). */
function gltfIo(): Promise<typeof import("../scene/gltf_io.ts")> {
  return importOnUse<typeof import("../scene/gltf_io.ts")>("../scene/gltf_io.ts", import.meta.url);
}

/** The record of what a scene's extras hold that its GLB cannot, loaded with the glTF reader. */
function nulledRecords(): Promise<typeof import("../scene/nulled_record.ts")> {
  return importOnUse<typeof import("../scene/nulled_record.ts")>(
    "../scene/nulled_record.ts",
    import.meta.url,
  );
}

/** Encodes a socket value for storage. */
export async function encodeValue(type: SocketType, value: unknown): Promise<Encoded> {
  switch (type) {
    case "bytes": {
      const v = value as BytesValue;
      return { bytes: v.bytes, meta: { name: v.name } };
    }
    case "scene": {
      // NaN and ±Infinity in extras, which the GLB writes null, kept beside it (nulled_record.ts).
      const meta = (await nulledRecords()).nulledRecord(value as never);
      const bytes = await (await gltfIo()).writeGlb(value as never, { generator: GENERATOR });
      return meta === undefined ? { bytes } : { bytes, meta };
    }
    default:
      return { bytes: new TextEncoder().encode(canonicalJson(value)) };
  }
}

/** Decodes what {@link encodeValue} stored. */
export async function decodeValue(type: SocketType, encoded: Encoded): Promise<unknown> {
  switch (type) {
    case "bytes":
      return { bytes: encoded.bytes, name: (encoded.meta as { name?: string } | undefined)?.name ?? "" };
    case "scene": {
      const scene = await (await gltfIo()).readGltf(encoded.bytes);
      if (encoded.meta !== undefined) (await nulledRecords()).restoreNulled(scene, encoded.meta);
      return scene;
    }
    default:
      return JSON.parse(new TextDecoder().decode(encoded.bytes));
  }
}
