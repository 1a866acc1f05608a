/**
 * DSON `skin_binding` to glTF-ready skin weights: the sparse per-joint weight maps are transposed to
 * per-vertex slots keeping the 4 strongest weights, renormalised to sum to 1; weights outside 0..1
 * are clamped and named in one warning per binding.
 *
 * @module
 */
import type { JsonReader, JsonRecord } from "./read_json.ts";

/** Joint influences kept per vertex (glTF `JOINTS_0`/`WEIGHTS_0`). */
export const INFLUENCES = 4;

/** One weighted joint of a skin binding. */
export interface SkinJoint {
  /** The bone id (`weighted_joint.id`). */
  readonly id: string;
  /** URI of the bone node. */
  readonly node: string;
  /** JSON pointer of `node`, for messages. */
  readonly path: string;
}

/** Per-vertex skin weights: `INFLUENCES` slots per vertex; joint -1 marks an empty slot. */
export interface SkinWeights {
  readonly joints: readonly SkinJoint[];
  /** Index into `joints` per slot. */
  readonly slotJoint: Int32Array;
  /** Weight per slot; a vertex's weights sum to 1, or are all 0 when it had none. */
  readonly slotWeight: Float32Array;
  /** Weights left out for naming a vertex past the geometry, and the JSON path of the first. */
  readonly outside: { readonly count: number; readonly first: string; readonly vertex: number } | undefined;
}

/** How far past 0..1 a weight may stray by float rounding before it is named. */
const WEIGHT_NOISE = 1e-5;

/** Int32Array's largest index: a weight's vertex is read up to it, then checked against the geometry. */
const MAX_INDEX = 2 ** 31 - 1;

/**
 * Decodes a modifier's `skin` object for a geometry of `vertexCount` vertices. Joints use their
 * `node_weights` (general weight map); TriAx-only joints fall back to the largest of their
 * `local_weights` axes, then to `scale_weights`. A weight naming a vertex past the geometry is left
 * out and counted in `outside`: Daz Studio loads such bindings (old content, converters), and
 * Blender's vertex groups, which Diffeomorphic fills from them, ignore such indices.
 *
 * @example
 * ```ts
 * const skin = decodeSkin(modifier.skin, "/modifier_library/0/skin", read, geometry.vertexCount);
 * ```
 */
export function decodeSkin(
  value: JsonRecord,
  path: string,
  read: JsonReader,
  vertexCount: number,
): SkinWeights {
  const slotJoint = new Int32Array(vertexCount * INFLUENCES).fill(-1);
  const slotWeight = new Float32Array(vertexCount * INFLUENCES);
  const joints: SkinJoint[] = [];
  let outside: { count: number; first: string; vertex: number } | undefined;
  const range: OutOfRange = { count: 0 };
  read.optArray(value.joints, `${path}/joints`).forEach((item, j) => {
    const at = `${path}/joints/${j}`;
    const joint = read.object(item, at);
    const id = read.optString(joint.id, `${at}/id`) ?? "";
    const node = read.optString(joint.node, `${at}/node`) ?? `#${id}`;
    joints.push({ id, node, path: `${at}/node` });
    const weights = jointWeights(joint, at, read, range);
    for (let k = 0; k < weights.index.length; k++) {
      const vertex = weights.index[k];
      if (vertex >= vertexCount) {
        if (outside) outside.count++;
        else outside = { count: 1, first: `${weights.path(k)}/0`, vertex };
        continue;
      }
      const w = weights.value[k];
      if (!(w > 0)) continue;
      insertWeight(slotJoint, slotWeight, vertex, j, w);
    }
  });
  if (range.first) {
    const { first } = range;
    read.repair(
      path,
      `${range.count} skin weight${
        range.count === 1 ? "" : "s"
      } outside 0..1 (the first, ${first.written} at ` +
        `${first.path}, read as ${first.used}): negative and unreadable ones are dropped, those above 1 ` +
        `read as 1, as Blender's vertex groups (which Diffeomorphic fills from them) hold weights; each ` +
        `vertex's weights are then scaled to sum to 1`,
    );
  }
  for (let v = 0; v < vertexCount; v++) {
    let sum = 0;
    for (let s = 0; s < INFLUENCES; s++) sum += slotWeight[v * INFLUENCES + s];
    if (sum > 0) { for (let s = 0; s < INFLUENCES; s++) slotWeight[v * INFLUENCES + s] /= sum; }
  }
  return { joints, slotJoint, slotWeight, outside };
}

