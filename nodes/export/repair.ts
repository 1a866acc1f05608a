/**
 * Repairs a scene so its glTF passes the validator: decoders pass through what damaged files hold
 * (NaN positions, normals of length 10³⁶, indices past the last vertex, NaN node transforms), and
 * a written file must never carry them. Each kind of repair is reported once per property as a
 * warning; a scene with nothing to repair is returned as it is, otherwise a repaired copy that shares
 * every array it does not repair with the input (`repair_arrays.ts`).
 *
 * @module
 */
import {
  Accessor,
  type Document,
  type GLTF,
  type Mesh,
  type Node,
  type Primitive,
  type TypedArray,
} from "@gltf-transform/core";
import { type AccessorStore, accessorStore } from "../../runtime/scene/graph_props.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { summariseRepeats } from "../../runtime/repeats.ts";
import { type WrittenName as NameOf, writtenNames } from "../../runtime/scene/unique_names.ts";
import { dataRepairs } from "./repair_data.ts";
import { isOwned, ownArray } from "./repair_arrays.ts";
import { nonUnitVectors } from "./unit_vectors.ts";
import { indexFacts, valueFacts } from "../../runtime/scene/array_facts.ts";
import { UNIT_SQUARED_HIGH, UNIT_SQUARED_LOW, UNIT_TOLERANCE } from "./repair_attributes.ts";
import { propertyRepairs } from "./repair_properties.ts";
import { attributeReader, type AttributesOf } from "./primitive_attributes.ts";
import { againstShare, mendDirectionless } from "../../runtime/scene/directionless_normals.ts";
import { alignTransformFallbacks } from "../../runtime/scene/transform_fallbacks.ts";
import {
  disposeReplacedMaterials,
  type Material,
  type MaterialUvSets,
  retargetTexCoords,
  type UvSetCopies,
} from "./repair_uv_sets.ts";

const FLOAT = 5126;
const TRIANGLES = 4;
/** Share of a primitive's triangle area whose normals face against the winding for it to count as turned. */
const AGAINST_SHARE = 0.9;

/**
 * The scene, or a repaired copy of it, with `warn` called once per repaired property (or, past three
 * of one kind, once for the rest: {@link summariseRepeats}).
 *
 * @example
 * ```ts
 * const safe = repairForExport(scene, (message) => ctx.warn(message));
 * ```
 */
export function repairForExport(doc: Document, warn: (message: string) => void): Document {
  if (!repairs(doc, false).length) return doc;
  // Arrays shared: a repair gives the accessor it writes into a copy of its own (copy on write).
  const copy = copyScene(doc, { shareData: true });
  for (const message of summariseRepeats(repairs(copy, true))) warn(message);
  return copy;
}

/**
 * The repairs a document needs; made in place when `apply` is true. One small function per kind of
 * property, each with indexed loops: with every scan inlined into one function (and `entries()`
 * iterators), TurboFan took 150–190 ms to compile it in every process that exports a few dozen files.
 */
function repairs(doc: Document, apply: boolean): string[] {
  const messages: string[] = [];
  const root = doc.getRoot();
  const name = writtenNames(doc);
  // Every scan below reads a primitive's attributes through this: one look per primitive when checking.
  const attributes = attributeReader(apply);
  // First: an attribute misspelt `TEXCOORD0` is the UV set the UV repair below looks for.
  propertyRepairs(doc, apply, messages, attributes);
  // Before the UV set repairs: a fallback `texCoord` naming a set the primitives lack, while the
  // transform's names one they have, is given the transform's (as decode.gltf does for files; a
  // scene a script builds never passes through it), not a copy of the material sampling TEXCOORD_0.
  messages.push(...alignTransformFallbacks(doc, (material) => `'${name(material)}'`, apply));
  accessorRepairs(root.listAccessors(), apply, messages);
  const normals = meshRepairs(root.listMeshes(), apply, messages, name, attributes);
  normalRepairs(normals, apply, messages, name);
  nodeRepairs(root.listNodes(), apply, messages, name);
  dataRepairs(doc, apply, messages, attributes);
  return messages;
}

function accessorRepairs(accessors: Accessor[], apply: boolean, messages: string[]): void {
  for (let i = 0; i < accessors.length; i++) {
    const accessor = accessors[i];
    // Every accessor of every export: its fields read from its store, not through the getters.
    const store = accessorStore(accessor);
    const componentType = store ? store.componentType : accessor.getComponentType();
    const bad = componentType === FLOAT ? replaceNonFinite(accessor, apply, store) : 0;
    if (bad) messages.push(`${bad} non-finite value(s) in accessor ${label(accessor, i)} set to 0`);
  }
}

