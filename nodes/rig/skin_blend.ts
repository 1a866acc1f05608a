/**
 * The skinning arithmetic the skinned gatherings share: each joint's skinning matrix in a frame, a
 * primitive's JOINTS_n/WEIGHTS_n influences as flat arrays, its active morph targets, and a vertex
 * blended where its joints draw it (Σ wᵢ·Sᵢ·v).
 *
 * @module
 */
import type { Accessor, Primitive, Skin } from "@gltf-transform/core";
import { IDENTITY, type Mat4, multiply } from "./transform.ts";

/** `frame × jointWorld × inverseBind` for every joint of a skin, 16 numbers each. */
export function jointMatrices(skin: Skin, frame: Mat4): Float64Array {
  const joints = skin.listJoints();
  const inverseBind = skin.getInverseBindMatrices();
  const usable = inverseBind && inverseBind.getType() === "MAT4" && inverseBind.getCount() >= joints.length;
  const out = new Float64Array(joints.length * 16);
  const element = new Array<number>(16).fill(0);
  joints.forEach((joint, j) => {
    const ibm = usable ? inverseBind.getElement(j, element) : IDENTITY;
    out.set(multiply(frame, multiply(joint.getWorldMatrix(), ibm)), j * 16);
  });
  return out;
}

/** One JOINTS_n/WEIGHTS_n pair as flat arrays, four influences per vertex. */
export interface InfluenceSet {
  readonly joints: ArrayLike<number>;
  readonly weights: ArrayLike<number>;
}

/**
 * The JOINTS_n/WEIGHTS_n pairs of a primitive that match its vertex count, as flat arrays: the
 * accessors' own arrays when they hold plain values, else decoded once (normalized weights).
 */
export function influenceSets(primitive: Primitive, count: number): InfluenceSet[] {
  const sets: InfluenceSet[] = [];
  for (let n = 0;; n++) {
    const joints = primitive.getAttribute(`JOINTS_${n}`);
    const weights = primitive.getAttribute(`WEIGHTS_${n}`);
    if (!joints || !weights) break;
    if (joints.getCount() !== count || weights.getCount() !== count) continue;
    if (joints.getType() !== "VEC4" || weights.getType() !== "VEC4") continue;
    sets.push({ joints: flatVec4(joints, count), weights: flatVec4(weights, count) });
  }
  return sets;
}

function flatVec4(accessor: Accessor, count: number): ArrayLike<number> {
  const array = accessor.getArray();
  if (array && !accessor.getNormalized() && array.length >= count * 4) return array;
  const out = new Float64Array(count * 4);
  const element = [0, 0, 0, 0];
  for (let i = 0; i < count; i++) out.set(accessor.getElement(i, element), i * 4);
  return out;
}

/** The primitive's morph targets that move its positions at `weights` (a weight per target). */
export function activeMorphs(
  primitive: Primitive,
  weights: readonly number[],
  count: number,
): { delta: Accessor; weight: number }[] {
  const morphs: { delta: Accessor; weight: number }[] = [];
  primitive.listTargets().forEach((target, t) => {
    const delta = target.getAttribute("POSITION");
    const weight = weights[t] ?? 0;
    if (delta && weight !== 0 && delta.getCount() === count) morphs.push({ delta, weight });
  });
  return morphs;
}

/** Adds vertex `i`'s morph displacements to `p` (`d` is scratch). */
export function addMorphs(
  p: number[],
  morphs: readonly { delta: Accessor; weight: number }[],
  i: number,
  d: number[],
) {
  for (const { delta, weight } of morphs) {
    delta.getElement(i, d);
    p[0] += weight * d[0];
    p[1] += weight * d[1];
    p[2] += weight * d[2];
  }
}

/**
 * Writes Σ (perJoint[j] / sum) · S_j · p over the `touched` joints into `out` at `at`: the vertex
 * where its joints draw it (`s` holds each joint's skinning matrix, column-major, 16 per joint).
 */
export function blendSkinned(
  p: readonly number[],
  touched: readonly number[],
  perJoint: Float64Array,
  sum: number,
  s: Float64Array,
  out: Float64Array,
  at: number,
): void {
  let x = 0, y = 0, z = 0;
  for (const j of touched) {
    const w = perJoint[j] / sum, m = j * 16;
    x += w * (s[m] * p[0] + s[m + 4] * p[1] + s[m + 8] * p[2] + s[m + 12]);
    y += w * (s[m + 1] * p[0] + s[m + 5] * p[1] + s[m + 9] * p[2] + s[m + 13]);
    z += w * (s[m + 2] * p[0] + s[m + 6] * p[1] + s[m + 10] * p[2] + s[m + 14]);
  }
  out[at] = x;
  out[at + 1] = y;
  out[at + 2] = z;
}
