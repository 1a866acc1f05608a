/**
 * Export repairs of vertex attributes real exporters write outside glTF's ranges, which viewers draw
 * but the Khronos glTF validator (2.0.0-dev.3.10) refuses: tangents whose direction is not unit length
 * (MikkTSpace leaves a zero tangent on a triangle with degenerate UVs) or whose sign is not ±1 (a sign of
 * 0 or a tangent of no direction taken from the UVs, as decode.gltf mends a file's), and
 * vertex colours outside 0..1 (floats from HDR tools and bakers). Called by `repair.ts` on its copy of
 * the scene, writing into an accessor's array only once it has one of its own (`repair_arrays.ts`).
 *
 * @module
 */
import type { Accessor, Mesh, Primitive, TypedArray } from "@gltf-transform/core";
import type { WrittenName as NameOf } from "../../runtime/scene/unique_names.ts";
import { ownArray } from "./repair_arrays.ts";
import { attributeReader, type AttributesOf } from "./primitive_attributes.ts";
import { tangentsOf } from "../../runtime/scene/uv_tangents.ts";

const FLOAT = 5126;
const TRIANGLES = 4;
/** A tangent shorter than this has no direction (as decode.gltf's tangent_signs.ts counts it). */
const DIRECTIONLESS = 1e-6;
/** The validator's tolerance for unit length. */
export const UNIT_TOLERANCE = 0.0005;
/** Squared lengths surely within {@link UNIT_TOLERANCE} of 1: (1 ± 0.00045)², rounded inwards. */
export const UNIT_SQUARED_LOW = 0.9991, UNIT_SQUARED_HIGH = 1.0009;

/** Tangent repairs of `mesh`'s primitives, one message per kind; accessors in `seen` are skipped. */
export function tangentRepairs(
  mesh: Mesh,
  apply: boolean,
  messages: string[],
  seen: Set<Accessor>,
  nameOf: NameOf,
  attributes: AttributesOf = attributeReader(apply),
): void {
  const primitives = attributes.primitives(mesh);
  let signs = 0, lengths = 0, uvSigns = 0, uvDirections = 0;
  for (let p = 0; p < primitives.length; p++) {
    const tangent = attributes(primitives[p]).get("TANGENT");
    let array = tangent?.getArray();
    if (!tangent || !array || seen.has(tangent)) continue;
    seen.add(tangent);
    if (tangent.getElementSize() !== 4 || tangent.getComponentType() !== FLOAT) continue;
    const normals = normalsOf(primitives[p]);
    // Nothing to repair (nearly always): told by the two checks alone, as before signs of 0 were mended.
    if (!repairTangentSigns(array, false, false) && !repairTangentLengths(array, normals, false, false)) {
      continue;
    }
    // A sign of 0 and a tangent of no direction take the UVs' (as decode.gltf mends a file's).
    const set = uvSetOf(primitives[p]);
    const uvs = !!set && uvSigned(array);
    // Copy on write (`repair_arrays.ts`): an array shared with the input is copied only to be repaired.
    if (apply) array = ownArray(tangent);
    if (uvs) {
      const mended = signsFromUvs(primitives[p], set!, array, apply);
      uvSigns += mended.signs, uvDirections += mended.directions;
    }
    signs += repairTangentSigns(array, apply, uvs);
    lengths += repairTangentLengths(array, normals, apply, uvs);
  }
  // Asked only for a message: an unnamed mesh's written name works out every name in the file.
  const name = lengths || signs || uvSigns || uvDirections ? nameOf(mesh) : "";
  if (uvSigns || uvDirections) {
    const parts = [
      uvSigns && `${uvSigns} tangent sign(s) (w) of 0 or NaN`,
      uvDirections && `${uvDirections} tangent(s) of no direction`,
    ].filter(Boolean).join(" and ");
    messages.push(
      `${parts} of mesh '${name}' set from the direction of its normal map's UVs, as viewers compute ` +
        "tangents (a sign of +1 would turn the normal map's bend on mirrored UV islands)",
    );
  }
  if (lengths) {
    messages.push(
      `${lengths} tangent(s) of mesh '${name}' made unit length (a zero one made perpendicular to its normal)`,
    );
  }
  if (signs) messages.push(`${signs} tangent sign(s) (w) of mesh '${name}' set to 1 or -1`);
}

function normalsOf(primitive: Primitive): TypedArray | undefined {
  const normal = primitive.getAttribute("NORMAL");
  return normal?.getComponentType() === FLOAT && normal.getElementSize() === 3
    ? normal.getArray()!
    : undefined;
}

/**
 * The UV set `primitive`'s normal map samples, when tangents can be made from it: triangles with
 * positions, normals and that set (`uv_tangents.ts`); else null.
 */
function uvSetOf(primitive: Primitive): string | null {
  const set = `TEXCOORD_${primitive.getMaterial()?.getNormalTextureInfo()?.getTexCoord() ?? 0}`;
  const usable = primitive.getMode() === TRIANGLES && primitive.getAttribute("POSITION") &&
    primitive.getAttribute("NORMAL") && primitive.getAttribute(set);
  return usable ? set : null;
}

/** Whether a tangent has a sign of 0 or NaN, or no direction: what the UVs mend. */
function uvSigned(array: TypedArray): boolean {
  for (let i = 0; i + 3 < array.length; i += 4) {
    const w = array[i + 3];
    if (!(w > 0) && !(w < 0)) return true;
    if (!(Math.hypot(array[i], array[i + 1], array[i + 2]) >= DIRECTIONLESS)) return true;
  }
  return false;
}

