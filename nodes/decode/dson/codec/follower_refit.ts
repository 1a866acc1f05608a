/**
 * Rigid followers kept where Daz puts them when the surface under them changes shape. Daz places a
 * rigid follower (`studio/node/rigid_follow`) by the rigid transform fitted to its reference
 * vertices as the mesh deforms — morphs included — so a store character's body shape, which moves
 * the surface and the joint centres with it (`rig_formulas.ts`), carries an earring or a ring with
 * the skin under it. The follower rides a joint in glTF (`follow_parent.ts`); when the shape
 * changes, its place in that joint's frame takes the best-fit rotation and translation (Horn's, as
 * `rigidity.ts` fits rigidity groups) of its reference vertices from before to after, on the mesh at
 * rest, and so does the written-parent offset a pose preset reads it by, and the inverse binds of
 * its meshes skinned with a blend of joints (`follow_skin.ts`).
 *
 * Used by `decode.dson` (the base mesh to the file's dials: Daz saves the follower's own channels,
 * not the fit), `dson.apply_preset` (the dials before to after the preset) and `dson.bake_morph`
 * (before to after the bake). Before decode.dson v59, dson.apply_preset v42 and dson.bake_morph v4 a
 * follower stayed where it was, off the moved surface (warned only when its joint moved).
 *
 * @module
 */
import type { Document, mat4, Mesh, Node } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { DSON_VERTEX_ATTRIBUTE } from "./build_primitive.ts";
import { invert, multiply } from "./matrix64.ts";
import { type FollowerModes, recordedModes } from "./follower_modes.ts";
import type { AxisFrame } from "./rigidity.ts";
import { fitChange, type FitFlags, type Surround } from "./follower_fit.ts";
import { spansPlane } from "./rigidity_apply.ts";
import { nearestSurround } from "./surface_turn.ts";
import { meshFrame, namedFrame, nodesByName } from "./follower_frame.ts";
import { setLocal } from "./follower_local.ts";

export { warnSheared, warnStale } from "./follower_warnings.ts";

/** One follower's reference vertices and frames before a change (see {@link followerStates}). */
export interface FollowerState {
  readonly node: Node;
  readonly key: string;
  readonly mesh: Mesh;
  /** The DSON vertices found on the mesh (reference vertices it does not draw are left out). */
  readonly vertices: Int32Array;
  /** Their positions (m, mesh space at rest), xyz by vertex in `vertices` order. */
  readonly points: Float64Array;
  /** Mesh space to each joint's frame at rest: the follower's glTF parent, and its blend meshes' joints. */
  readonly frames: Map<Node, mat4>;
  /** Its group's rotation and scale modes as recorded (turned, unscaled when none are). */
  readonly modes: FollowerModes;
  /** The same vertices on the base mesh (no morphs), which Daz fits a follower from. */
  readonly basePoints: Float64Array;
  /** The axes its group names (`transform_nodes`, `reference`) at rest; absent: principal axes. */
  readonly frame?: AxisFrame;
  /**
   * When its reference vertices span no plane: the mesh's vertices nearest them (DSON ids) and where
   * they are, on the base mesh and now — what records a turn of the surface the references do not.
   */
  readonly surround?: { vertices: Int32Array; base: Float64Array; points: Float64Array };
}

/** What a follower's record reads: the joint's mesh key and the reference vertices. */
interface FollowRecord {
  target?: unknown;
  vertices?: unknown;
  rotation_mode?: unknown;
  scale_modes?: unknown;
  frame?: unknown;
}

/**
 * The followers of `doc` (`extras.partgraph.dson.rigid_follow`) with their reference vertices where
 * the mesh now puts them — `base`: without morphs, as Daz's reference is the base mesh — and their
 * frames; take it before a change and give it to {@link refitFollowers} after. Followers recorded
 * without reference vertices (decoded before decode.dson v59) or whose mesh is gone are `stale`;
 * those whose group names a frame node the scene lacks are `unframed` (key and name; principal axes),
 * with the JSON path of each one's recorded frame in the scene (`framePaths`) and its node
 * (`unframedNodes`).
 *
 * @example
 * ```ts
 * const before = followerStates(doc, false);
 * // … change morph weights, move joints …
 * refitFollowers(doc, before, warn, "dson preset");
 * ```
 */