/** Repairs the meshes' primitives; returns their normal accessors, each once, with the primitives using it. */
function meshRepairs(
  meshes: Mesh[],
  apply: boolean,
  messages: string[],
  name: NameOf,
  attributes: AttributesOf,
): Map<Accessor, Primitive[]> {
  const normals = new Map<Accessor, Primitive[]>();
  const uvSets = new Map<Material, MaterialUvSets>();
  const uvCopies: UvSetCopies = { corners: new Map(), replaced: new Set() };
  const cornered = new Map<Material, string[]>();
  for (let m = 0; m < meshes.length; m++) {
    const mesh = meshes[m], primitives = attributes.primitives(mesh);
    if (emptyMeshRepair(mesh, primitives, apply, messages, name, attributes)) continue;
    for (let p = 0; p < primitives.length; p++) {
      const primitive = primitives[p], read = attributes(primitive);
      const normal = read.get("NORMAL");
      if (normal) {
        const users = normals.get(normal);
        if (users) users.push(primitive);
        else normals.set(normal, [primitive]);
      }
      const bad = clampIndices(primitive, read.get("POSITION"), apply);
      if (bad) {
        messages.push(
          `${bad} index value(s) past the last vertex in mesh '${name(mesh)}' set to 0`,
        );
      }
      if (widenRestartIndices(primitive, apply)) {
        messages.push(
          `indices of mesh '${name(mesh)}' hold the largest value of their type, which GPUs read as ` +
            "a strip restart; written as 32-bit",
        );
      }
      const uvRepair = retargetTexCoords(primitive, apply, uvSets, uvCopies, read);
      if (uvRepair === "retargeted") {
        messages.push(
          `textures of mesh '${name(mesh)}' sampled missing UV sets; they use TEXCOORD_0`,
        );
      } else if (uvRepair === "fallback") {
        messages.push(
          `textures of mesh '${
            name(mesh)
          }' name for viewers without KHR_texture_transform a UV set it lacks; ` +
            "they name the set the transform samples (drawn the same where the extension is read)",
        );
      } else if (uvRepair === "corner") {
        const material = primitive.getMaterial()!;
        const named = cornered.get(material) ?? cornered.set(material, []).get(material)!;
        if (!named.includes(name(mesh))) named.push(name(mesh));
      }
    }
  }
  // One warning per material, naming each mesh (a rip's hundreds would be summarised away one by one).
  for (const [material, names] of cornered) messages.push(cornerMessage(names, name(material)));
  if (apply) disposeReplacedMaterials(uvCopies);
  return normals;
}

/** The warning for the meshes without UVs drawn with a textured material, each named (the first 20). */
function cornerMessage(names: string[], material: string): string {
  const quoted = names.slice(0, 20).map((name) => `'${name}'`);
  const list = names.length > 20
    ? `${quoted.join(", ")} and ${names.length - 20} more`
    : quoted.length > 1
    ? `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`
    : quoted[0];
  return `${names.length > 1 ? "meshes" : "mesh"} ${list} ${names.length > 1 ? "have" : "has"} no UV set ` +
    `for the textures of material '${material}'; written with UVs of (0,0), so every client draws each ` +
    "texture's corner colour, as viewers draw the source (its UVs were likely lost)";
}

/**
 * Primitives without attributes and meshes without primitives, which glTF forbids (a file may hold
 * them, a decoder may leave them) and viewers draw as nothing, are left out: the nodes that used such
 * a mesh keep their place, without it. Returns whether the mesh is left out.
 */
function emptyMeshRepair(
  mesh: Mesh,
  primitives: readonly Primitive[],
  apply: boolean,
  messages: string[],
  name: NameOf,
  attributes: AttributesOf,
): boolean {
  const empty = primitives.filter((primitive) => !attributes(primitive).size);
  if (empty.length) {
    messages.push(`${empty.length} primitive(s) of mesh '${name(mesh)}' without attributes left out`);
    if (apply) { for (const primitive of empty) primitive.dispose(); }
  }
  if (empty.length < primitives.length) return false;
  const nodes = mesh.listParents().filter((parent) => parent.propertyType === "Node") as Node[];
  const users = nodes.length ? `; ${nodes.map((node) => `'${name(node)}'`).join(", ")} drawn without it` : "";
  messages.push(`mesh '${name(mesh)}' has no primitive to draw; left out${users}`);
  if (apply) mesh.dispose();
  return true;
}

