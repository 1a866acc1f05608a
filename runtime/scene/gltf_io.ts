/**
 * glTF reading and deterministic writing, shared by `decode.gltf`, `export.gltf` and the scene cache
 * codec. Every extension glTF-Transform knows is registered, so nothing a user's file carries is lost.
 *
 * @module
 */
import { type Document, Format, type GLTF, type JSONDocument, type TypedArray } from "@gltf-transform/core";
import { buffered, keepingExtras } from "./writable.ts";
import { gltfIO } from "./gltf_node_io.ts";
import type { WriteOptions } from "./gltf_text_write.ts";
import {
  type ExportNames,
  exportNames,
  type NamedKind,
  namedProperties,
  targetNamesChange,
} from "./unique_names.ts";
import { GLB_MAGIC, isGlb } from "./glb_magic.ts";
import { decodeDataUri } from "./data_uri.ts";
import { writtenMemo } from "./written_memo.ts";
import { outputJson, rememberWritten, writtenText } from "./written_json.ts";
import { canonicaliseContent } from "./canonical_content.ts";
import { type ChunkLayout, chunkLayout } from "./glb_writer/layout.ts";
import { writeJsonForLayout } from "./glb_writer/json.ts";
import { writeCoreJson } from "./glb_writer/core_json.ts";
import { writeChunk } from "./glb_writer/chunk.ts";
import { readAccessorsAhead, setAccessorArrays } from "./read_accessors.ts";
import { leanDocument } from "./lean_refs.ts";
import {
  COMPRESSION,
  meshoptAsExt,
  registerDecompressors,
  shrinkDracoDecoder,
  usesMeshCompression,
} from "./decompressors.ts";

/** Deepest JSON nesting a glTF file may have; real files (extras included) stay far below it. */
export const MAX_GLTF_DEPTH = 64;

export { isGlb };
export { gltfIO };
export { readableExtensions } from "./gltf_node_io.ts";
export { gltfWriterWrites, writeGltfJson, writeGltfJsonVia } from "./gltf_text_write.ts";
export type { WriteOptions } from "./gltf_text_write.ts";
export { writtenJson } from "./written_json.ts";
export { usesMeshCompression } from "./decompressors.ts";

/**
 * Writes a GLB whose bytes depend only on the document's content: the generator is pinned and every
 * `extras` object has its keys sorted. The document is not modified.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { writeGlb } from "./gltf_io.ts";
 *
 * const doc = new Document();
 * doc.createScene("s").addChild(doc.createNode("root"));
 * const glb = await writeGlb(doc, { generator: "partgraph 0.1.0" });
 * ```
 */
export function writeGlb(doc: Document, options: WriteOptions): Promise<Uint8Array> {
  // Unique names that rename nothing write the same bytes as none: one memo entry serves both.
  const names = options.uniqueNames === true ? renamingNames(doc) : undefined;
  const key = `${options.generator}\n${names !== undefined}`;
  if (writtenMemo.slot?.doc !== doc) {
    const slot: WrittenSlot = { doc, written: writeContent(doc), glbs: new Map() };
    slot.written.catch(() => writtenMemo.slot === slot && (writtenMemo.slot = undefined));
    writtenMemo.slot = slot;
  }
  const slot = writtenMemo.slot as WrittenSlot;
  let bytes = slot.glbs.get(key);
  if (!bytes) {
    bytes = slot.written.then((written) => assembleGlb(written, options.generator, names));
    slot.glbs.set(key, bytes);
    bytes.catch(() => slot.glbs.get(key) === bytes && slot.glbs.delete(key));
  }
  return bytes;
}

/**
 * A document's written content: canonical JSON (names as they are) and the binary chunk, either
 * still to be written from the document (`layout`) or already bytes (`bin`).
 */
interface WrittenContent {
  readonly json: GLTF.IGLTF;
  /** Whether an extras value of `json` holds an integer past 32 bits (`writtenText` then walks the file). */
  readonly wide: boolean;
  /** Where the binary chunk's data goes, for the first GLB, which writes it straight from the accessors. */
  layout?: ChunkLayout;
  /** The binary chunk's bytes; once a GLB holds them, a view into that GLB (no second copy kept). */
  bin?: Uint8Array;
  /**
   * The array each accessor of `json` was written from, byte for byte (the direct writer's; none
   * where glTF-Transform wrote the chunk): see {@link writtenArrays}.
   */
  readonly arrays?: readonly (TypedArray | null)[];
}

