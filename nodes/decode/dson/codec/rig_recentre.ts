/**
 * Moving a decoded figure's joints to a new body shape: the joint centres, end points and
 * orientations `decode.dson` worked out from the shape's ERC formulas (`rig_formulas.ts`, kept as
 * each mesh's `rig_centres`) evaluated again at new dials, as Daz moves them when a shape preset
 * changes a dial or a shape is baked. A moved joint gets its new rest frame in its record, the
 * local transform that keeps its pose channels about the new centre (and its children theirs), and
 * the inverse bind matrix of its new rest frame in every skin binding it, so the scene is what the
 * decode gives a file saved at those dials. Used by `preset_rig.ts` and `bake.ts`.
 *
 * @module
 */
import type { Accessor, Document, Mesh, Node } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { StoredChannel } from "./formula_graph.ts";
import { readFormulaGraph } from "./formula_graph_read.ts";
import { rigCentresJson } from "./formula_json.ts";
import type { TcbSpan } from "./formula_spline.ts";
import { followsTarget } from "./preset_conform.ts";
import { currentPose, dsonKey, type NodeRecord, nodeTrs, record } from "./preset_pose.ts";
import { invertRest, poseTransform, restWorld } from "./rest_pose.ts";
import { type RIG_FIELDS, rigChannelValue } from "./rig_formulas.ts";
import type { Vec3 } from "./rigid_fit.ts";

/** The DSON record fields of a rest frame, by the channel's property. */
const RECORD_FIELDS = {
  center_point: "center_point",
  end_point: "end_point",
  orientation: "orientation",
} as const;

/** What {@link recentreJoints} did and could not do. */
export interface RecentreResult {
  /** Joints given a new rest frame. */
  readonly moved: number;
  /** Channels (`mesh/node kind/axis`) whose formulas cannot be evaluated at the new values: kept. */
  readonly unknown: readonly string[];
  /**
   * Rigid followers riding a moved joint: left in the joint's old frame here, for `follower_refit.ts`
   * to refit to their reference vertices.
   */
  readonly riders: readonly string[];
  /** Skins whose inverse bind of a moved joint is not its rest frame's (blended followers): kept. */
  readonly unbound: readonly string[];
  /** Channels (`mesh/node kind/axis`) whose `spline_tcb` met a value between its keys. */
  readonly offKeys: readonly string[];
}

/** A mesh's `rig_centres` read back (anyone may have edited extras); undefined when it is not one. */
export function readRigCentres(mesh: Mesh): Record<string, StoredChannel> | undefined {
  const value = (getPartgraphExtras(mesh).dson as { rig_centres?: JsonValue } | undefined)?.rig_centres;
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  return readFormulaGraph({ channels: value, bones: {}, morphs: [] })?.channels;
}

/**
 * Evaluates the `rig_centres` of `meshes` at the modifier values `valueOf` gives (by mesh and
 * modifier id; undefined: not known) and moves the joints whose rest frame changes (see the module
 * doc). A joint an earlier mesh's formulas moved is left to that mesh, as the decode leaves it. The
 * values read are kept as each mesh's `rig_dials`. Conforming items' nodes (`follows`) are not
 * touched: the caller has them follow their targets again.
 *
 * @example
 * ```ts
 * recentreJoints(doc, doc.getRoot().listMeshes(), (mesh, id) => id === "FBMHeavy" ? 1 : undefined);
 * ```
 */
