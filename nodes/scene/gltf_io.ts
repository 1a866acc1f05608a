/**
 * glTF reading and deterministic writing, shared by `decode.gltf`, `export.gltf` and the scene cache
 * codec. Every extension glTF-Transform knows is registered, so nothing a user's file carries is lost.
 *
 * @module
 */
import { type Document, Format, type JSONDocument, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { copyScene } from "./copy.ts";
import { sortKeysDeep } from "../../runtime/canonical.ts";

let io: NodeIO | undefined;

/** The shared NodeIO with all extensions registered (network access off). */
export function gltfIO(): NodeIO {
  io ??= new NodeIO().registerExtensions(ALL_EXTENSIONS).setLogger({
    // Quiet: warnings worth a user's attention are reported by nodes through ctx.warn.
    debug() {},
    info() {},
    warn() {},
    error() {},
  } as unknown as never);
  return io;
}

const GLB_MAGIC = 0x46546c67;

/** True when the bytes start with the GLB magic `glTF`. */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 12 &&
    new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(0, true) === GLB_MAGIC;
}

/** Options for {@link writeGlb} and {@link writeGltfJson}. */
export interface WriteOptions {
  /** Pinned `asset.generator`, so library upgrades do not change output bytes. */
  generator: string;
}

/**
 * Writes a GLB whose bytes depend only on the document's content: the generator is pinned and every
 * `extras` object has its keys sorted. The document is not modified.
 *
 * @example
 * ```ts
 * const glb = await writeGlb(doc, { generator: "partgraph 0.1.0" });
 * ```
 */
export async function writeGlb(doc: Document, options: WriteOptions): Promise<Uint8Array> {
  const { json, resources } = await gltfIO().writeJSON(singleBuffer(doc), { format: Format.GLB });
  canonicaliseJson(json as unknown as Record<string, unknown>, options);
  const jsonBytes = pad(new TextEncoder().encode(JSON.stringify(json)), 0x20);
  const bin = Object.values(resources)[0];
  const chunks: Uint8Array[] = [chunk(jsonBytes, 0x4e4f534a)];
  if (bin && bin.byteLength) chunks.push(chunk(pad(bin, 0), 0x004e4942));
  const total = 12 + chunks.reduce((sum, c) => sum + c.byteLength, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  let offset = 12;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/**
 * Writes `.gltf` JSON with embedded (data URI) buffers and images, canonicalised like
 * {@link writeGlb}. Returns the UTF-8 bytes of the JSON file.
 */
export async function writeGltfJson(doc: Document, options: WriteOptions): Promise<Uint8Array> {
  const copy = singleBuffer(doc);
  const jsonDoc: JSONDocument = await gltfIO().writeJSON(copy, { format: Format.GLTF, basename: "scene" });
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
  canonicaliseJson(json as unknown as Record<string, unknown>, options);
  return new TextEncoder().encode(JSON.stringify(json, null, 2) + "\n");
}

/** Mesh compression extensions whose data is decoded on read (and not re-encoded on write). */
const COMPRESSION = ["KHR_draco_mesh_compression", "EXT_meshopt_compression"];

/**
 * Reads GLB or glTF JSON (with embedded resources) into a document. Draco- and meshopt-compressed
 * meshes are decoded; the result is an ordinary, uncompressed scene.
 */
export async function readGltf(bytes: Uint8Array): Promise<Document> {
  return await readJsonDocument(isGlb(bytes) ? await gltfIO().binaryToJSON(bytes) : embeddedJson(bytes));
}

/** Reads an already split glTF (JSON + resources) into a document, decompressing like {@link readGltf}. */
export async function readJsonDocument(jsonDoc: JSONDocument): Promise<Document> {
  const used: string[] = jsonDoc.json.extensionsUsed ?? [];
  if (used.some((name) => COMPRESSION.includes(name))) await registerDecompressors();
  const doc = await gltfIO().readJSON(jsonDoc);
  for (const extension of doc.getRoot().listExtensionsUsed()) {
    if (COMPRESSION.includes(extension.extensionName)) extension.dispose();
  }
  return doc;
}

function embeddedJson(bytes: Uint8Array): JSONDocument {
  const json = JSON.parse(new TextDecoder().decode(bytes));
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
  for (const item of [...(json.buffers ?? []), ...(json.images ?? [])]) {
    if (typeof item.uri === "string" && item.uri.startsWith("data:")) {
      resources[item.uri] = decodeDataUri(item.uri);
    } else if (typeof item.uri === "string") {
      throw new Error(
        `external resource '${item.uri}': read the .gltf with io.read, which embeds what it references`,
      );
    }
  }
  return { json, resources };
}

let decompressors: Promise<void> | undefined;

/** Loads the Draco and meshopt decoders (WebAssembly) once, only when a file needs them. */
function registerDecompressors(): Promise<void> {
  decompressors ??= (async () => {
    const [{ default: draco3d }, { MeshoptDecoder }] = await Promise.all([
      import("draco3dgltf"),
      import("meshoptimizer"),
    ]);
    await MeshoptDecoder.ready;
    gltfIO().registerDependencies({
      "draco3d.decoder": await draco3d.createDecoderModule(),
      "meshopt.decoder": MeshoptDecoder,
    });
  })();
  return decompressors;
}

/**
 * GLB allows one buffer, and a buffer with nothing in it is invalid glTF: merge several into the
 * first and drop an unused one, on a copy, leaving `doc` as it is.
 */
function singleBuffer(doc: Document): Document {
  const root = doc.getRoot();
  const buffers = root.listBuffers();
  const empty = root.listAccessors().length === 0 && root.listTextures().length === 0;
  if (buffers.length <= 1 && !(empty && buffers.length === 1)) return doc;
  const copy = copyScene(doc);
  const [first, ...rest] = copy.getRoot().listBuffers();
  for (const accessor of copy.getRoot().listAccessors()) accessor.setBuffer(first);
  for (const buffer of rest) buffer.dispose();
  if (empty) first.dispose();
  return copy;
}

function canonicaliseJson(json: Record<string, unknown>, options: WriteOptions): void {
  const asset = json.asset as Record<string, unknown>;
  asset.generator = options.generator;
  sortExtras(json);
}

/** Sorts keys of every `extras` object (recursively inside them too), in place. */
function sortExtras(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) sortExtras(item);
  } else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key === "extras") record[key] = sortKeysDeep(record[key]);
      else sortExtras(record[key]);
    }
  }
}

function pad(bytes: Uint8Array, fill: number): Uint8Array {
  const padded = Math.ceil(bytes.byteLength / 4) * 4;
  if (padded === bytes.byteLength) return bytes;
  const out = new Uint8Array(padded).fill(fill);
  out.set(bytes);
  return out;
}

function chunk(data: Uint8Array, type: number): Uint8Array {
  const out = new Uint8Array(8 + data.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.byteLength, true);
  view.setUint32(4, type, true);
  out.set(data, 8);
  return out;
}

function dataUri(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${bytes.toBase64()}`;
}

function decodeDataUri(uri: string): Uint8Array<ArrayBuffer> {
  const comma = uri.indexOf(",");
  const header = uri.slice(5, comma);
  const body = uri.slice(comma + 1);
  if (!header.endsWith(";base64")) return new TextEncoder().encode(decodeURIComponent(body));
  return Uint8Array.fromBase64(body);
}
