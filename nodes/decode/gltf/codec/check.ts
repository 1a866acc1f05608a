/**
 * A structural check of glTF JSON before glTF-Transform reads it: every index a property holds
 * points into its collection, every number has its type and range, every accessor fits its buffer
 * view and every view its buffer, strides are in range, and the node hierarchy is a forest (index
 * values are checked against vertex counts after decoding: `check_indices.ts`). glTF-Transform
 * trusts its input (a count beyond the buffer is a RangeError, a huge `byteStride` array a
 * near-endless loop); after this check it can't meet such a file. Time and memory are linear in the
 * file's size.
 *
 * @module
 */
import type { JSONDocument } from "@gltf-transform/core";
import { dataUriResources, describe, type GltfSource } from "./container.ts";
import { type Gltf1Upgrade, isGltf1, upgradeGltf1 } from "./gltf1.ts";
import { Checker, COLLECTIONS, type Json } from "./checker.ts";
import { checkMeshes, checkNodes, checkReferences, checkTextureInfos } from "./check_scene.ts";
import { checkExtensions } from "./check_extensions.ts";
import { checkDracoPrimitives, dracoAccessors } from "./check_draco.ts";
import { checkBuffers, meshoptOf } from "./check_buffers.ts";
import { checkSparseIndices } from "./check_sparse.ts";
import { COMPONENT_BYTES, FLOAT, TYPE_COMPONENTS } from "../../../../runtime/scene/gltf_codes.ts";

export { FLOAT };
export { checkDracoDecoded } from "./check_draco.ts";
export { checkIndexValues } from "./check_indices.ts";
export { trimPrimitiveCounts } from "./primitive_counts.ts";
export { moveStrayVertices } from "./stray_vertices.ts";
export { convertSkinAttributes } from "./skin_attributes.ts";
export { convertUvwAttributes } from "./uvw_attributes.ts";
export { checkJointIndices } from "./check_joints.ts";
export { stalePositionBounds } from "./position_bounds.ts";
export { unlistedExtensions } from "./unlisted_extensions.ts";
/** Component types an index accessor may have (unsigned byte, short, int). */
export const INDEX_TYPES = [5121, 5123, 5125];

/**
 * Which accessors an attribute semantic accepts: its accessor types, and its formats — a component
 * type code, with `n` when the integers must be `normalized` (read as 0–1 or −1–1) — as the Khronos
 * validator spells them.
 */
export interface AttributeRule {
  readonly semantic: RegExp;
  readonly types: readonly string[];
  readonly formats: readonly string[];
}

const BOTH = (codes: number[]) => codes.flatMap((code) => [`${code}`, `${code}n`]);

/** glTF 2.0's attribute formats (§3.7.2.1). */
export const ATTRIBUTE_RULES: readonly AttributeRule[] = [
  { semantic: /^POSITION$/, types: ["VEC3"], formats: [`${FLOAT}`] },
  { semantic: /^NORMAL$/, types: ["VEC3"], formats: [`${FLOAT}`] },
  { semantic: /^TANGENT$/, types: ["VEC4"], formats: [`${FLOAT}`] },
  { semantic: /^TEXCOORD_\d+$/, types: ["VEC2"], formats: [`${FLOAT}`, "5121n", "5123n"] },
  { semantic: /^COLOR_\d+$/, types: ["VEC3", "VEC4"], formats: [`${FLOAT}`, "5121n", "5123n"] },
  { semantic: /^JOINTS_\d+$/, types: ["VEC4"], formats: ["5121", "5123"] },
  { semantic: /^WEIGHTS_\d+$/, types: ["VEC4"], formats: [`${FLOAT}`, "5121n", "5123n"] },
];

/**
 * The rules in a file that uses `KHR_mesh_quantization`, as gltfpack and glTF-Transform's `quantize`
 * write by default (the extension's table of mesh attributes): positions and texture coordinates in
 * any 8- or 16-bit integers, normalized or not; normals and tangents in normalized signed ones.
 */
export const QUANTIZED_ATTRIBUTE_RULES: readonly AttributeRule[] = [
  { semantic: /^POSITION$/, types: ["VEC3"], formats: [`${FLOAT}`, ...BOTH([5120, 5121, 5122, 5123])] },
  { semantic: /^NORMAL$/, types: ["VEC3"], formats: [`${FLOAT}`, "5120n", "5122n"] },
  { semantic: /^TANGENT$/, types: ["VEC4"], formats: [`${FLOAT}`, "5120n", "5122n"] },
  { semantic: /^TEXCOORD_\d+$/, types: ["VEC2"], formats: [`${FLOAT}`, ...BOTH([5120, 5121, 5122, 5123])] },
  ...ATTRIBUTE_RULES.slice(4),
];