/** The memo of {@link writeGlb}: one document's written content and the GLBs made from it. */
interface WrittenSlot {
  readonly doc: Document;
  readonly written: Promise<WrittenContent>;
  readonly glbs: Map<string, Promise<Uint8Array>>;
}

// The last document written (`writtenMemo.slot`, a WrittenSlot). The disk cache stores a node's scene
// as GLB (names as they are) and `export.gltf` then writes that very scene (names made unique):
// documents are immutable once a node has returned them (unless their owner asks to change them,
// which forgets the slot), so glTF-Transform's writer, the costly part, runs once for both, which
// differ only in their JSON. One slot keeps the memory this costs to one file.

/** {@link exportNames} of `doc` when they rename a property, else undefined. */
function renamingNames(doc: Document): ExportNames | undefined {
  const names = exportNames(doc);
  const root = doc.getRoot();
  const renames = root.listNodes().some((node, i) => node.getName() !== names.nodes[i]) ||
    root.listScenes().some((scene, i) => scene.getName() !== names.scenes[i]) ||
    Object.entries(namedProperties(doc)).some(([kind, list]) =>
      list.some((property, i) => property.getName() !== names.others[kind as NamedKind][i])
    );
  // Morph target names as glTF-Transform writes them: the first primitive with targets names them.
  const targets = () =>
    root.listMeshes().some((mesh) => {
      const named = mesh.listPrimitives().find((p) => p.listTargets().length > 0);
      return named !== undefined && targetNamesChange(named.listTargets().map((t) => t.getName()));
    });
  // A lone scene not named the default is written as it (`outputJson`): a change like a rename.
  const defaultScene = () => root.getDefaultScene() === null && root.listScenes().length === 1;
  return renames || targets() || defaultScene() ? names : undefined;
}

/** How many times a document's content has been written as glTF (a count for tests: one encode per scene). */
export const contentWrites = { count: 0 };

/**
 * The JSON and binary chunk glTF-Transform's writer gives `doc`. Where {@link chunkLayout} reproduces
 * its layout the chunk is left to {@link assembleGlb}, and the JSON is built from the document
 * (`core_json.ts`: core glTF, sparse accessors and the extensions that only add JSON) or else comes from
 * glTF-Transform's writer on emptied arrays (`json.ts`); otherwise (Draco, meshopt, …) glTF-Transform
 * writes both.
 */
async function writeContent(doc: Document, via: ChunkWriter = "direct"): Promise<WrittenContent> {
  contentWrites.count++;
  const io = await gltfIO();
  // The scene itself, not a copy (unless its buffers need merging): keepingExtras guards the extras.
  const source = buffered(doc);
  const layout = via !== "gltf-transform" ? chunkLayout(source) : { unsupported: "glTF-Transform asked for" };
  // Core glTF's JSON is built here (core_json.ts); glTF-Transform's writer gives the rest of it.
  const core = "unsupported" in layout || via === "direct-writer-json"
    ? undefined
    : keepingExtras(source, () => writeCoreJson(source, layout));
  const direct = "unsupported" in layout
    ? layout
    : core && !("unsupported" in core)
    ? core
    : await keepingExtras(source, () => writeJsonForLayout(io, source, layout));
  if ("unsupported" in direct) {
    if (via === "direct-only") throw new Error(`direct GLB writer: ${direct.unsupported}`);
    const write = () => io.writeJSON(source, { format: Format.GLB });
    const { json, resources } = await keepingExtras(source, write);
    return { ...canonicaliseContent(doc, json), bin: Object.values(resources)[0] };
  }
  const arrays = (layout as ChunkLayout).accessors.map((accessor) => accessor.getArray());
  return { ...canonicaliseContent(doc, direct), layout: layout as ChunkLayout, arrays };
}

/**
 * Who writes the binary chunk: `direct` (this module, glTF-Transform where it cannot), `direct-only`
 * (this module or an error), `direct-writer-json` (`direct` with the JSON always from glTF-Transform's
 * writer, as before core_json.ts) or `gltf-transform` (its writer, as before the direct writer).
 */
export type ChunkWriter = "direct" | "direct-only" | "direct-writer-json" | "gltf-transform";

/**
 * {@link writeGlb} without its memo, with the binary chunk written by `via`: for tests and benches
 * that compare the direct writer with glTF-Transform's byte for byte.
 */
export async function writeGlbVia(
  doc: Document,
  options: WriteOptions,
  via: ChunkWriter,
): Promise<Uint8Array> {
  const names = options.uniqueNames === true ? renamingNames(doc) : undefined;
  return assembleGlb(await writeContent(doc, via), options.generator, names);
}