function normalRepairs(
  normals: Map<Accessor, Primitive[]>,
  apply: boolean,
  messages: string[],
  name: NameOf,
): void {
  for (const [accessor, primitives] of normals) {
    // Only a scene with normals to repair is read further: the one pass below says.
    const mended = apply && normaliseVectors(accessor, false)
      ? mendDirectionlessNormals(accessor, primitives)
      : 0;
    if (mended) {
      // Named by the meshes drawing them (a decoder's accessors are often unnamed).
      const meshes = [
        ...new Set(primitives.map((p) => p.listParents().find((m) => m.propertyType === "Mesh"))),
      ]
        .filter((mesh): mesh is Mesh => !!mesh).map((mesh) => `'${name(mesh)}'`);
      messages.push(
        `${mended} normal(s) of accessor '${accessor.getName()}' (mesh ${
          meshes.join(", ")
        }) NaN or of zero ` +
          "length given the direction of their copies at the same place or of their triangles (not +Z: " +
          "shaded as their neighbours)",
      );
    }
    const bad = normaliseVectors(accessor, apply);
    if (bad) messages.push(`${bad} normal(s) of accessor '${accessor.getName()}' made unit length`);
  }
}

/**
 * Normals of `accessor` NaN (0 by now) or of zero length given a direction by the rule decode.gltf mends
 * a file's by (`directionless_normals.ts`), primitive by primitive of those using it: a vertex no
 * triangle of the first draws is left to the next. Those of no triangle become +Z below. Returns how many.
 */
function mendDirectionlessNormals(accessor: Accessor, primitives: Primitive[]): number {
  if (accessor.getElementSize() !== 3 || accessor.getComponentType() !== FLOAT) return 0;
  if (!hasDirectionless(accessor.getArray()!)) return 0;
  let mended = 0;
  for (let p = 0; p < primitives.length; p++) {
    const primitive = primitives[p], position = primitive.getAttribute("POSITION");
    const positions = position?.getArray();
    if (primitive.getMode() !== TRIANGLES || !position || !positions) continue;
    if (position.getElementSize() !== 3 || position.getComponentType() !== FLOAT) continue;
    const normals = accessor.getArray()!;
    const count = Math.min(position.getCount(), accessor.getCount());
    const listed = primitive.getIndices()?.getArray();
    const triangles = listed ?? Uint32Array.from({ length: count - (count % 3) }, (_, i) => i);
    // Normals that face against the winding nearly everywhere (a mirror baked without reversing the
    // triangles) are mended facing as the others do.
    const orientation = againstShare(positions, normals, triangles) >= AGAINST_SHARE ? -1 : 1;
    mended += mendDirectionless(positions, normals, triangles, orientation, () => ownArray(accessor));
  }
  return mended;
}

/** Whether any 3-vector of `array` is NaN or shorter than a millionth (no direction to keep). */
function hasDirectionless(array: TypedArray): boolean {
  for (let i = 0; i + 2 < array.length; i += 3) {
    if (!(Math.hypot(array[i], array[i + 1], array[i + 2]) >= 1e-6)) return true;
  }
  return false;
}

function nodeRepairs(nodes: Node[], apply: boolean, messages: string[], name: NameOf): void {
  for (let i = 0; i < nodes.length; i++) {
    if (repairTransform(nodes[i], apply)) {
      messages.push(`non-finite or non-unit transform of node '${name(nodes[i])}' repaired`);
    }
  }
}

function label(accessor: Accessor, i: number): string {
  return accessor.getName() ? `'${accessor.getName()}'` : `#${i}`;
}

function replaceNonFinite(accessor: Accessor, apply: boolean, store?: AccessorStore): number {
  let array = store ? store.array as TypedArray | null : accessor.getArray();
  if (!array) return 0;
  // An array of the input: its one pass (shared with the writer's bounds and the output check) says.
  if (!isOwned(array)) {
    const size = store ? Accessor.getElementSize(store.type as GLTF.AccessorType) : accessor.getElementSize();
    const bad = valueFacts(array, size).nonFinite;
    if (!bad || !apply) return bad;
    array = ownArray(accessor);
  }
  let bad = 0;
  for (let i = 0; i < array.length; i++) {
    if (!Number.isFinite(array[i])) {
      bad++;
      if (apply) array[i] = 0;
    }
  }
  return bad;
}

/**
 * Indices holding their type's largest value (65,535 in 16 bits, 255 in 8), which glTF reserves
 * (ACCESSOR_INDEX_PRIMITIVE_RESTART: GPUs with restart enabled end a strip there), as exporters write
 * for a mesh of exactly 65,536 vertices: widened to 32 bits, the same values. True when (to be) widened.
 */
