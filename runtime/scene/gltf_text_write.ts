/**
 * `.gltf` text output: JSON with embedded (data URI) buffers and images, canonicalised as the GLB is.
 *
 * @module
 */
import { type Document, Format, type JSONDocument } from "@gltf-transform/core";
import { buffered, keepingExtras } from "./writable.ts";
import { exportNames } from "./unique_names.ts";
import { dataUri } from "./data_uri.ts";
import { outputJson, rememberWritten, writtenText } from "./written_json.ts";
import { canonicaliseContent } from "./canonical_content.ts";
import { chunkLayout } from "./glb_writer/layout.ts";
import { writeCoreJson } from "./glb_writer/core_json.ts";
import { writeChunk } from "./glb_writer/chunk.ts";
import { gltfIO } from "./gltf_node_io.ts";

/** Options for {@link writeGlb} and {@link writeGltfJson}. */
export interface WriteOptions {
  /** Pinned `asset.generator`, so library upgrades do not change output bytes. */
  generator: string;
  /**
   * Give clashing node and scene names the unique spelling of {@link exportNames}, so viewers do not
   * rename them on import. For files users open (`export.gltf`); the scene cache keeps names as
   * they are. Default false.
   */
  uniqueNames?: boolean;
}

/**
 * Writes `.gltf` JSON with embedded (data URI) buffers and images, canonicalised like
 * {@link writeGlb}. Returns the UTF-8 bytes of the JSON file.
 */
export function writeGltfJson(doc: Document, options: WriteOptions): Promise<Uint8Array> {
  return writeGltfJsonVia(doc, options, "direct");
}

/** How many `.gltf` files glTF-Transform's writer wrote (a count for tests: the direct path's fallbacks). */
export const gltfWriterWrites = { count: 0 };

/**
 * {@link writeGltfJson} with its JSON and buffer written by `via`: `direct` builds them from the
 * document (`core_json.ts`, `chunk.ts`) where that reproduces glTF-Transform's writer, which writes
 * the rest; `gltf-transform` always asks the writer (for tests that compare the two byte for byte).
 */
export async function writeGltfJsonVia(
  doc: Document,
  options: WriteOptions,
  via: "direct" | "gltf-transform",
): Promise<Uint8Array> {
  const jsonDoc = (via === "direct" ? directGltf(doc) : undefined) ?? await writerGltf(doc);
  const json = jsonDoc.json;
  for (const buffer of json.buffers ?? []) {
    if (buffer.uri && jsonDoc.resources[buffer.uri]) {
      buffer.uri = dataUri("application/octet-stream", jsonDoc.resources[buffer.uri]);
    }
  }
  for (const image of json.images ?? []) {
    if (image.uri && jsonDoc.resources[image.uri]) {
      image.uri = dataUri(image.mimeType ?? "application/octet-stream", jsonDoc.resources[image.uri]);
    }
  }
  const canonical = canonicaliseContent(doc, json);
  const names = options.uniqueNames === true ? exportNames(doc) : undefined;
  const view = outputJson(canonical.json, options.generator, names);
  const bytes = new TextEncoder().encode(writtenText(view, 2, canonical.wide) + "\n");
  rememberWritten(bytes, view);
  return bytes;
}

/**
 * glTF-Transform's `.gltf` JSON and resources (named `scene.bin`, `scene_1.png`…) for `doc`: the
 * scene itself, guarded by keepingExtras as the GLB's writer is (a copy of it, `writable`, lost
 * KHR_materials_variants' variants: a scene with morph targets and mesh extras was copied).
 */
async function writerGltf(doc: Document): Promise<JSONDocument> {
  gltfWriterWrites.count++;
  const io = await gltfIO();
  const source = buffered(doc, Format.GLTF);
  return await keepingExtras(source, () => io.writeJSON(source, { format: Format.GLTF, basename: "scene" }));
}

/**
 * What {@link writerGltf} gives `doc`, built without the writer where `chunk_layout.ts` and
 * `core_json.ts` reproduce it (core glTF and the material extensions they know), else undefined:
 * the buffer is written once, straight from the accessors, not interleaved into parts and joined.
 */
function directGltf(doc: Document): JSONDocument | undefined {
  const source = buffered(doc, Format.GLTF);
  const layout = chunkLayout(source, Format.GLTF);
  if ("unsupported" in layout) return undefined;
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
  const json = keepingExtras(
    source,
    () => writeCoreJson(source, layout, { format: Format.GLTF, basename: "scene", resources }),
  );
  if ("unsupported" in json) return undefined;
  const uri = json.buffers?.[0]?.uri;
  if (uri !== undefined) {
    const bin = new Uint8Array(layout.byteLength);
    writeChunk(layout, bin, 0);
    resources[uri] = bin;
  }
  return { json, resources };
}