function assembleGlb(written: WrittenContent, generator: string, names: ExportNames | undefined): Uint8Array {
  const { bin, layout } = written;
  const json = outputJson(written.json, generator, names);
  const jsonBytes = new TextEncoder().encode(writtenText(json, undefined, written.wide));
  // One allocation, one copy of the binary chunk: for a big model the buffer is most of the file.
  const binBytes = layout ? layout.byteLength : bin?.byteLength ?? 0;
  const jsonLength = padded(jsonBytes.byteLength);
  const binLength = padded(binBytes);
  const total = 12 + 8 + jsonLength + (binLength ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // "JSON"
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.byteLength, 20 + jsonLength); // JSON pads with spaces
  if (binLength) {
    const at = 20 + jsonLength;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, 0x004e4942, true); // "BIN\0", zero-padded (the array starts zeroed)
    if (layout) writeChunk(layout, out, at + 8);
    else out.set(bin!, at + 8);
    // Let glTF-Transform's joined buffer (or the layout) go: a later GLB of this document copies from this one.
    written.bin = out.subarray(at + 8, at + 8 + binBytes);
    written.layout = undefined;
  }
  rememberWritten(out, json);
  // Weakly: a GLB kept (a cache's, a batch's outputs) must not keep the scene's arrays alive.
  if (written.arrays) sourceArrays.set(out, new WeakRef(written.arrays));
  return out;
}

/** The arrays of each GLB {@link writeGlb} wrote from accessor arrays (`writtenArrays`). */
const sourceArrays = new WeakMap<Uint8Array, WeakRef<readonly (TypedArray | null)[]>>();

/**
 * For a GLB {@link writeGlb} returned (the same object), the array each accessor was written from,
 * by accessor index: its bytes are the accessor's data in the binary chunk (where the accessor has a
 * buffer view and is not sparse), so what is known of the array (`array_facts.ts`) holds for the
 * written data, and the output check need not read it again. Undefined for other bytes, and once
 * the document's written content is no longer remembered (another document written since, and the
 * list collected): the arrays are held weakly.
 */
export function writtenArrays(bytes: Uint8Array): readonly (TypedArray | null)[] | undefined {
  return sourceArrays.get(bytes)?.deref();
}

/**
 * Reads GLB or glTF JSON (with embedded resources) into a document. Draco- and meshopt-compressed
 * meshes are decoded; the result is an ordinary, uncompressed scene.
 */
export async function readGltf(bytes: Uint8Array): Promise<Document> {
  return await readJsonDocument(
    isGlb(bytes) ? await (await gltfIO()).binaryToJSON(bytes) : embeddedJson(bytes),
  );
}

/** Reads an already split glTF (JSON + resources) into a document, decompressing like {@link readGltf}. */
export async function readJsonDocument(jsonDoc: JSONDocument): Promise<Document> {
  const io = await gltfIO();
  const compressed = usesMeshCompression(jsonDoc.json);
  if (compressed) await registerDecompressors(io);
  // Compression extensions read accessors themselves; any other file has its data read ahead.
  const ahead = compressed ? undefined : readAccessorsAhead(jsonDoc);
  let read;
  try {
    read = await io.readJSON(ahead?.jsonDoc ?? meshoptAsExt(jsonDoc));
  } finally {
    if (compressed) await shrinkDracoDecoder(io);
  }
  const doc = ahead ? setAccessorArrays(read, ahead) : read;
  for (const extension of doc.getRoot().listExtensionsUsed()) {
    if (COMPRESSION.includes(extension.extensionName)) extension.dispose();
  }
  // Empty collections shared until first added to, as in a copy: a decoded scene lives to its export.
  leanDocument(doc);
  return doc;
}

function embeddedJson(bytes: Uint8Array): JSONDocument {
  const json = JSON.parse(new TextDecoder().decode(bytes));
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
  for (const item of [...(json.buffers ?? []), ...(json.images ?? [])]) {
    if (typeof item.uri === "string" && item.uri.startsWith("data:")) {
      resources[item.uri] = decodeDataUri(item.uri).bytes;
    } else if (typeof item.uri === "string") {
      throw new Error(
        `external resource '${item.uri}': read the .gltf with io.read, which embeds what it references`,
      );
    }
  }
  return { json, resources };
}

/** A chunk length rounded up to GLB's 4-byte alignment. */
function padded(length: number): number {
  return Math.ceil(length / 4) * 4;
}