/**
 * Morph targets hold displacements of POSITION, NORMAL and TANGENT: floats, or (with
 * `KHR_mesh_quantization`) any 8- or 16-bit integers.
 */
export const TARGET_FORMATS: readonly string[] = [`${FLOAT}`, ...BOTH([5120, 5121, 5122, 5123])];

/** An accessor's format as {@link AttributeRule} spells it, e.g. `5123n`. */
export function formatOf(accessor: Record<string, unknown>): string {
  return `${accessor.componentType}${accessor.normalized === true ? "n" : ""}`;
}

/** What {@link checkGltfStructure} found and did. */
export interface GltfStructure {
  /** What it repaired in the JSON, each at its JSON path (the file's own, for glTF 1.0). */
  readonly repairs: readonly string[];
  /**
   * For a glTF 1.0 file, its upgrade to 2.0: the way back to its own paths and ids, for what later
   * checks find in the decoded scene.
   */
  readonly gltf1?: Gltf1Upgrade;
}

/**
 * Throws a {@link DecodeError} (with the JSON path) at the first structural problem of a glTF
 * document's JSON and resources; returns when glTF-Transform can read it safely, with what it
 * repaired in the JSON (messy content real exporters write, which viewers accept: see
 * {@link Checker.repairs}).
 *
 * @example
 * ```ts
 * for (const repair of checkGltfStructure(readContainer(bytes, source), source).repairs) console.warn(repair);
 * ```
 */
export function checkGltfStructure(doc: JSONDocument, source: GltfSource): GltfStructure {
  // glTF 1.0 is upgraded first, so that every check and repair below applies to it too; what they
  // find is named at the 1.0 file's own paths, with its own ids.
  const gltf1 = isGltf1(doc.json) ? upgradeGltf1(doc, source, dataUriResources) : undefined;
  const c = new Checker(doc, source);
  if (!gltf1) {
    checkAll(c);
    return { repairs: c.repairs };
  }
  try {
    checkAll(c);
  } catch (error) {
    throw gltf1.paths.relocate(error);
  }
  return { repairs: [...gltf1.notes, ...c.repairs.map((repair) => gltf1.paths.textOf(repair))], gltf1 };
}

function checkAll(c: Checker): void {
  readNullsAsAbsent(c);
  const asset = c.object(c.json.asset, "/asset");
  if (typeof asset.version !== "string") c.fail("/asset/version", "a version string", asset.version);
  // Blender 3.4's importer asserts each is a string, and refuses the file otherwise.
  for (const key of ["generator", "copyright", "minVersion"]) {
    if (asset[key] !== undefined && typeof asset[key] !== "string") {
      c.fail(`/asset/${key}`, "a string", asset[key]);
    }
  }
  // A file that needs a later glTF than 2.0 to be read right says so here (the spec: refuse it).
  if (typeof asset.minVersion === "string" && asset.minVersion !== "2.0") {
    c.fail("/asset/minVersion", "2.0 (partgraph reads glTF 2.0)", asset.minVersion);
  }
  for (const key of ["extensionsUsed", "extensionsRequired"]) {
    const value = c.json[key];
    if (value !== undefined && (!Array.isArray(value) || !value.every((v) => typeof v === "string"))) {
      c.fail(`/${key}`, "an array of strings", value);
    }
  }
  // A name that is not a string (`"name": 12`) is refused, not read as "12": Blender 3.4's importer
  // refuses the file and three.js's loader throws on it (a TypeError naming a node or a light).
  for (const key of COLLECTIONS) {
    c.list(key).forEach((item, i) => checkName(c, item, `/${key}/${i}`));
  }
  // Extensions keep their named properties in lists of their own (KHR_lights_punctual's lights,
  // KHR_materials_variants' variants), which glTF-Transform reads too.
  const extensions = c.json.extensions;
  if (extensions && typeof extensions === "object") {
    for (const [name, extension] of Object.entries(extensions)) {
      if (!extension || typeof extension !== "object") continue;
      for (const [key, list] of Object.entries(extension)) {
        if (!Array.isArray(list)) continue;
        list.forEach((item, i) => checkName(c, item, `/extensions/${name}/${key}/${i}`));
      }
    }
  }
  checkBuffers(c);
  checkAccessors(c);
  checkMeshes(c);
  checkDracoPrimitives(c);
  checkReferences(c, checkNodes(c));
  checkExtensions(c);
  checkTextureInfos(c, c.json, "");
}

