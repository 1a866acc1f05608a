/**
 * How each socket type is stored in the disk cache: bytes raw, scenes as GLB (every extension
 * registered, so nothing is lost), everything else as canonical JSON.
 *
 * @module
 */
import type { BytesValue, JsonValue, SocketType } from "../node.ts";
import { canonicalJson } from "../canonical.ts";
import { readGltf, writeGlb } from "../scene/gltf_io.ts";
import { GENERATOR } from "../version.ts";

/** An encoded value: its bytes plus small metadata (e.g. a `bytes` value's file name). */
export interface Encoded {
  readonly bytes: Uint8Array;
  readonly meta?: JsonValue;
}

/** Encodes a socket value for storage. */
export async function encodeValue(type: SocketType, value: unknown): Promise<Encoded> {
  switch (type) {
    case "bytes": {
      const v = value as BytesValue;
      return { bytes: v.bytes, meta: { name: v.name } };
    }
    case "scene":
      return { bytes: await writeGlb(value as never, { generator: GENERATOR }) };
    default:
      return { bytes: new TextEncoder().encode(canonicalJson(value)) };
  }
}

/** Decodes what {@link encodeValue} stored. */
export async function decodeValue(type: SocketType, encoded: Encoded): Promise<unknown> {
  switch (type) {
    case "bytes":
      return { bytes: encoded.bytes, name: (encoded.meta as { name?: string } | undefined)?.name ?? "" };
    case "scene":
      return await readGltf(encoded.bytes);
    default:
      return JSON.parse(new TextDecoder().decode(encoded.bytes));
  }
}