export function followerStates(
  doc: Document,
  base: boolean,
): {
  states: FollowerState[];
  stale: string[];
  unframed: string[];
  framePaths: string[];
  unframedNodes: Node[];
} {
  const meshes = new Map<string, Mesh>();
  for (const mesh of doc.getRoot().listMeshes()) {
    if (!meshes.has(mesh.getName())) meshes.set(mesh.getName(), mesh);
  }
  const states: FollowerState[] = [],
    stale: string[] = [],
    unframed: string[] = [],
    framePaths: string[] = [],
    unframedNodes: Node[] = [];
  const blendMeshes = followerMeshes(doc);
  let named: Map<string, Node> | undefined; // made once, when a follower names a frame
  for (const [index, node] of doc.getRoot().listNodes().entries()) {
    const dson = getPartgraphExtras(node).dson as { key?: unknown; rigid_follow?: FollowRecord } | undefined;
    const record = dson?.rigid_follow;
    if (!record || !node.getParentNode()) continue;
    const key = typeof dson.key === "string" ? dson.key : node.getName();
    const mesh = typeof record.target === "string" ? meshes.get(record.target) : undefined;
    const written = Array.isArray(record.vertices)
      ? record.vertices.filter(Number.isInteger) as number[]
      : [];
    const found = mesh && written.length ? referencePoints(mesh, written, base) : undefined;
    if (!found) {
      stale.push(key);
      continue;
    }
    const joints = [node.getParentNode()!];
    for (const m of blendMeshes.get(key) ?? []) joints.push(...m.getSkin()!.listJoints());
    const frames = new Map<Node, mat4>();
    for (const joint of joints) {
      const frame = meshFrame(mesh!, joint);
      if (frame) frames.set(joint, frame);
    }
    const modes = recordedModes(record.rotation_mode, record.scale_modes, record.frame);
    const basePoints = base ? found.points : referencePoints(mesh!, [...found.vertices], true)!.points;
    let frame: AxisFrame | undefined;
    if (modes.frame !== undefined) {
      frame = namedFrame(mesh!, modes.frame, named ??= nodesByName(doc));
      if (!frame) {
        unframed.push(`'${key}' ('${modes.frame}')`);
        framePaths.push(`/nodes/${index}/extras/partgraph/dson/rigid_follow/frame`);
        unframedNodes.push(node);
      }
    }
    const surround = spansPlane(basePoints, Int32Array.from(found.vertices, (_, k) => k))
      ? undefined
      : surroundOf(mesh!, found.vertices, base);
    states.push({
      node,
      key,
      mesh: mesh!,
      ...found,
      frames,
      modes,
      basePoints,
      ...(frame ? { frame } : {}),
      ...(surround ? { surround } : {}),
    });
  }
  return { states, stale, unframed, framePaths, unframedNodes };
}

/**
 * Moves each follower of `before` by the rigid fit of its reference vertices from where they were to
 * where the mesh puts them now (with its current morph weights), in the frame of the joint it rides
 * (the joint's rest frame may have moved meanwhile): its local transform, its `parent_offset`, and
 * the inverse binds of its blend-skinned meshes. A follower whose vertices and frames did not change
 * keeps its bytes. Returns how many moved. A follower its `scale_modes` scale along axes other than
 * its own (a shear no glTF node holds) gets the nearest turn and scale, its key added to `sheared`
 * when that moves it by more than a hundredth of a millimetre; one its modes stretch along an axis
 * its reference vertices do not fix (a line's perpendiculars) has its key added to `uncertain`; one
 * turned in full on reference vertices that lie on a line that turns, which fix no twist about it,
 * takes the least turn and has its key added to `untwisted` (one vertex, or a line that slides, fits a
 * slide and is not), as does one on a strip too
 * narrow to hold its twist surely (which keeps the best fit's). One whose reference vertices fit a slide
 * while the mesh around them turns about their line or place by over 0.02 rad, which Daz's fit of them
 * does not follow either, has its key added to `surfaced` (decode.dson v66).
 */
export function refitFollowers(
  doc: Document,
  before: readonly FollowerState[],
  sheared: string[] = [],
  uncertain: string[] = [],
  untwisted: string[] = [],
  surfaced: string[] = [],
): number {
  let moved = 0;
  const blendMeshes = followerMeshes(doc);
  for (const state of before) {
    const after = referencePoints(state.mesh, [...state.vertices], false);
    if (!after || after.vertices.length !== state.vertices.length) continue;
    const frames = new Map<Node, { before: mat4; after: mat4 }>();
    let same = after.points.every((v, k) => v === state.points[k]);
    for (const [joint, was] of state.frames) {
      const now = meshFrame(state.mesh, joint);
      if (!now) continue;
      frames.set(joint, { before: was, after: now });
      same &&= now.every((v, k) => v === was[k]);
    }
    const shifted = state.surround && referencePoints(state.mesh, [...state.surround.vertices], false);
    const surround: Surround | undefined =
      shifted && shifted.vertices.length === state.surround!.vertices.length
        ? { base: state.surround!.base, before: state.surround!.points, after: shifted.points }
        : undefined;
    // A morph may turn the skin around reference vertices it leaves in place: still named.
    if (same && !surround?.after.some((v, k) => v !== surround.before[k])) continue;
    const flags: FitFlags = { uncertain: false };
    const fit = fitChange(
      state.basePoints,
      state.points,
      after.points,
      state.modes,
      state.frame,
      flags,
      surround,
    );
    if (flags.uncertain) uncertain.push(state.key);
    if (flags.untwisted) untwisted.push(state.key);
    if (flags.surface) surfaced.push(state.key);
    if (same) continue; // nothing it rides moved: its bytes are kept
    // In a joint's frame: back to mesh space at the old rest, the fit, into the joint's new rest frame.
    const change = (joint: Node): mat4 | undefined => {
      const f = frames.get(joint);
      const inverse = f && invert(f.before);
      return inverse && multiply(f.after, multiply(fit, inverse));
    };
    const joint = state.node.getParentNode()!;
    const own = change(joint);
    if (!own) continue;
    if (!setLocal(state.node, multiply(own, state.node.getMatrix()))) sheared.push(state.key);
    const dson = getPartgraphExtras(state.node).dson as { [key: string]: JsonValue };
    const record = dson.rigid_follow as { [key: string]: JsonValue };
    const offset = record.parent_offset;
    if (Array.isArray(offset) && offset.length === 16 && offset.every(Number.isFinite)) {
      const placed = Array.from(multiply(own, offset as unknown as mat4));
      setPartgraphExtras(state.node, {
        dson: { ...dson, rigid_follow: { ...record, parent_offset: placed } },
      });
    }
    for (const meshNode of blendMeshes.get(state.key) ?? []) {
      const skin = meshNode.getSkin()!, accessor = skin.getInverseBindMatrices();
      const old = accessor?.getArray();
      if (!accessor || !old) continue;
      const next = new Float32Array(old.length);
      skin.listJoints().forEach((j, k) => {
        const ibm = Array.from(old.subarray(k * 16, k * 16 + 16)) as unknown as mat4;
        const c = change(j);
        next.set(c ? multiply(c, ibm) : ibm, k * 16);
      });
      accessor.setArray(next);
    }
    moved++;
  }
  return moved;
}

