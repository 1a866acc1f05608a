/**
 * Export repairs of vertex influences: weights that do not sum to 1 (or are negative, or all zero)
 * and a joint listed twice for one vertex, which viewers skin with but the Khronos glTF validator
 * (2.0.0-dev.3.10) refuses. Tested by the validator's own rules, so files it accepts get no warning.
 * Called by `repair_data.ts`, whose module comment says why repairs may write arrays in place.
 *
 * @module
 */
import type { Accessor, Mesh, Primitive, TypedArray } from "@gltf-transform/core";
import type { WrittenName as NameOf } from "../../runtime/scene/unique_names.ts";
import { ownArray } from "./repair_arrays.ts";
import { attributeReader, type AttributesOf } from "./primitive_attributes.ts";

const FLOAT = 5126, UNSIGNED_BYTE = 5121, UNSIGNED_SHORT = 5123;
/** How far the validator lets a vertex's float32 weight sum drift from 1, per non-zero weight. */
const WEIGHT_SUM_STEP = 2e-7;

/** What {@link repairVertex} changed. */
const DUPLICATE = 1, RESCALED = 2, ALL_ZERO = 4, NEGATIVE = 8;

/** The JOINTS_n/WEIGHTS_n pairs of a primitive, read as the validator reads them. */
interface Influences {
  readonly joints: TypedArray[];
  readonly weights: TypedArray[];
  /** The value a weight of 1 is stored as: 1 for floats, 255 or 65535 for normalized integers. */
  readonly scale: number;
  readonly count: number;
}

/** Counts of the vertices of one mesh that {@link repairVertex} changed. */
interface InfluenceCounts {
  duplicate: number;
  weights: number;
  zero: number;
  negative: number;
  /** Vertices changed in any way. */
  vertices: number;
}

/**
 * Repairs the vertex influences (JOINTS_n/WEIGHTS_n) of `mesh`'s primitives, counting one warning per
 * kind; an influence set in `seen` (shared with an earlier primitive) is repaired once, by the first.
 */
export function influenceRepairs(
  mesh: Mesh,
  apply: boolean,
  messages: string[],
  seen: Set<Accessor>,
  nameOf: NameOf,
  attributes: AttributesOf = attributeReader(apply),
): void {
  const counts: InfluenceCounts = { duplicate: 0, weights: 0, zero: 0, negative: 0, vertices: 0 };
  const primitives = attributes.primitives(mesh);
  for (let p = 0; p < primitives.length; p++) {
    const first = attributes(primitives[p]).get("WEIGHTS_0");
    if (!first || seen.has(first)) continue;
    seen.add(first);
    let influences = influencesOf(primitives[p], false);
    // Copy on write (`repair_arrays.ts`): the input's arrays are copied once a vertex needs repair.
    if (influences && apply) {
      const probe: InfluenceCounts = { duplicate: 0, weights: 0, zero: 0, negative: 0, vertices: 0 };
      repairInfluences(influences, false, probe);
      if (!probe.vertices) continue;
      influences = influencesOf(primitives[p], true);
    }
    if (influences) repairInfluences(influences, apply, counts);
  }
  // Asked only for a message: an unnamed mesh's written name works out every name in the file.
  const name = counts.weights || counts.duplicate ? nameOf(mesh) : "";
  if (counts.weights) {
    const notes: string[] = [];
    if (counts.negative) notes.push(`${counts.negative} with negative weights set to 0`);
    if (counts.zero) notes.push(`${counts.zero} all zero, given weight 1 on their first joint`);
    messages.push(
      `${counts.weights} vertex weight set(s) of mesh '${name}' made to sum to 1` +
        (notes.length ? ` (${notes.join("; ")})` : ""),
    );
  }
  if (counts.duplicate) {
    messages.push(
      `${counts.duplicate} vertex(es) of mesh '${name}' listed a joint twice; ` +
        "its weights merged into the first",
    );
  }
}

/**
 * The primitive's influence sets (JOINTS_0/WEIGHTS_0, JOINTS_1/WEIGHTS_1, …), or undefined when
 * there are none or they are in a form the validator refuses for other reasons (weights neither
 * float nor normalized unsigned byte/short, mixed component types, not VEC4, unequal counts):
 * that is not a data repair, and the validator's verdict stands.
 */
function influencesOf(primitive: Primitive, own: boolean): Influences | undefined {
  const joints: TypedArray[] = [], weights: TypedArray[] = [];
  let scale = 0, count = -1;
  for (let n = 0;; n++) {
    const j = primitive.getAttribute(`JOINTS_${n}`), w = primitive.getAttribute(`WEIGHTS_${n}`);
    if (!j || !w) break;
    // `own`: arrays to write into, each the accessor's own copy (`repair_arrays.ts`).
    const jArray = own && j.getArray() ? ownArray(j) : j.getArray();
    const wArray = own && w.getArray() ? ownArray(w) : w.getArray();
    const setScale = weightScale(w);
    if (!jArray || !wArray || !setScale || j.getElementSize() !== 4 || w.getElementSize() !== 4) return;
    if (scale && setScale !== scale) return;
    if (count >= 0 && (j.getCount() !== count || w.getCount() !== count)) return;
    if (j.getCount() !== w.getCount()) return;
    scale = setScale;
    count = w.getCount();
    joints.push(jArray);
    weights.push(wArray);
  }
  return joints.length ? { joints, weights, scale, count } : undefined;
}

/** The stored value of a weight of 1, or 0 for a format glTF does not allow for weights. */
function weightScale(accessor: Accessor): number {
  const type = accessor.getComponentType();
  if (type === FLOAT) return 1;
  if (!accessor.getNormalized()) return 0;
  return type === UNSIGNED_BYTE ? 255 : type === UNSIGNED_SHORT ? 65535 : 0;
}

