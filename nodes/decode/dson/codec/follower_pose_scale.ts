/**
 * Rigid followers whose `rigidity_group` asks for no stretch (`scale_modes` all `none`: what Daz writes
 * on most rigid follow nodes, and how unsaid modes are read) riding a joint that the scene's pose
 * scales (a forearm dialled to "X Scale 120%", a hand scaled down). The decode refits a follower at
 * rest and lets the pose carry it as a child of its joint (`follow_rest.ts`: morphs → rigidity refit at
 * rest → skinning by the pose), so a glTF viewer stretches it with the joint as the skin under it
 * stretches. docs/dson.md also reads Daz as moving a follower "by the rigid transform fitted to its
 * reference vertices as they deform" (the reading `rigid_blend_test` judges poses by): fitted to the
 * posed reference vertices, `scale_modes: none` keeps the follower its own size, wherever it moves.
 * Neither the DSON spec nor the format notes say which Daz does for a bone's scale, and the two differ
 * only there (a turn is the same either way), so the placement is kept and each such follower is named
 * with how far its parts lie apart between the two readings (decode.dson v71, and dson.apply_preset v54
 * for followers on joints a preset poses or scales; before, silently).
 *
 * @module
 */
import type { mat4, Node } from "@gltf-transform/core";
import type { FollowerState } from "./follower_refit.ts";
import { invert, multiply } from "./matrix64.ts";
import { symmetricEigen } from "./rigid_fit.ts";

/**
 * Below this (m, a tenth of a millimetre) the two readings place a follower's parts alike: nearer, a
 * viewer cannot tell them apart.
 */
const APART_M = 1e-4;

/** What {@link poseScaleWarning} needs of a follower, read with every bone at rest. */
export interface RestCarry {
  readonly key: string;
  readonly joint: Node;
  /** The joint's world matrix at rest. */
  readonly jointRest: mat4;
  /**
   * How far (m, world at rest) the follower's parts reach from its reference vertices' centroid: its
   * meshes' vertices (its own and those below it, not another follower's), else its origin.
   */
  readonly reach: number;
}

/** `m` (column-major) applied to the point `p`. */
function apply(m: mat4, p: readonly number[]): number[] {
  return [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
}

/**
 * The followers of `states` whose modes stretch nothing, each with its joint's rest world and how far
 * its parts reach from their reference vertices (read as the scene stands: the decode calls it with
 * every bone at rest, a preset after posing, where a stretched part reaches a little farther).
 *
 * @example
 * ```ts
 * atRest(nodes, dsonNodes, keep, () => { carries = restCarries(followerStates(doc, true).states); });
 * ```
 */
export function restCarries(states: readonly FollowerState[]): RestCarry[] {
  const followers = new Set(states.map((s) => s.node));
  const out: RestCarry[] = [];
  for (const state of states) {
    if (state.modes.scaleModes.some((m) => m !== "none")) continue;
    const joint = state.node.getParentNode();
    const toJoint = joint && state.frames.get(joint);
    if (!joint || !toJoint || state.vertices.length === 0) continue;
    // The joint's world with the bones at rest, the figure's own transform kept (it carries a follower
    // by hierarchy in either reading): the figure's (the top node's) world after the joint's bind, as
    // the skin binds mesh space at rest (the same as the decode's rest pose gives, within the float32
    // of the inverse binds), so a preset reads it as the decode does.
    let top = joint;
    for (let up = top.getParentNode(); up; up = up.getParentNode()) top = up;
    const bind = invert(toJoint);
    if (!bind) continue;
    const meshToWorld = [...top.getWorldMatrix()] as unknown as mat4;
    const jointRest = multiply(meshToWorld, bind);
    const sum = [0, 0, 0];
    const n = state.vertices.length;
    for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) sum[c] += state.points[i * 3 + c] / n;
    const centre = apply(meshToWorld, sum);
    let reach = 0, drawn = false;
    const visit = (node: Node) => {
      const mesh = node.getMesh();
      if (mesh && !node.getSkin()) {
        const world = node.getWorldMatrix();
        for (const primitive of mesh.listPrimitives()) {
          const position = primitive.getAttribute("POSITION");
          const array = position?.getArray();
          if (!array) continue;
          drawn = true;
          for (let i = 0; i < array.length; i += 3) {
            const p = apply(world, [array[i], array[i + 1], array[i + 2]]);
            reach = Math.max(reach, Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]));
          }
        }
      }
      for (const child of node.listChildren()) if (!followers.has(child)) visit(child);
    };
    visit(state.node);
    if (!drawn) {
      const origin = apply(state.node.getWorldMatrix(), [0, 0, 0]);
      reach = Math.hypot(origin[0] - centre[0], origin[1] - centre[1], origin[2] - centre[2]);
    }
    out.push({ key: state.key, joint, jointRest, reach });
  }
  return out;
}

/**
 * The warning naming each of `carries` whose joint the pose now scales so far that carried as its
 * child (stretched with it) and fitted rigidly (its own size) its parts lie over {@link APART_M}
 * apart; undefined when none does. `prefix` starts it (`dson`, `dson preset`).
 *
 * @example
 * ```ts
 * const message = poseScaleWarning(carries, "dson");
 * if (message) warn(message);
 * ```
 */
export function poseScaleWarning(carries: readonly RestCarry[], prefix: string): string | undefined {
  const found: { key: string; joint: string; stretch: number[]; apart: number }[] = [];
  for (const carry of carries) {
    const inverse = invert(carry.jointRest);
    if (!inverse) continue;
    const c = multiply(carry.joint.getWorldMatrix(), inverse);
    // The carry's stretches: the singular values of its linear part (roots of the eigenvalues of CᵀC).
    const ctc = new Float64Array(9);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        for (let k = 0; k < 3; k++) ctc[i * 3 + j] += c[i * 4 + k] * c[j * 4 + k];
      }
    }
    const stretch = symmetricEigen(ctc, 3).values.map((v) => Math.sqrt(Math.max(v, 0))).sort((a, b) => b - a);
    const apart = Math.max(...stretch.map((s) => Math.abs(s - 1))) * carry.reach;
    if (apart > APART_M) found.push({ key: carry.key, joint: carry.joint.getName(), stretch, apart });
  }
  if (!found.length) return undefined;
  const first = found.slice(0, 3).map((f) =>
    `'${f.key}' on '${f.joint}' (stretched ${
      f.stretch.map((s) => +s.toFixed(3)).join(", ")
    }; up to ${+(f.apart * 100).toPrecision(2)} cm apart)`
  );
  return `${prefix}: ${found.length} rigid follower(s) whose scale_modes are all 'none' ride a joint the pose ` +
    "scales: they are carried as children of the joint, stretched with it as the skin under them is; fitted " +
    "to their posed reference vertices, as Daz moves a follower by the rigid fit of its reference vertices as " +
    "they deform, scale_modes 'none' would keep them their own size. Daz's documentation does not say which " +
    `it does for a bone's scale; they are drawn stretched: ${first.join("; ")}${
      found.length > 3 ? `; and ${found.slice(3).map((f) => `'${f.key}'`).join(", ")}` : ""
    }`;
}