/** A joint's weights; `path(k)` is the JSON pointer of weight `k` (for the first left out). */
interface JointWeights {
  index: Int32Array;
  value: Float64Array;
  path(k: number): string;
}

function jointWeights(joint: JsonRecord, at: string, read: JsonReader, range: OutOfRange): JointWeights {
  const map = (key: string, value: unknown): JointWeights => {
    const { items, path: base } = read.values(value, `${at}/${key}`);
    const index = new Int32Array(items.length);
    const weights = new Float64Array(items.length);
    for (let k = 0; k < items.length; k++) {
      const item = items[k];
      if (!Array.isArray(item) || item.length < 2) read.fail(`${base}/${k}`, "[index, value]", item);
      index[k] = read.integer(item[0], `${base}/${k}/0`, 0, MAX_INDEX - 1);
      weights[k] = weightInRange(item[1], `${base}/${k}/1`, read, range);
    }
    return { index, value: weights, path: (k) => `${base}/${k}` };
  };
  if (joint.node_weights !== undefined) return map("node_weights", joint.node_weights);
  const local = read.optObject(joint.local_weights, `${at}/local_weights`);
  if (local) {
    const best = new Map<number, number>();
    const paths = new Map<number, string>();
    for (const axis of ["x", "y", "z"]) {
      if (local[axis] === undefined) continue;
      const axisWeights = map(`local_weights/${axis}`, local[axis]);
      const { index, value } = axisWeights;
      for (let k = 0; k < index.length; k++) {
        best.set(index[k], Math.max(best.get(index[k]) ?? 0, value[k]));
        if (!paths.has(index[k])) paths.set(index[k], axisWeights.path(k));
      }
    }
    const index = Int32Array.from([...best.keys()].sort((a, b) => a - b));
    return { index, value: Float64Array.from(index, (i) => best.get(i)!), path: (k) => paths.get(index[k])! };
  }
  if (joint.scale_weights !== undefined) return map("scale_weights", joint.scale_weights);
  return { index: new Int32Array(0), value: new Float64Array(0), path: () => at };
}

/** Puts a weight into a vertex's slots, replacing the weakest when all are taken. */
function insertWeight(
  slotJoint: Int32Array,
  slotWeight: Float32Array,
  vertex: number,
  joint: number,
  w: number,
): void {
  const base = vertex * INFLUENCES;
  let weakest = base;
  for (let s = base; s < base + INFLUENCES; s++) {
    if (slotJoint[s] === joint) {
      slotWeight[s] += w;
      return;
    }
    if (slotJoint[s] === -1) {
      slotJoint[s] = joint;
      slotWeight[s] = w;
      return;
    }
    if (slotWeight[s] < slotWeight[weakest]) weakest = s;
  }
  if (w > slotWeight[weakest]) {
    slotJoint[weakest] = joint;
    slotWeight[weakest] = w;
  }
}

/** Weights of one binding read other than as written, and the first of them. */
interface OutOfRange {
  count: number;
  first?: { path: string; written: string; used: number };
}

/**
 * A skin weight clamped to 0..1. Daz paints weights as 0–100 %; a negative one, `null` (Qt's JSON
 * writer stores NaN so) or a non-finite one (`1e999` parses to Infinity) is dropped (read as 0) and
 * one above 1 is read as 1, each counted in `range`. Before, 1e15 took the whole vertex silently
 * and Infinity was a DecodeError for the scene. Anything else that is not a number stays an error.
 */
function weightInRange(value: unknown, path: string, read: JsonReader, range: OutOfRange): number {
  const finite = typeof value === "number" && Number.isFinite(value);
  if (finite && value >= 0 && value <= 1) return value;
  // Rounding noise of a normalised map (1.0000001, -1e-9) is no damage: clamped without a word.
  if (finite && value > -WEIGHT_NOISE && value < 1 + WEIGHT_NOISE) return Math.min(Math.max(value, 0), 1);
  if (value !== null && typeof value !== "number") read.number(value, path);
  const used = finite && value > 1 ? 1 : 0;
  range.count++;
  range.first ??= { path, written: value === null ? "null" : String(value), used };
  return used;
}