export function recentreJoints(
  doc: Document,
  meshes: readonly Mesh[],
  valueOf: (mesh: Mesh, id: string) => number | undefined,
): RecentreResult {
  const byKey = new Map<string, Node>();
  for (const node of doc.getRoot().listNodes()) {
    const key = dsonKey(node);
    if (key !== undefined && !byKey.has(key) && record(node)) byKey.set(key, node);
  }
  const frames = new Map<Node, NodeRecord & { end_point?: Vec3 }>(); // the new records
  const claimed = new Map<Node, Mesh>();
  const unknown: string[] = [], offKeys: string[] = [];
  for (const mesh of meshes) {
    const channels = readRigCentres(mesh);
    if (!channels) continue;
    const dials: Record<string, number> = {};
    const read = (id: string) => {
      const value = valueOf(mesh, id);
      if (value !== undefined) dials[id] = value;
      return value;
    };
    for (const [key, channel] of Object.entries(channels)) {
      const match = /^(.*)\?(center_point|end_point|orientation)\/([xyz])$/.exec(key);
      const node = match ? byKey.get(match[1]) : undefined;
      if (!match || !node || followsTarget(node) || (claimed.get(node) ?? mesh) !== mesh) continue;
      claimed.set(node, mesh);
      const name = `${mesh.getName()}/${match[1]} ${match[2]}/${match[3]}`;
      let span: TcbSpan | undefined;
      const value = rigChannelValue(channel, read, (s) => span ??= s);
      if (span) offKeys.push(name);
      if (value === undefined) {
        unknown.push(name);
        continue;
      }
      const own = record(node)! as NodeRecord & { end_point?: Vec3 };
      const frame = frames.get(node) ??
        { ...own, center_point: [...own.center_point], orientation: [...own.orientation] };
      const field = RECORD_FIELDS[match[2] as keyof typeof RIG_FIELDS];
      if (field === "end_point") frame.end_point ??= [...(own.end_point ?? [0, 0, 0])] as Vec3;
      frame[field]!["xyz".indexOf(match[3])] = value;
      frames.set(node, frame);
    }
    const dson = getPartgraphExtras(mesh).dson as { [key: string]: JsonValue };
    if (Object.keys(dials).length) setPartgraphExtras(mesh, { dson: { ...dson, rig_dials: dials } });
  }
  // Only the joints whose rest frame changes.
  for (const [node, frame] of frames) {
    const own = record(node)! as NodeRecord & { end_point?: Vec3 };
    const same = (a?: readonly number[], b?: readonly number[]) => !a || !b || a.every((v, k) => v === b[k]);
    if (
      same(frame.center_point, own.center_point) && same(frame.orientation, own.orientation) &&
      same(frame.end_point, own.end_point)
    ) frames.delete(node);
  }
  const riders: string[] = [], unbound: string[] = [];
  if (frames.size) {
    // The binds first: both read the old records, which placing them again replaces.
    bindAgain(doc, frames, unbound);
    placeAgain(frames, riders);
  }
  return { moved: frames.size, unknown, riders, unbound, offKeys };
}

/**
 * Gives each moved joint, and each child of one, the local transform of its pose channels about the
 * new rest frames (the pose read with the old ones), then writes the new records.
 */
function placeAgain(frames: ReadonlyMap<Node, NodeRecord>, riders: string[]): void {
  const frameOf = (node: Node | null) => {
    if (!node) return undefined;
    const r = frames.get(node) ?? record(node);
    return r && { centerPoint: r.center_point, orientation: r.orientation };
  };
  const oldFrameOf = (node: Node | null) => {
    const r = node && record(node);
    return r ? { centerPoint: r.center_point, orientation: r.orientation } : undefined;
  };
  const touched = new Set<Node>(frames.keys());
  for (const node of frames.keys()) {
    for (const child of node.listChildren()) if (record(child)) touched.add(child);
  }
  const placed: [Node, ReturnType<typeof poseTransform>, boolean][] = [];
  for (const node of touched) {
    const follow = (getPartgraphExtras(node).dson as { rigid_follow?: unknown } | undefined)?.rigid_follow;
    if (follow !== undefined) {
      // Posed in its written parent's frame through an offset the decode worked out at the old centres.
      riders.push(node.getName());
      continue;
    }
    if (followsTarget(node)) continue; // follows its target again afterwards
    const parent = node.getParentNode();
    const pose = currentPose(nodeTrs(node), record(node)!, oldFrameOf(parent));
    const own = frameOf(node)!;
    const local = poseTransform({ ...pose, ...own }, frameOf(parent));
    // A rotation read back and set again only where an orientation changed (it is float32 there).
    const turned = [node, parent].some((n) => {
      const a = n && frames.get(n), b = n && record(n);
      return !!a && !!b && a.orientation.some((v, k) => v !== b.orientation[k]);
    });
    placed.push([node, local, turned]);
  }
  for (const [node, local, turned] of placed) {
    node.setTranslation(local.translation);
    if (turned) node.setRotation(local.rotation);
  }
  for (const [node, frame] of frames) {
    const dson = getPartgraphExtras(node).dson as { [key: string]: JsonValue };
    const moved: { [key: string]: JsonValue } = {
      ...dson,
      center_point: [...frame.center_point],
      orientation: [...frame.orientation],
    };
    const end = (frame as { end_point?: Vec3 }).end_point;
    if (end) moved.end_point = [...end];
    setPartgraphExtras(node, { dson: moved });
  }
}