/**
 * Signs of 0, −0 or NaN set, and tangents of no direction given theirs, from `primitive`'s tangents
 * made from its UV set `set` (when `apply`); returns how many of each.
 */
function signsFromUvs(
  primitive: Primitive,
  set: string,
  array: TypedArray,
  apply: boolean,
): { signs: number; directions: number } {
  const made = apply ? tangentsOf(primitive, set) : null;
  const fromUvs = typeof made === "string" ? null : made;
  let signs = 0, directions = 0;
  for (let i = 0; i + 3 < array.length; i += 4) {
    if (!(Math.hypot(array[i], array[i + 1], array[i + 2]) >= DIRECTIONLESS)) {
      directions++;
      if (fromUvs) array.set(fromUvs.subarray(i, i + 3), i);
    }
    const w = array[i + 3];
    if (w > 0 || w < 0) continue;
    signs++;
    if (fromUvs) array[i + 3] = fromUvs[i + 3];
  }
  return { signs, directions };
}

/**
 * A tangent's w is the bitangent's sign and must be exactly ±1 (ACCESSOR_INVALID_SIGN): a negative
 * w becomes −1; anything else (positive, zero, −0 or NaN) +1, the handedness of most meshes. With
 * `uvs`, signs of 0 or NaN are left to {@link signsFromUvs}.
 */
function repairTangentSigns(array: TypedArray, apply: boolean, uvs: boolean): number {
  let bad = 0;
  for (let i = 3; i < array.length; i += 4) {
    const w = array[i];
    if (w === 1 || w === -1 || (uvs && !(w > 0) && !(w < 0))) continue;
    bad++;
    if (apply) array[i] = w < 0 ? -1 : 1;
  }
  return bad;
}

/**
 * A tangent's x, y, z scaled to unit length (ACCESSOR_VECTOR3_NON_UNIT). A zero or non-finite one has
 * no direction to keep: it becomes the axis least along its vertex's normal, made perpendicular to it
 * (the normal map is then read in some frame of the surface, not along the normal), or +X without one.
 * With `uvs`, tangents of no direction are left to {@link signsFromUvs}.
 */
function repairTangentLengths(
  array: TypedArray,
  normals: TypedArray | undefined,
  apply: boolean,
  uvs: boolean,
): number {
  let bad = 0;
  for (let v = 0; 4 * v + 3 < array.length; v++) {
    const i = 4 * v;
    const squared = array[i] * array[i] + array[i + 1] * array[i + 1] + array[i + 2] * array[i + 2];
    // As for normals: only vectors near or past the tolerance get the exact test.
    if (squared > UNIT_SQUARED_LOW && squared < UNIT_SQUARED_HIGH) continue;
    const length = Math.hypot(array[i], array[i + 1], array[i + 2]);
    if (Math.abs(length - 1) <= UNIT_TOLERANCE || (uvs && !(length >= DIRECTIONLESS))) continue;
    bad++;
    if (!apply) continue;
    if (Number.isFinite(length) && length > 1e-12) {
      for (let k = 0; k < 3; k++) array[i + k] /= length;
      continue;
    }
    const n = normals && 3 * v + 2 < normals.length
      ? [normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]]
      : [0, 0, 0];
    if (!n.every(Number.isFinite)) n.fill(0);
    const axis = n.map(Math.abs).reduce((best, c, k, all) => (c < all[best] ? k : best), 0);
    const t = [0, 0, 0];
    t[axis] = 1;
    const along = n[axis] / (Math.hypot(...n) ** 2 || 1);
    for (let k = 0; k < 3; k++) t[k] -= along * n[k];
    const tl = Math.hypot(...t);
    for (let k = 0; k < 3; k++) array[i + k] = t[k] / tl;
  }
  return bad;
}

/**
 * Float vertex colours (`COLOR_n`) clamped to 0..1 (ACCESSOR_NON_CLAMPED): glTF has no brighter vertex
 * colour, and the validator refuses the file. Integer colours are normalized, always in range.
 */
export function colourRepairs(
  mesh: Mesh,
  apply: boolean,
  messages: string[],
  seen: Set<Accessor>,
  nameOf: NameOf,
  attributes: AttributesOf = attributeReader(apply),
): void {
  let bad = 0, low = 0, high = 1;
  for (const primitive of attributes.primitives(mesh)) {
    for (const [semantic, colour] of attributes(primitive)) {
      // The name first: a colour set is rare, and the accessor's getters are not free.
      if (!/^COLOR_\d+$/.test(semantic)) continue;
      let array = colour.getArray();
      if (
        !array || colour.getComponentType() !== FLOAT || seen.has(colour)
      ) {
        continue;
      }
      seen.add(colour);
      for (let i = 0; i < array.length; i++) {
        const value = array[i];
        if (value >= 0 && value <= 1) continue;
        bad++;
        low = Math.min(low, value);
        high = Math.max(high, value);
        if (apply) (array = ownArray(colour))[i] = value < 0 ? 0 : 1; // copy on write
      }
    }
  }
  if (bad) {
    const range = [low < 0 && `lowest ${+low.toPrecision(3)}`, high > 1 && `highest ${+high.toPrecision(3)}`]
      .filter(Boolean).join(", ");
    messages.push(
      `${bad} vertex colour value(s) of mesh '${nameOf(mesh)}' outside 0..1 (${range}) clamped: ` +
        "glTF's vertex colours are 0..1",
    );
  }
}