/** A property's `name`, when it has one, is a string. */
function checkName(c: Checker, item: unknown, path: string): void {
  const name = item && typeof item === "object" ? (item as Json).name : undefined;
  if (name !== undefined && typeof name !== "string") c.fail(`${path}/name`, "a string", name);
}

/**
 * Explicit `null`s, which glTF's schema forbids but many writers emit for an unset field
 * (`"byteOffset": null`, `"sparse": null`, `"animations": null`; an empty node or material as
 * `null` in its list; NaN bounds, which JSON.stringify writes as `null`), as the web engines read
 * them: a property set to `null` is absent, a `null` in a top-level list is an empty object (so
 * indices stay), and a `null` inside a list of numbers is left to the checks of that list. Extras,
 * which are the application's own, keep theirs (`"extras": null` itself is left out, silently).
 */
function readNullsAsAbsent(c: Checker): void {
  // Breadth first, so that the warnings follow the file's order. Paths are made only for a repair:
  // each object visited keeps its parent's place and its own key instead.
  // (An object in a list has the list's key and its index; any other, its key and index -1.)
  const items: Json[] = [c.json], parents: number[] = [-1], keys: string[] = [""], indices: number[] = [-1];
  const pathOf = (at: number, ...rest: (string | number)[]) => {
    const parts = rest.map(String);
    for (; at > 0; at = parents[at]) {
      parts.unshift(...(indices[at] < 0 ? [keys[at]] : [keys[at], `${indices[at]}`]));
    }
    return `/${parts.join("/")}`;
  };
  const visit = (value: unknown, parent: number, key: string, index = -1) => {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      items.push(value as Json);
      parents.push(parent);
      keys.push(key);
      indices.push(index);
    }
  };
  for (let at = 0; at < items.length; at++) {
    const item = items[at];
    for (const key of Object.keys(item)) {
      const value = item[key];
      if (value === null) {
        delete item[key];
        // Extras may be null (any JSON value): nothing is lost, nothing to warn about.
        if (key !== "extras") c.repaired(pathOf(at, key), "null read as absent");
      } else if (key === "extras") continue;
      else if (!Array.isArray(value)) visit(value, at, key);
      else {
        const collection = at === 0 && COLLECTIONS.includes(key);
        for (let i = 0; i < value.length; i++) {
          if (value[i] === null && collection) {
            value[i] = {};
            c.repaired(pathOf(at, key, i), "null read as an empty object");
          }
          visit(value[i], at, key, i);
        }
      }
    }
  }
}

function checkAccessors(c: Checker): void {
  const views = c.list("bufferViews");
  const aliasBudget = aliasedDataBudget(c);
  const draco = dracoAccessors(c.json);
  let claimed = 0;
  c.list("accessors").forEach((accessor, i) => {
    const path = `/accessors/${i}`;
    c.oneOf(accessor, "componentType", path, Object.keys(COMPONENT_BYTES).map(Number));
    c.oneOf(accessor, "type", path, Object.keys(TYPE_COMPONENTS));
    if (accessor.componentType === undefined) {
      c.fail(`${path}/componentType`, "a component type", undefined);
    }
    if (accessor.type === undefined) c.fail(`${path}/type`, "an accessor type", undefined);
    const count = c.int(accessor, "count", path, Number.MAX_SAFE_INTEGER, 1);
    if (count === undefined) c.fail(`${path}/count`, "an element count", undefined);
    // As `doubleSided`: three.js reads only `true` as normalized, Blender 3.4 refuses the file.
    if (accessor.normalized !== undefined && typeof accessor.normalized !== "boolean") {
      c.fail(`${path}/normalized`, "a boolean (true or false)", accessor.normalized);
    }
    // Only integers are normalized; three.js and Blender read floats as they are whatever the flag says.
    if (accessor.normalized === true && accessor.componentType === FLOAT) {
      c.repaired(`${path}/normalized`, "true on float data, which only integers can be; read as false");
      delete accessor.normalized;
    }
    const size = COMPONENT_BYTES[accessor.componentType as number];
    const components = TYPE_COMPONENTS[accessor.type as string];
    for (const key of ["min", "max"]) {
      const value = accessor[key];
      const fits = Array.isArray(value) && value.length === components && value.every(Number.isFinite);
      // glTF-Transform reads no bounds (it writes them from the data): malformed ones lose nothing.
      if (value !== undefined && !fits) {
        c.repaired(
          `${path}/${key}`,
          `${describe(value)} is not ${components} numbers; left out (written from the data)`,
        );
        delete accessor[key];
      }
    }
    const element = size * components;
    const view = c.index(accessor, "bufferView", path, "bufferViews");
    const offset = c.int(accessor, "byteOffset", path) ?? 0;
    if (view === undefined) {
      // No view: glTF-Transform allocates zeros; keep that in proportion to the file. What Draco
      // fills is held to its compressed bytes instead (checkDracoPrimitives).
      if (!draco.has(i) && count! * element > dataBudget(c)) {
        c.fail(
          `${path}/count`,
          `at most ${Math.floor(dataBudget(c) / element)} elements without data`,
          count,
        );
      }
    } else {
      checkFits(c, views[view], `${path}`, offset, count!, element, size);
      // Each accessor is read into an array of its own and written back out so: a thousand accessors
      // over one buffer view made a 1 MB GLB into a 787 MB one.
      claimed += count! * element;
      if (claimed > aliasBudget) {
        const expected = `at most ${aliasBudget} bytes of accessor data up to here ` +
          "(16 × the buffers' bytes + 1 MiB, as each accessor is copied on its own)";
        c.fail(`${path}/count`, expected, claimed);
      }
    }
    if (accessor.sparse !== undefined) checkSparse(c, accessor, path, count!, element);
  });
}

