/**
 * The mesh decompressors glTF reading uses: Draco's and meshopt's WebAssembly decoders, loaded only
 * when a file needs them, and `KHR_meshopt_compression` (the Khronos successor of
 * `EXT_meshopt_compression`) read through glTF-Transform's `EXT_` reader, which this release lacks a
 * `KHR_` one for.
 *
 * @module
 */
import type { GLTF, JSONDocument, NodeIO } from "@gltf-transform/core";

/** Mesh compression extensions whose data is decoded on read (and not re-encoded on write). */
export const COMPRESSION = [
  "KHR_draco_mesh_compression",
  "EXT_meshopt_compression",
  "KHR_meshopt_compression",
];

/** True when `json` uses a mesh compression extension (its data is decoded on read). */
export function usesMeshCompression(json: GLTF.IGLTF): boolean {
  return (json.extensionsUsed ?? []).some((name) => COMPRESSION.includes(name));
}

const EXT_MESHOPT = "EXT_meshopt_compression", KHR_MESHOPT = "KHR_meshopt_compression";

let decompressors: Promise<void> | undefined;

/** Registers the Draco and meshopt decoders with `io`, loading them on the first call. */
export function registerDecompressors(io: NodeIO): Promise<void> {
  decompressors ??= (async () => {
    const { MeshoptDecoder } = await import("meshoptimizer");
    await MeshoptDecoder.ready;
    io.registerDependencies({ "meshopt.decoder": MeshoptDecoder });
    await installDracoDecoder(io);
  })();
  return decompressors;
}

/** The Draco decoder glTF-Transform reads with. */
let dracoDecoder: { readonly HEAPU8: Uint8Array } | undefined;

/**
 * Memory a Draco decoder may keep after a read. WebAssembly memory never shrinks: one large model
 * (up to Draco's 2 GB) would otherwise stay with the process, a batch worker's every later input.
 */
const DRACO_MEMORY_KEPT = 64 << 20;

async function installDracoDecoder(io: NodeIO): Promise<void> {
  const { default: draco3d } = await import("draco3dgltf");
  // Quiet: an abort (its memory exhausted) is thrown, and reported by the decoding node.
  dracoDecoder = await draco3d.createDecoderModule({ printErr() {} });
  io.registerDependencies({ "draco3d.decoder": dracoDecoder });
}

/** After a read: replaces the Draco decoder if the read grew it past {@link DRACO_MEMORY_KEPT} (1–2 ms). */
export async function shrinkDracoDecoder(io: NodeIO): Promise<void> {
  if ((dracoDecoder?.HEAPU8.byteLength ?? 0) > DRACO_MEMORY_KEPT) await installDracoDecoder(io);
}

/**
 * `jsonDoc` with `KHR_meshopt_compression` named `EXT_meshopt_compression` (a shallow copy of what
 * changes; `jsonDoc` itself is left as it is). The two share their JSON; the `KHR_` bitstreams (the
 * version 1 attribute codec, the `COLOR` filter) are the meshopt decoder's, which reads both.
 */
export function meshoptAsExt(jsonDoc: JSONDocument): JSONDocument {
  const { json } = jsonDoc;
  if (!json.extensionsUsed?.includes(KHR_MESHOPT)) return jsonDoc;
  const rename = (names?: string[]) =>
    names && [...new Set(names.map((n) => n === KHR_MESHOPT ? EXT_MESHOPT : n))];
  const renamed = <T extends { extensions?: Record<string, unknown> }>(items?: T[]) =>
    items?.map((item) => {
      const extensions = item.extensions;
      if (!extensions || !(KHR_MESHOPT in extensions)) return item;
      const { [KHR_MESHOPT]: def, ...others } = extensions;
      return { ...item, extensions: { ...others, [EXT_MESHOPT]: def } };
    });
  const copy: GLTF.IGLTF = {
    ...json,
    extensionsUsed: rename(json.extensionsUsed),
    extensionsRequired: rename(json.extensionsRequired),
    buffers: renamed(json.buffers),
    bufferViews: renamed(json.bufferViews),
  };
  if (!json.extensionsRequired) delete copy.extensionsRequired;
  return { json: copy, resources: jsonDoc.resources };
}
