/**
 * Poses conforming figures as their targets (found by `conform_match.ts`): each following node gets
 * the world transform that moves it as its target node moves from rest,
 * `world = target_world · target_rest⁻¹ · own_rest`, so its skinning matrix (world · inverse bind)
 * is the target's and a sleeve bound to the item's arm bone deforms as the body's arm does, also
 * where the item's joint centres differ a little from the body's. When the rest frames agree (an item
 * rigged from its figure, as Daz's Transfer Utility does) that is the target's pose channels on the
 * item's bones, as Diffeomorphic's importer poses a clothing rig. The local transform is
 * `parent_world⁻¹ · world`, in float64; an item bone without a match keeps its transform under its
 * parent, so it rides the nearest matched ancestor. `dson.apply_preset` re-derives the same world for
 * every node that records `follows` once a preset has posed the targets (`preset_conform.ts`).
 *
 * @module
 */
import { type mat4, MathUtils, type Node, type vec3, type vec4 } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { Conformer, SceneNode } from "./model.ts";
import { IDENTITY, invert, multiply, snapToOne } from "./matrix64.ts";

/**
 * How far a recomposed local matrix may stray from the exact one (relative to its largest entry)
 * before it counts as not a TRS (a shear from a non-uniform scale above a turned node).
 */
const TRS_TOLERANCE = 1e-6;

/** What following needs of a DSON node: its key and its rest frame. */
export type FollowFrame = Pick<SceneNode, "key" | "centerPoint" | "orientation">;

/** What {@link followConformTargets} works on. */
export interface ConformBuild {
  /** The glTF node of each DSON node. */
  readonly nodes: readonly Node[];
  readonly dsonNodes: readonly FollowFrame[];
  /** Rest world matrix of each DSON node (metres). */
  readonly rest: readonly ArrayLike<number>[];
}

/**
 * Moves every conformer's following nodes with their targets (see the module doc) and records on
 * each `extras.partgraph.dson.follows` (the target node's key). A node that would need a shear (a
 * non-uniform scale above it) or whose parent is scaled to nothing keeps its transform: one warning
 * per conformer names them.
 *
 * @example
 * ```ts
 * followConformTargets({ nodes, dsonNodes: dson.nodes, rest }, dson.conformers, warn);
 * ```
 */
export function followConformTargets(
  build: ConformBuild,
  conformers: readonly Conformer[],
  warn: WarningSink,
): void {
  const { dsonNodes } = build;
  for (const conformer of conformers) {
    const stuck: string[] = [];
    for (const [f, t] of conformer.pairs) if (!followTarget(build, f, t)) stuck.push(dsonNodes[f].key);
    if (stuck.length) {
      warn(
        `dson: conforming figure '${dsonNodes[conformer.figure].key}' follows '${
          dsonNodes[conformer.target].key
        }', but ${stuck.length} of its nodes cannot (a non-uniform scale above them would need a shear a glTF ` +
          `node cannot hold, or a parent scaled to nothing) and keep their own pose: ${quote(stuck)}`,
      );
    }
  }
}

/**
 * Gives node `f` the world transform that moves it as node `t` moves from rest (its parent's world
 * as it is now) and records `extras.partgraph.dson.follows` (`t`'s key); false, leaving it as it was,
 * when its local transform would need a shear or its parent is scaled to nothing.
 *
 * @example
 * ```ts
 * if (!followTarget({ nodes, dsonNodes, rest }, sleeveBone, bodyBone)) stuck.push(dsonNodes[sleeveBone].key);
 * ```
 */
export function followTarget(build: ConformBuild, f: number, t: number): boolean {
  const { nodes, dsonNodes } = build;
  const world = followingWorld(build, f, t);
  const parent = nodes[f].getParentNode();
  const parentInverse = parent ? invert(parent.getWorldMatrix()) : IDENTITY;
  const local = parentInverse && multiply(parentInverse, world);
  const trs = local && decomposeExactly(local);
  if (!trs) return false;
  nodes[f].setTranslation(trs.t).setRotation(trs.r).setScale(trs.s.map(snapToOne) as vec3);
  // Its scale is its target's now: a fit to an uneven scale above it (scale_composition.ts) no longer holds.
  const { scale_fit: _fit, ...record } = (getPartgraphExtras(nodes[f]).dson ?? {}) as Record<string, never>;
  setPartgraphExtras(nodes[f], { dson: { ...record, follows: dsonNodes[t].key } });
  return true;
}

/**
 * The world matrix follower `f` takes from target `t`: the target's world, and where their rest
 * frames differ, the offset between them carried along (`target_world · target_rest⁻¹ · own_rest`).
 */
function followingWorld(build: ConformBuild, f: number, t: number): mat4 {
  const { nodes, dsonNodes, rest } = build;
  const targetWorld = nodes[t].getWorldMatrix();
  // Same frame: the target's world as it is (no float32 round trip through the rest matrices).
  if (sameFrame(dsonNodes[f], dsonNodes[t])) return targetWorld;
  const restInverse = invert(Array.from(rest[t]) as unknown as mat4) ?? IDENTITY;
  return multiply(multiply(targetWorld, restInverse), Array.from(rest[f]) as unknown as mat4);
}

/** Whether two nodes rest at the same centre point with the same orientation. */
function sameFrame(a: FollowFrame, b: FollowFrame): boolean {
  return a.centerPoint.every((v, k) => v === b.centerPoint[k]) &&
    a.orientation.every((v, k) => v === b.orientation[k]);
}

/** A matrix's translation, rotation and scale, or undefined when they do not make it (a shear). */
function decomposeExactly(local: mat4): { t: vec3; r: vec4; s: vec3 } | undefined {
  const t = [0, 0, 0] as vec3, r = [0, 0, 0, 1] as vec4, s = [1, 1, 1] as vec3;
  MathUtils.decompose(local, t, r, s);
  const recomposed = MathUtils.compose(t, r, s, new Array(16).fill(0) as unknown as mat4);
  const size = Math.max(1, ...Array.from(local, Math.abs));
  if (recomposed.some((v, k) => Math.abs(v - local[k]) > TRS_TOLERANCE * size)) return undefined;
  return { t, r, s };
}

/** The first three keys quoted, and how many more. */
function quote(keys: readonly string[]): string {
  const shown = keys.slice(0, 3).map((k) => `'${k}'`).join(", ");
  return keys.length > 3 ? `${shown} and ${keys.length - 3} more` : shown;
}