/**
 * Sets the inverse bind matrix of each moved joint, in every skin binding it, to its new rest
 * frame's, in a new array (the old one may be shared with other scenes). A skin whose inverse bind
 * of the joint is not its old rest frame's (a mesh skinned to a rigid follower's blend) is kept and
 * named in `unbound`.
 */
function bindAgain(doc: Document, frames: ReadonlyMap<Node, NodeRecord>, unbound: string[]): void {
  const arrays = new Map<Accessor, Float32Array<ArrayBuffer>>();
  for (const skin of doc.getRoot().listSkins()) {
    const accessor = skin.getInverseBindMatrices();
    // A rigid follower's blend-skinned mesh is refitted with its follower (`follower_refit.ts`).
    if (!accessor || skin.listParents().some((p) => p.propertyType === "Node" && followerMesh(p as Node))) {
      continue;
    }
    skin.listJoints().forEach((joint, j) => {
      const frame = frames.get(joint);
      if (!frame) return;
      const before = record(joint)!;
      const old = invertRest(
        restWorld({ centerPoint: before.center_point, orientation: before.orientation }),
      );
      const array = arrays.get(accessor) ?? new Float32Array(accessor.getArray() ?? []);
      arrays.set(accessor, array);
      const stored = array.subarray(j * 16, j * 16 + 16);
      if (
        stored.length < 16 || stored.some((v, k) => Math.abs(v - old[k]) > 1e-6 * Math.max(1, Math.abs(v)))
      ) {
        unbound.push(`${skin.getName()}/${joint.getName()}`);
        return;
      }
      stored.set(invertRest(restWorld({ centerPoint: frame.center_point, orientation: frame.orientation })));
    });
  }
  for (const [accessor, array] of arrays) accessor.setArray(array);
}

/** A rigid follower's blend-skinned mesh node (`follow_skin.ts`). */
function followerMesh(node: Node): boolean {
  return (getPartgraphExtras(node).dson as { rigid_follow_mesh?: unknown } | undefined)?.rigid_follow_mesh !==
    undefined;
}

/**
 * `rig_centres` of `mesh` with modifier `id` read as the constant `value` (a shape baked into the
 * mesh at that weight no longer has a dial), and `id` out of its `rig_dials`.
 *
 * @example
 * ```ts
 * fixRigDial(mesh, "FBMHeavy", 1);
 * ```
 */
export function fixRigDial(mesh: Mesh, id: string, value: number): void {
  const channels = readRigCentres(mesh);
  if (!channels) return;
  for (const channel of Object.values(channels)) {
    for (const formula of channel.formulas ?? []) {
      formula.ops = formula.ops.map((op) =>
        typeof op === "object" && !Array.isArray(op) && "value" in op && op.value === id ? value : op
      );
    }
  }
  const dson = getPartgraphExtras(mesh).dson as { [key: string]: JsonValue };
  const dials = { ...(dson.rig_dials as Record<string, JsonValue> | undefined) };
  delete dials[id];
  setPartgraphExtras(mesh, { dson: { ...dson, rig_centres: rigCentresJson(channels), rig_dials: dials } });
}