/**
 * Repairs each vertex of one primitive's influence sets. A vertex's weights and joints are
 * gathered into scratch arrays in the validator's order — component by component, set by set
 * (`k = component · sets + set`) — so sums round as the validator rounds them.
 */
function repairInfluences(influences: Influences, apply: boolean, counts: InfluenceCounts): void {
  const { joints, weights, scale, count } = influences;
  const sets = weights.length;
  const w = new Float64Array(4 * sets), j = new Float64Array(4 * sets);
  for (let v = 0; v < count; v++) {
    for (let s = 0; s < sets; s++) {
      for (let c = 0; c < 4; c++) {
        w[c * sets + s] = weights[s][v * 4 + c];
        j[c * sets + s] = joints[s][v * 4 + c];
      }
    }
    const flags = repairVertex(w, j, scale);
    if (!flags) continue;
    counts.vertices++;
    if (flags & DUPLICATE) counts.duplicate++;
    if (flags & (RESCALED | ALL_ZERO | NEGATIVE)) counts.weights++;
    if (flags & ALL_ZERO) counts.zero++;
    if (flags & NEGATIVE) counts.negative++;
    if (!apply) continue;
    for (let s = 0; s < sets; s++) {
      for (let c = 0; c < 4; c++) {
        weights[s][v * 4 + c] = w[c * sets + s];
        joints[s][v * 4 + c] = j[c * sets + s];
      }
    }
  }
}

/**
 * One vertex's repair, on its scratch weights `w` and joints `j` (see {@link repairInfluences});
 * returns what changed. In this order, each step leaving nothing the next must undo:
 * - negative (or NaN) weights become 0 (ACCESSOR_WEIGHTS_NEGATIVE);
 * - a joint listed again with a non-zero weight (ACCESSOR_JOINTS_INDEX_DUPLICATE) has that weight
 *   added to its first listing, and the later listing becomes joint 0 with weight 0. The validator
 *   skips zero-weight listings in its duplicate test, so joint 0 can never clash; and a zero weight
 *   on joint 0 spares the ACCESSOR_JOINTS_USED_ZERO_WEIGHT warning a non-zero joint would get;
 * - weights that do not sum to 1 by the validator's own rule are scaled to (ACCESSOR_WEIGHTS_NON_NORMALIZED).
 *   All-zero weights are refused by it too (the sum 0 is 0 from 1, with no tolerance for no
 *   weight): such a vertex gets weight 1 on its first listed joint, the one a viewer would
 *   otherwise have to guess.
 */
function repairVertex(w: Float64Array, j: Float64Array, scale: number): number {
  let flags = 0;
  for (let k = 0; k < w.length; k++) {
    if (!(w[k] >= 0)) {
      w[k] = 0;
      flags |= NEGATIVE;
    }
  }
  for (let k = 1; k < w.length; k++) {
    if (w[k] !== 0 && mergeDuplicate(w, j, k)) flags |= DUPLICATE;
  }
  if (sumsToOne(w, scale)) return flags;
  let total = 0;
  for (let k = 0; k < w.length; k++) total += w[k];
  if (total === 0) {
    w[0] = scale;
    return flags | ALL_ZERO;
  }
  if (scale === 1) normaliseFloats(w, total);
  else normaliseIntegers(w, total, scale);
  return flags | RESCALED;
}

/** Adds weight `k` into an earlier listing of the same joint with a weight, if any; true if it did. */
function mergeDuplicate(w: Float64Array, j: Float64Array, k: number): boolean {
  for (let u = 0; u < k; u++) {
    if (w[u] !== 0 && j[u] === j[k]) {
      // Rounded as a float32 weight will store it (exact for integer weights), so the sum test sees it.
      w[u] = Math.fround(w[u] + w[k]);
      w[k] = 0;
      j[k] = 0;
      return true;
    }
  }
  return false;
}

/**
 * The validator's test, exactly: the non-zero weights (dequantized) summed in float32, one rounding
 * per addition, within 2·10⁻⁷ of 1 per weight summed.
 */
function sumsToOne(w: Float64Array, scale: number): boolean {
  let sum = 0, tolerance = 0;
  for (let k = 0; k < w.length; k++) {
    if (w[k] === 0) continue;
    sum = Math.fround(sum + w[k] / scale);
    tolerance += WEIGHT_SUM_STEP;
  }
  return Math.abs(sum - 1) <= tolerance;
}

/**
 * Divides float weights by their sum, rounded to float32 as they will be stored. That passes the
 * validator's test as a rule (float32 rounding stays well inside its tolerance); should a sum still
 * fall outside, the largest weight takes up the difference.
 */
function normaliseFloats(w: Float64Array, total: number): void {
  let largest = 0;
  for (let k = 0; k < w.length; k++) {
    w[k] = Math.fround(w[k] / total);
    if (w[k] > w[largest]) largest = k;
  }
  for (let pass = 0; pass < 3 && !sumsToOne(w, 1); pass++) {
    let sum = 0;
    for (let k = 0; k < w.length; k++) if (w[k] !== 0) sum = Math.fround(sum + w[k]);
    w[largest] = Math.fround(w[largest] + (1 - sum));
  }
}

/**
 * Rescales normalized integer weights to sum to `scale` (255 or 65535) exactly, the rounding
 * remainder on the largest weight — exact integer sums always pass the validator's float32 test.
 */
function normaliseIntegers(w: Float64Array, total: number, scale: number): void {
  let largest = 0, sum = 0;
  for (let k = 0; k < w.length; k++) {
    w[k] = Math.round(w[k] * scale / total);
    sum += w[k];
    if (w[k] > w[largest]) largest = k;
  }
  w[largest] += scale - sum;
}
