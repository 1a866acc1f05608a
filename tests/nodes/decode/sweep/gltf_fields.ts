/**
 * The structural fields of a glTF (2.0 or 1.0, JSON or GLB), as sweep cases. The JSON is walked
 * generically: every count, length, offset, stride, component type and index into a collection
 * (2.0's numbers; 1.0's string ids), in extensions too (`EXT_meshopt_compression`'s counts,
 * `KHR_draco_mesh_compression`'s attribute ids, `MSFT_texture_dds`' source), each set to 0, 1, −1,
 * itself ± 1, the size its data has room for ± 1, the collection's length, out-of-range values, and
 * for a node's children itself and its parent (a cycle). In a GLB, the binary headers are swept too:
 * the GLB's own chunk lengths, and each embedded image's (PNG IHDR, JPEG SOF, DDS, KTX2) dimensions
 * and level counts, a Draco stream's header bytes and a meshopt stream's header byte
 * (`image_fields.ts`). Large collections are sampled: their first, second and last member.
 *
 * @module
 */
import { applyCase, type Case, Cases, U32 } from "./cases.ts";
import { at, type Json, JsonCases, jsonFile, OUT_OF_RANGE, pick, type Step } from "./json_fields.ts";
import { binaryHeaderFields, imageFields } from "./image_fields.ts";
import { COMPONENT_BYTES, TYPE_COMPONENTS } from "../../../../runtime/scene/gltf_codes.ts";

/** Members holding an index (2.0) or id (1.0) into a top-level collection. */
const REFS: Record<string, string> = {
  bufferView: "bufferViews",
  buffer: "buffers",
  indices: "accessors",
  input: "accessors",
  output: "accessors",
  inverseBindMatrices: "accessors",
  material: "materials",
  mesh: "meshes",
  meshes: "meshes",
  skin: "skins",
  camera: "cameras",
  skeleton: "nodes",
  skeletons: "nodes",
  node: "nodes",
  source: "images",
  scene: "scenes",
  children: "nodes",
  joints: "nodes",
  nodes: "nodes",
};

/** Members holding a size or layout number. */
const SIZES = new Set([
  "count",
  "byteOffset",
  "byteLength",
  "byteStride",
  "componentType",
  "texCoord",
  "mode",
]);

/** Members whose numbers are data, not structure. */
const SKIP = new Set([
  "extras",
  "asset",
  "min",
  "max",
  "matrix",
  "translation",
  "rotation",
  "scale",
  "weights",
  "strength",
  "technique",
  "techniques",
  "programs",
  "shaders",
  "extensionsUsed",
  "extensionsRequired",
]);

/** The size of `collection` in `json` (an array's length or an object's key count). */
function sizeOf(json: Json, collection: string): number {
  const c = json[collection];
  return Array.isArray(c) ? c.length : c && typeof c === "object" ? Object.keys(c).length : 0;
}

/** The members of an array or object to walk: an array's first, second and last, an object's all. */
function members(value: Json): Step[] {
  return Array.isArray(value) ? pick(value.length) : Object.keys(value);
}

