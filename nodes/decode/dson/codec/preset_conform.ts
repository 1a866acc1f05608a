/**
 * Conforming items after a preset: `decode.dson` gave each node of a fitted item (clothing, hair)
 * that follows a target node the world transform `target_world · target_rest⁻¹ · own_rest` and
 * recorded the target in `extras.partgraph.dson.follows` (`conform_follow.ts`). A preset poses the
 * targets, so every such node is given that transform again from the targets' new pose, by the same
 * {@link followTarget}: the item deforms with the body exactly as a decode of the posed file gives,
 * also where its joint centres sit off the body's and where it hangs at the scene root.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { type FollowFrame, followTarget } from "./conform_follow.ts";
import { restWorld } from "./rest_pose.ts";
import type { Vec3 } from "./rigid_fit.ts";

/** A node's DSON record, as far as following reads it. */
interface FollowRecord {
  key?: unknown;
  center_point?: unknown;
  orientation?: unknown;
  follows?: unknown;
}

/**
 * Whether `node` follows a target (`extras.partgraph.dson.follows`): a preset does not pose it
 * directly, since {@link followTargetsAgain} gives it its target's movement.
 *
 * @example
 * ```ts
 * const posable = doc.getRoot().listNodes().filter((node) => !followsTarget(node));
 * ```
 */
export function followsTarget(node: Node): boolean {
  return typeof (getPartgraphExtras(node).dson as FollowRecord | undefined)?.follows === "string";
}

/**
 * Re-derives every following node of `doc` from its target's current pose, each after its
 * ancestors and its target (so a cap's hair follows the cap once the cap has followed the head).
 * A `follows` naming no node of the scene or a node without a usable rest frame (extras edited by
 * hand), a loop of such records, and a node that would need a shear keep their transform; one
 * warning names them. Returns how many nodes followed.
 *
 * @example
 * ```ts
 * // … pose the body's joints …
 * followTargetsAgain(doc, warn);
 * ```
 */
export function followTargetsAgain(doc: Document, warn: WarningSink): number {
  const nodes: Node[] = [], frames: FollowFrame[] = [];
  const index = new Map<Node, number>(), byKey = new Map<string, number>();
  for (const node of doc.getRoot().listNodes()) {
    const frame = followFrame(getPartgraphExtras(node).dson as FollowRecord | undefined);
    if (!frame) continue;
    index.set(node, nodes.length);
    if (!byKey.has(frame.key)) byKey.set(frame.key, nodes.length);
    nodes.push(node);
    frames.push(frame);
  }
  const targets = new Map<number, number>();
  const stuck: string[] = [];
  for (const node of doc.getRoot().listNodes()) {
    const follows = (getPartgraphExtras(node).dson as FollowRecord | undefined)?.follows;
    if (typeof follows !== "string") continue;
    const f = index.get(node), t = byKey.get(follows);
    if (f === undefined || t === undefined) stuck.push(node.getName());
    else targets.set(f, t);
  }
  const build = { nodes, dsonNodes: frames, rest: frames.map((frame) => restWorld(frame)) };
  let followed = 0;
  const state = new Map<number, "visiting" | "done">();
  // A node's world depends on its ancestors' and, when it follows, on its target's (and theirs).
  const visit = (f: number): boolean => {
    if (state.get(f) === "done") return true;
    if (state.get(f) === "visiting") return false;
    state.set(f, "visiting");
    const before = [...followingAncestors(nodes[f], index, targets)];
    const t = targets.get(f)!;
    if (targets.has(t)) before.push(t);
    before.push(...followingAncestors(nodes[t], index, targets));
    const ready = before.every(visit);
    state.set(f, "done");
    if (ready && followTarget(build, f, t)) followed++;
    else stuck.push(frames[f].key);
    return ready;
  };
  for (const f of targets.keys()) visit(f);
  if (stuck.length) {
    warn(
      `dson preset: ${stuck.length} node(s) of conforming items cannot follow their target again (it names no ` +
        `node of the scene, a loop of items, or a non-uniform scale above them that a glTF node cannot hold) and ` +
        `keep their transform: ${stuck.slice(0, 8).join(", ")}${stuck.length > 8 ? ", …" : ""}`,
    );
  }
  return followed;
}

/** A DSON record's key and rest frame, or undefined when it lacks a usable one. */
function followFrame(dson: FollowRecord | undefined): FollowFrame | undefined {
  const vec = (v: unknown): v is Vec3 =>
    Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === "number" && Number.isFinite(x));
  if (!dson || typeof dson.key !== "string" || !vec(dson.center_point) || !vec(dson.orientation)) {
    return undefined;
  }
  return { key: dson.key, centerPoint: dson.center_point, orientation: dson.orientation };
}

/** The following nodes above `node`, nearest first. */
function* followingAncestors(
  node: Node,
  index: ReadonlyMap<Node, number>,
  targets: ReadonlyMap<number, number>,
): Generator<number> {
  for (let up = node.getParentNode(); up; up = up.getParentNode()) {
    const i = index.get(up);
    if (i !== undefined && targets.has(i)) yield i;
  }
}