/**
 * The vertices of `mesh` nearest the DSON vertices `refs` (`surface_turn.ts`, other than them), as
 * DSON ids, with where they are on the base mesh and, unless `base`, with the mesh's morphs now.
 */
function surroundOf(
  mesh: Mesh,
  refs: Int32Array,
  base: boolean,
): { vertices: Int32Array; base: Float64Array; points: Float64Array } | undefined {
  const ids = new Set<number>();
  for (const primitive of mesh.listPrimitives()) {
    for (const id of primitive.getAttribute(DSON_VERTEX_ATTRIBUTE)?.getArray() ?? []) ids.add(id);
  }
  const drawn = referencePoints(mesh, [...ids].sort((a, b) => a - b), true);
  if (!drawn) return undefined;
  const slot = new Map(Array.from(drawn.vertices, (v, k) => [v, k]));
  const near = nearestSurround(drawn.points, Int32Array.from(refs, (v) => slot.get(v)!));
  if (!near.length) return undefined;
  const vertices = Int32Array.from(near, (k) => drawn.vertices[k]);
  const at = (k: number) => [drawn.points[k * 3], drawn.points[k * 3 + 1], drawn.points[k * 3 + 2]];
  const basePoints = Float64Array.from([...near].flatMap(at));
  return {
    vertices,
    base: basePoints,
    points: base ? basePoints : referencePoints(mesh, [...vertices], false)!.points,
  };
}

/** The blend-skinned meshes of each follower (`rigid_follow_mesh`), by the follower's key. */
function followerMeshes(doc: Document): Map<string, Node[]> {
  const out = new Map<string, Node[]>();
  for (const node of doc.getRoot().listNodes()) {
    const record =
      (getPartgraphExtras(node).dson as { rigid_follow_mesh?: { follower?: unknown } } | undefined)
        ?.rigid_follow_mesh;
    if (typeof record?.follower !== "string" || !node.getSkin()) continue;
    out.set(record.follower, [...out.get(record.follower) ?? [], node]);
  }
  return out;
}

/**
 * Where `mesh` puts DSON vertices `wanted` (m): its positions plus, unless `base`, each morph
 * target's delta at the mesh's weight. Undefined when it draws none of them.
 */
function referencePoints(
  mesh: Mesh,
  wanted: readonly number[],
  base: boolean,
): { vertices: Int32Array; points: Float64Array } | undefined {
  const slot = new Map(wanted.map((v, k) => [v, k]));
  const points = new Float64Array(wanted.length * 3);
  const seen = new Uint8Array(wanted.length);
  const weights = base ? [] : mesh.getWeights();
  for (const primitive of mesh.listPrimitives()) {
    const ids = primitive.getAttribute(DSON_VERTEX_ATTRIBUTE)?.getArray();
    const positions = primitive.getAttribute("POSITION")?.getArray();
    if (!ids || !positions) continue;
    const deltas = primitive.listTargets().map((t) => t.getAttribute("POSITION")?.getArray());
    for (let i = 0; i < ids.length; i++) {
      const k = slot.get(ids[i]);
      if (k === undefined || seen[k]) continue;
      seen[k] = 1;
      for (let a = 0; a < 3; a++) {
        let p = positions[i * 3 + a];
        weights.forEach((w, t) => {
          if (w && deltas[t]) p += w * deltas[t]![i * 3 + a];
        });
        points[k * 3 + a] = p;
      }
    }
  }
  const kept = wanted.flatMap((_, k) => (seen[k] ? [k] : []));
  if (!kept.length) return undefined;
  return {
    vertices: Int32Array.from(kept, (k) => wanted[k]),
    points: Float64Array.from(kept.flatMap((k) => [points[k * 3], points[k * 3 + 1], points[k * 3 + 2]])),
  };
}