function widenRestartIndices(primitive: Primitive, apply: boolean): boolean {
  const indices = primitive.getIndices();
  const array = indices && arrayOf(indices);
  if (!indices || !array || !(array instanceof Uint16Array || array instanceof Uint8Array)) return false;
  const restart = isOwned(array)
    ? array.includes(array instanceof Uint16Array ? 0xffff : 0xff)
    : indexFacts(array).restart;
  if (!restart) return false;
  if (apply) indices.setArray(new Uint32Array(array));
  return true;
}

function clampIndices(primitive: Primitive, position: Accessor | undefined, apply: boolean): number {
  const accessor = primitive.getIndices();
  let indices = accessor && arrayOf(accessor);
  if (!accessor || !indices || !position) return 0;
  const count = countOf(position);
  // An input's integer indices all below the count (nearly always): known from their one pass.
  if (!isOwned(indices) && isIndexArray(indices) && indexFacts(indices).max < count) return 0;
  let bad = 0;
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= count) {
      bad++;
      if (apply) (indices = ownArray(accessor))[i] = 0;
    }
  }
  return bad;
}

/** `accessor.getArray()`, read from the accessor's store where found (`accessorStore`). */
function arrayOf(accessor: Accessor): TypedArray | null {
  const store = accessorStore(accessor);
  return store ? store.array as TypedArray | null : accessor.getArray();
}

/** `accessor.getCount()`, read from the accessor's store where found, as the getter computes it. */
function countOf(accessor: Accessor): number {
  const store = accessorStore(accessor);
  if (!store) return accessor.getCount();
  return store.array ? store.array.length / Accessor.getElementSize(store.type as GLTF.AccessorType) : 0;
}

function isIndexArray(array: TypedArray): boolean {
  return array instanceof Uint32Array || array instanceof Uint16Array || array instanceof Uint8Array;
}

/**
 * Scales vectors to unit length; a zero (or non-finite) one that no triangle gave a direction
 * ({@link mendDirectionlessNormals}) becomes +Z.
 */
function normaliseVectors(accessor: Accessor, apply: boolean): number {
  const store = accessorStore(accessor);
  let array = store ? store.array as TypedArray | null : accessor.getArray();
  if (!array) return 0;
  const size = store ? Accessor.getElementSize(store.type as GLTF.AccessorType) : accessor.getElementSize();
  if (size !== 3 || (store ? store.componentType : accessor.getComponentType()) !== FLOAT) return 0;
  // An input's normals: their one pass (shared with the output check) counts the vectors to repair.
  if (!isOwned(array)) {
    const bad = nonUnitVectors(array);
    if (!bad || !apply) return bad;
    array = ownArray(accessor);
  }
  let bad = 0;
  for (let i = 0; i + 2 < array.length; i += 3) {
    const x = array[i], y = array[i + 1], z = array[i + 2];
    // Squared length well inside (1 ± tolerance)²: unit, decided without the slower Math.hypot.
    // Only vectors near or past the tolerance get the exact test (and the repair) below.
    const squared = x * x + y * y + z * z;
    if (squared > UNIT_SQUARED_LOW && squared < UNIT_SQUARED_HIGH) continue;
    const length = Math.hypot(x, y, z);
    if (Math.abs(length - 1) <= UNIT_TOLERANCE) continue;
    bad++;
    if (!apply) continue;
    const usable = Number.isFinite(length) && length > 1e-12;
    array[i] = usable ? array[i] / length : 0;
    array[i + 1] = usable ? array[i + 1] / length : 0;
    array[i + 2] = usable ? array[i + 2] / length : 1;
  }
  return bad;
}

/** Non-finite translation → 0, scale → 1; rotation normalised (identity when unusable). */
function repairTransform(node: Node, apply: boolean): boolean {
  const t = node.getTranslation();
  const s = node.getScale();
  const r = node.getRotation();
  // Indexed, not spread into Math.hypot or tested with `every`: this runs for every node of every export.
  const length = r.length === 4 ? Math.hypot(r[0], r[1], r[2], r[3]) : Math.hypot(...r);
  const badT = !allFinite(t);
  const badS = !allFinite(s);
  const badR = !(Math.abs(length - 1) <= UNIT_TOLERANCE);
  if (apply) {
    if (badT) node.setTranslation([0, 0, 0]);
    if (badS) node.setScale([1, 1, 1]);
    if (badR) {
      const usable = Number.isFinite(length) && length > 1e-12;
      node.setRotation(usable ? r.map((v) => v / length) as typeof r : [0, 0, 0, 1]);
    }
  }
  return badT || badS || badR;
}

function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}