/**
 * Bytes all accessors with a buffer view may claim together: a generous multiple of the bytes views
 * can hold (the buffers' data, and what meshopt decodes, checked against its compressed size before),
 * so accessors may interleave and overlap a little, but not alias the same bytes without end.
 */
function aliasedDataBudget(c: Checker): number {
  let bytes = 0;
  c.list("buffers").forEach((_, i) => bytes += c.bufferData(i)?.byteLength ?? 0);
  for (const view of c.list("bufferViews")) {
    const def = meshoptOf(c, view, "")?.def;
    if (def) bytes += (def.count as number) * (def.byteStride as number);
  }
  return 16 * bytes + (1 << 20);
}

/** Bytes an accessor without data may claim: a generous multiple of the file's own size. */
function dataBudget(c: Checker): number {
  const data = Object.values(c.doc.resources).reduce((sum, r) => sum + r.byteLength, 0);
  return 16 * data + (1 << 20);
}

function checkFits(
  c: Checker,
  view: Json,
  path: string,
  offset: number,
  count: number,
  element: number,
  size: number,
): void {
  const stride = (view.byteStride as number | undefined) ?? element;
  if (stride < element) c.fail(`${path}/bufferView`, `a view stride of at least ${element}`, stride);
  const viewOffset = (view.byteOffset as number | undefined) ?? 0;
  // Old exporters pack data without padding. glTF-Transform copies such data out (as partgraph's own
  // reader leaves it to), and every output is written aligned: nothing to refuse.
  if ((viewOffset + offset) % size) {
    c.repaired(
      `${path}/byteOffset`,
      `data at byte ${viewOffset + offset} of its buffer, not a multiple of ${size}: read unaligned`,
    );
  }
  const needed = offset + stride * (count - 1) + element;
  if (needed > (view.byteLength as number)) {
    c.fail(`${path}/count`, `a count whose data fits the view's ${view.byteLength} bytes`, count);
  }
}

function checkSparse(c: Checker, accessor: Json, path: string, count: number, element: number): void {
  const sparse = c.object(accessor.sparse, `${path}/sparse`);
  const n = c.int(sparse, "count", `${path}/sparse`, count + 1, 1);
  if (n === undefined) c.fail(`${path}/sparse/count`, "a count", undefined);
  const views = c.list("bufferViews");
  for (const part of ["indices", "values"]) {
    const at = `${path}/sparse/${part}`;
    const item = c.object(sparse[part], at);
    const view = c.index(item, "bufferView", at, "bufferViews");
    if (view === undefined) c.fail(`${at}/bufferView`, "a buffer view index", undefined);
    if (part === "indices") c.oneOf(item, "componentType", at, INDEX_TYPES);
    const size = part === "indices" ? COMPONENT_BYTES[item.componentType as number] : element;
    if (size === undefined) c.fail(`${at}/componentType`, "an index component type", undefined);
    const offset = c.int(item, "byteOffset", at) ?? 0;
    // Written out: glTF-Transform reads a sparse part through `{...accessor, ...part}`, so a part
    // without its own offset took the accessor's (values read from the wrong bytes; a RangeError).
    item.byteOffset = offset;
    checkFits(c, { ...views[view!], byteStride: undefined }, at, offset, n!, size, Math.min(size, 4));
    if (part === "indices") checkSparseIndices(c, item, `${path}/sparse`, n!, count);
  }
}