/** The cases of a glTF or GLB. */
export function casesGltf(bytes: Uint8Array): Case[] {
  const file = jsonFile(bytes);
  if (!file) return [];
  const { json } = file;
  const cases = new JsonCases(file);
  const version1 = !String(json.asset?.version ?? "1").startsWith("2");
  const parentOf = (node: Step): Step | undefined => {
    const nodes = json.nodes ?? {};
    for (const key of Object.keys(nodes)) {
      const id = Array.isArray(nodes) ? Number(key) : key;
      if ((nodes[key].children ?? []).includes(node)) return id;
    }
  };

  const refValues = (path: Step[], key: string, value: number | string, collection: string): unknown[] => {
    // A channel's sampler indexes its own animation's samplers.
    const n = collection === "samplers of the animation"
      ? json.animations[path[1]].samplers?.length ?? 0
      : sizeOf(json, collection);
    if (typeof value === "string") {
      const extra: unknown[] = ["sweep_missing", ""];
      if (path[0] === "nodes" && key === "children") extra.push(path[1], parentOf(path[1]));
      return extra;
    }
    const values: unknown[] = [-1, n, n - 1, 0, ...OUT_OF_RANGE];
    if (path[0] === "nodes" && key === "children") values.push(path[1], parentOf(path[1]));
    if (path[0] === "scenes" && key === "nodes") {
      // A node that is some other node's child, listed as a root too.
      const child = (json.nodes ?? []).findIndex((_: Json, i: number) => parentOf(i) !== undefined);
      if (child >= 0) values.push(child);
    }
    return values;
  };

  const sizeValues = (path: Step[], key: string, value: number): number[] => {
    const values = [0, 1, -1, value - 1, value + 1, ...OUT_OF_RANGE];
    if (key === "componentType") return [5120, 5122, 5124, 5125, 5126, 5127, 0];
    if (key === "mode") return [-1, 7, 1, 0.5];
    const object = at(json, path.slice(0, -1));
    if (path[0] === "bufferViews" && object) {
      // A view's (or its meshopt extension's) offset or length leaving its buffer no room, or one byte.
      const buffer = json.buffers?.[object.buffer];
      const room = (buffer?.byteLength ?? 0) -
        (key === "byteLength" ? object.byteOffset ?? 0 : object.byteLength);
      if (key === "byteLength" || key === "byteOffset") values.push(room, room + 1);
      if (key === "byteStride") values.push(3, 252, 256);
    }
    if (path[0] === "accessors" && object && key === "count") {
      const view = json.bufferViews?.[object.bufferView];
      const element = (COMPONENT_BYTES[object.componentType] ?? 4) * (TYPE_COMPONENTS[object.type] ?? 1);
      const stride = view?.byteStride ?? element;
      const room = Math.floor(((view?.byteLength ?? 0) - (object.byteOffset ?? 0) - element) / stride) + 1;
      values.push(room, room + 1);
    }
    return values;
  };

  /** The collection a number or id at `path` (a member `key`) points into, if it is a reference. */
  const target = (path: Step[], key: string): string | undefined => {
    const semantic = path.at(-2) === "attributes" || path.at(-3) === "targets";
    if (semantic) return path.includes("KHR_draco_mesh_compression") ? undefined : "accessors";
    if (key === "index" && /Texture$/.test(String(path.at(-2)))) return "textures";
    if (key === "sampler") return path[0] === "animations" ? "samplers of the animation" : "samplers";
    if (key === "source" && !path.includes("textures")) return undefined;
    return REFS[key];
  };

  const walk = (value: Json, path: Step[], key: string): void => {
    if (value === null || value === undefined) return;
    if (typeof value === "number" || typeof value === "string") {
      const collection = target(path, key);
      if (collection && (typeof value === "string" ? version1 : Number.isInteger(value))) {
        cases.set(path, refValues(path, key, value, collection));
      } else if (
        typeof value === "number" && (SIZES.has(key) || path.includes("KHR_draco_mesh_compression"))
      ) {
        cases.set(path, sizeValues(path, key, value));
      }
      return;
    }
    if (typeof value !== "object") return;
    for (const m of members(value)) {
      if (typeof m === "string" && SKIP.has(m)) continue;
      walk(value[m], [...path, m], typeof m === "string" ? m : key);
    }
    // An offset into a view that the writer left out (0): given, it can reach past the view's end.
    if (!Array.isArray(value) && typeof value.bufferView === "number" && value.byteOffset === undefined) {
      const length = json.bufferViews?.[value.bufferView]?.byteLength ?? 0;
      cases.set([...path, "byteOffset"], [1, -1, length - 1, length, 2 ** 31 - 1, 0.5]);
    }
  };
  for (const top of Object.keys(json)) {
    if (SKIP.has(top)) continue;
    const collection = json[top];
    if (collection && typeof collection === "object" && !Array.isArray(collection) && version1) {
      // 1.0 collections are objects keyed by id: the first, second and last id.
      const ids = Object.keys(collection);
      for (const i of pick(ids.length)) walk(collection[ids[i]], [top, ids[i]], top);
    } else if (Array.isArray(collection)) {
      for (const i of pick(collection.length)) walk(collection[i], [top, i], top);
    } else walk(collection, [top], top);
  }
  // Cycles: a node's first child given that node as a child of its own.
  const nodes = json.nodes ?? {};
  for (const key of Object.keys(nodes)) {
    const id = Array.isArray(nodes) ? Number(key) : key;
    const child = nodes[key].children?.[0];
    if (child === undefined) continue;
    cases.change(`/nodes/${key}/children cycle`, "cycle", (edited) => {
      const c = edited.nodes[child];
      c.children = [...(c.children ?? []), id];
    });
    break;
  }
  const binary = new Cases(bytes);
  if (file.binStart !== undefined) glbHeaderFields(bytes, binary);
  // Buffers as data: URIs: their bytes are swept decoded, each case written back as a new URI.
  const embedded = new Map<number | string, { prefix: string; bytes: Uint8Array; cases: Cases }>();
  binaryHeaderFields(json, (id) => {
    const buffer = json.buffers?.[id];
    if (!buffer) return undefined;
    // 2.0: the BIN chunk is buffer 0 without a uri; 1.0: the buffer `binary_glTF`.
    if (file.binStart !== undefined && (buffer.uri === undefined || id === "binary_glTF")) {
      return { bytes, start: file.binStart, cases: binary };
    }
    const uri = /^(data:[^,]*;base64,)(.*)$/s.exec(buffer.uri ?? "");
    if (!uri) return undefined;
    if (!embedded.has(id)) {
      const decoded = Uint8Array.fromBase64(uri[2]);
      embedded.set(id, { prefix: uri[1], bytes: decoded, cases: new Cases(decoded) });
    }
    const { bytes: decoded, cases: into } = embedded.get(id)!;
    return { bytes: decoded, start: 0, cases: into };
  });
  for (const [id, { prefix, bytes: decoded, cases: into }] of embedded) {
    for (const c of into.list) {
      cases.change(`buffer ${id}: ${c.field}`, c.value, (edited) => {
        edited.buffers[id].uri = prefix + applyCase(decoded, c).toBase64();
      });
    }
  }
  // Images as data: URIs of their own.
  const images = json.images ?? {};
  for (const key of Object.keys(images)) {
    const uri = /^(data:[^,]*;base64,)(.*)$/s.exec(images[key].uri ?? "");
    if (!uri) continue;
    const decoded = Uint8Array.fromBase64(uri[2]);
    const into = new Cases(decoded);
    if (decoded.length >= 32) imageFields(decoded, 0, `image ${key}`, into);
    for (const c of into.list) {
      cases.change(`/images/${key}/uri: ${c.field}`, c.value, (edited) => {
        edited.images[key].uri = uri[1] + applyCase(decoded, c).toBase64();
      });
    }
  }
  return [...cases.list, ...binary.list];
}

/** A GLB's header and chunk headers: the total length, the chunks' lengths and types, and cut lengths. */
function glbHeaderFields(bytes: Uint8Array, cases: Cases): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  const size = bytes.byteLength;
  const json = view.getUint32(12, true);
  const near = (v: number) => [0, 1, -1, v - 1, v + 1, v + 4, v - 4, size, size + 1, 2 ** 31 - 1];
  cases.field("GLB version", 4, U32, [0, 1, 2, 3]);
  cases.field("GLB length", 8, U32, near(size));
  cases.field("GLB JSON chunk length", 12, U32, near(json));
  cases.field("GLB JSON chunk type", 16, U32, [0, 0x004e4942]);
  const bin = 20 + json;
  if (version === 2 && bin + 8 <= size) {
    const length = view.getUint32(bin, true);
    cases.field("GLB BIN chunk length", bin, U32, near(length));
    cases.field("GLB BIN chunk type", bin + 4, U32, [0, 0x4e4f534a]);
  }
  cases.truncations("file length", [0, 11, 12, 19, 20, bin - 1, bin, bin + 7, bin + 8, size - 1]);
}
