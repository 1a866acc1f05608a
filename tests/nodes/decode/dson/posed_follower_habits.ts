/**
 * Scenes of a posed, shaped store character with jewellery and props kept on its skin by rigid follow
 * nodes, as Daz Studio users save them: the body shape of `follower_shape_habits.ts` (its followers,
 * their modes, the shape moving joint centres) and, on top, a pose — most bones turned by tens of
 * degrees (`rotation` current values), the whole figure moved across the floor now and then. Options
 * add two more habits: groups whose frame is named by `transform_nodes` or `reference` (a bone, the
 * figure, by `#id` or by the figure file's path), and groups that leave `rotation_mode` or
 * `scale_modes` unsaid (files written by scripts and older tools).
 *
 * Where Daz draws a follower is worked out here, in Daz's order: morphs, then the rigidity refit on
 * the figure at rest (`expectedFollower`, or the group's modes on its frame's axes at rest), then
 * the pose — the skin's joints turned about their (shaped) centres, `T(c)·O·R·O⁻¹·T(−c)` down the
 * chain, and the follower carried by its reference vertices' skin weights averaged per joint, as
 * Daz's bridge bakes a rigid follow node. {@link rigidPlace} gives Daz's viewport fit as well (the
 * best-fit rigid motion of the posed reference vertices), for reporting how far the two differ.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import {
  expectedFollower,
  type FollowerCase,
  type FollowerShapeCase,
  followerShapeCase,
  shapedVertices,
} from "./follower_shape_habits.ts";
import type { Json } from "./generate.ts";
import { eulerMatrix, kabsch, nodeFrameAxes, referenceRigidity, type V3 } from "./rigidity_reference.ts";

/** An affine map: `p ↦ m·p + t` (rows of `m`, cm). */
interface Affine {
  readonly m: readonly V3[];
  readonly t: V3;
}

/** The figure's pose: its move, and each bone's (a chain) rest frame and turn. */
interface Rig {
  readonly figureMove: V3;
  readonly bones: {
    /** Written centre and its move per unit of the shape's dial (cm). */
    readonly centre: V3;
    readonly perDial: V3;
    readonly orientation: V3;
    readonly order: string;
    readonly turn: V3;
  }[];
}

/** Each skin joint's posed map at the shape's dial `heavy` (the figure first, then bone b at b + 1). */
function posedJoints(rig: Rig, heavy: number): Affine[] {
  const id = eulerMatrix([0, 0, 0], "XYZ");
  const joints: Affine[] = [{ m: id, t: rig.figureMove }];
  for (const b of rig.bones) {
    const centre = b.centre.map((v, k) => v + b.perDial[k] * heavy) as V3;
    const o = eulerMatrix(b.orientation, "XYZ");
    // Turned about its centre: T(c)·O·R·O⁻¹·T(−c).
    const local = compose(
      { m: id, t: centre },
      compose(
        { m: o, t: [0, 0, 0] },
        compose(
          { m: eulerMatrix(b.turn, b.order), t: [0, 0, 0] },
          compose({ m: transpose(o), t: [0, 0, 0] }, { m: id, t: centre.map((v) => -v) as V3 }),
        ),
      ),
    );
    joints.push(compose(joints[joints.length - 1], local));
  }
  return joints;
}

/** One generated posed scene. */
export interface PosedFollowerCase {
  readonly seed: number;
  readonly shape: FollowerShapeCase;
  readonly json: Json;
  /** Each follower's frame axes at rest, ordered by the frame node's rotation order (none: principal axes). */
  readonly axes: ReadonlyMap<string, readonly V3[]>;
  /** The pose and the joints' rest frames, the centres as the shape moves them. */
  readonly rig: Rig;
  /** Skin weights by vertex: joint index (0 the figure, b + 1 bone b) → weight. */
  readonly weights: readonly ReadonlyMap<number, number>[];
  readonly habits: readonly string[];
}

const FIGURE = "Genesis8Female";
const FILE = "/data/DAZ%203D/Genesis%208/Female/Genesis8Female.dsf";
const round = (x: number, q = 10) => Math.round(x * q) / q;
const apply = (a: Affine, p: readonly number[]): V3 =>
  [0, 1, 2].map((r) => a.m[r][0] * p[0] + a.m[r][1] * p[1] + a.m[r][2] * p[2] + a.t[r]) as V3;
const compose = (a: Affine, b: Affine): Affine => ({
  m: a.m.map((row) =>
    [0, 1, 2].map((c) => row[0] * b.m[0][c] + row[1] * b.m[1][c] + row[2] * b.m[2][c]) as V3
  ),
  t: apply(a, b.t),
});
const transpose = (m: readonly V3[]): V3[] => [0, 1, 2].map((c) => [m[0][c], m[1][c], m[2][c]] as V3);

/** The case of `seed`; `frames` and `unsaid` add those habits (see the module doc). */
export function posedFollowerCase(
  seed: number,
  options: { frames?: boolean; unsaid?: boolean; pose?: boolean } = {},
): PosedFollowerCase {
  const shape = followerShapeCase(seed, { modes: true });
  const json = shape.json;
  // A stream of its own: the shape case is the one follower_shape_habits.ts makes.
  const r = prng(seed * 71 + 3);
  const habits = new Set(shape.habits);
  const library = json.node_library as Json[];
  const bones = library.filter((n) => n.type === "bone");
  const figure = library.find((n) => n.id === FIGURE)!;
  // The shape's ERC formulas on the bones' centres, read back from the file (cm per dial).
  const shift = new Map<string, number>();
  const heavy = (json.modifier_library as Json[]).find((m) => m.id === "FBMHeavy")!;
  for (const f of heavy.formulas as { output: string; operations: { val?: number }[] }[]) {
    shift.set(f.output.slice(f.output.indexOf("#") + 1), f.operations[1].val!);
  }
  const pose = options.pose ?? true;
  let figureMove: V3 = [0, 0, 0];
  if (pose && r() < 0.3) {
    figureMove = [round(r() * 40 - 20), 0, round(r() * 40 - 20)];
    figure.translation = ["x", "y", "z"].map((id, k) => ({
      id,
      type: "float",
      value: 0,
      current_value: figureMove[k],
    }));
    habits.add("figure moved");
  }
  const rig: Rig = { figureMove, bones: [] };
  let posedBones = 0;
  for (const bone of bones) {
    const id = bone.id as string;
    const turn: V3 = pose && r() < 0.75
      ? [round(r() * 50 - 25), round(r() * 50 - 25), round(r() * 70 - 35)]
      : [0, 0, 0];
    if (turn.some((v) => v !== 0)) {
      posedBones++;
      bone.rotation = ["x", "y", "z"].map((c, k) => ({
        id: c,
        type: "float",
        value: 0,
        current_value: turn[k],
      }));
    }
    rig.bones.push({
      centre: (bone.center_point as { value: number }[]).map((c) => c.value) as V3,
      perDial: [0, 1, 2].map((k) => shift.get(`${id}?center_point/${"xyz"[k]}`) ?? 0) as V3,
      orientation: (bone.orientation as { value: number }[]).map((c) => c.value) as V3,
      order: bone.rotation_order as string,
      turn,
    });
  }
  if (posedBones) habits.add(`${posedBones} bone(s) posed`);
  const skin = (json.modifier_library as Json[])[0].skin as {
    joints: { node_weights: { values: number[][] } }[];
  };
  const weights = shape.base.map(() => new Map<number, number>());
  skin.joints.forEach((j, b) => {
    for (const [v, w] of j.node_weights.values) weights[v].set(b + 1, w);
  });
  const axes = new Map<string, V3[]>();
  const nodes = (json.scene as { nodes: Json[] }).nodes;
  const rf = prng(seed * 89 + 13);
  for (const f of shape.followers) {
    const instance = nodes.find((n) => n.id === `${f.name}-1`)!;
    const group = (instance.extra as Json[])[0].rigidity_group as Json;
    if (options.frames && rf() < 0.6) {
      const k = Math.floor(rf() * (bones.length + 1));
      const node = k === bones.length ? figure : bones[k];
      const uri = rf() < 0.5 ? `#${node.id}` : `${FILE}#${node.id}`;
      const field = rf() < 0.6 ? "transform_nodes" : "reference";
      group[field] = field === "transform_nodes" ? [uri] : uri;
      // Modes the frame matters to: a swing or a stretch about its axes.
      const picks: [string, string[]][] = [
        ["primary", ["none", "none", "none"]],
        ["secondary", ["none", "none", "none"]],
        ["full", ["primary", "secondary", "tertiary"]],
        ["none", ["primary", "none", "none"]],
        ["primary", ["primary", "primary", "none"]],
      ];
      const [rotation, scale] = picks[Math.floor(rf() * picks.length)];
      group.rotation_mode = rotation;
      group.scale_modes = scale;
      Object.assign(f, { rotation, scale });
      const orientation = node === figure
        ? [0, 0, 0]
        : (node.orientation as { value: number }[]).map((c) => c.value);
      axes.set(f.name, nodeFrameAxes(orientation, [0, 0, 0], node.rotation_order as string));
      habits.add(`${field} ${uri.startsWith("#") ? "by id" : "by file"}`);
    }
    if (options.unsaid && rf() < 0.6) {
      const which = rf();
      if (which < 0.5) {
        delete group.rotation_mode;
        Object.assign(f, { rotation: "none" });
        habits.add("rotation_mode unsaid");
      } else if (which < 0.8) {
        delete group.scale_modes;
        Object.assign(f, { scale: ["none", "none", "none"] });
        habits.add("scale_modes unsaid");
      } else {
        delete group.rotation_mode;
        delete group.scale_modes;
        Object.assign(f, { rotation: "none", scale: ["none", "none", "none"] });
        habits.add("both modes unsaid");
      }
    }
  }
  return { seed, shape, json, axes, rig, weights, habits: [...habits] };
}

/** Follower `f` refitted on the figure at rest shaped as `shaped` (cm): Daz's rigidity step. */
export function restPlace(c: PosedFollowerCase, f: FollowerCase, shaped: readonly V3[]): V3[] {
  const axes = c.axes.get(f.name);
  if (!axes) return expectedFollower(c.shape, f, shaped);
  const n = f.refs.length;
  const before = [...f.refs.map((v) => c.shape.base[v]), ...f.written];
  const after = [...f.refs.map((v) => shaped[v]), ...f.written];
  const refs = Array.from({ length: n }, (_, k) => k);
  const mask = f.written.map((_, k) => n + k);
  return referenceRigidity(before, after, undefined, [{
    rotation: f.rotation,
    scale: f.scale,
    refs,
    mask,
    axes,
  }])
    .slice(n);
}

/** The reference vertices' skin weights averaged per joint (4 strongest, renormalised), as Daz's bridge bakes. */
function averaged(c: PosedFollowerCase, refs: readonly number[]): [number, number][] {
  const sum = new Map<number, number>();
  for (const v of refs) for (const [j, w] of c.weights[v]) sum.set(j, (sum.get(j) ?? 0) + w / refs.length);
  const top = [...sum].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 4);
  const total = top.reduce((s, [, w]) => s + w, 0);
  return top.map(([j, w]) => [j, w / total]);
}

/** `p` carried by the pose with weights `blend` (linear blend skinning). */
function skinned(joints: readonly Affine[], blend: readonly [number, number][], p: readonly number[]): V3 {
  const out: V3 = [0, 0, 0];
  for (const [j, w] of blend) apply(joints[j], p).forEach((x, k) => out[k] += w * x);
  return out;
}

/** Where Daz draws follower `f` at dials `dials` (cm): refitted at rest, then carried by the pose. */
export function posedPlace(c: PosedFollowerCase, f: FollowerCase, dials: ReadonlyMap<string, number>): V3[] {
  const rest = restPlace(c, f, shapedVertices(c.shape, dials));
  const blend = averaged(c, f.refs);
  const joints = posedJoints(c.rig, dials.get("FBMHeavy") ?? 0);
  return rest.map((p) => skinned(joints, blend, p));
}

/** Daz's viewport fit: the rest place moved by the best-fit rigid motion of the posed reference vertices. */
export function rigidPlace(c: PosedFollowerCase, f: FollowerCase, dials: ReadonlyMap<string, number>): V3[] {
  const shaped = shapedVertices(c.shape, dials);
  const rest = restPlace(c, f, shaped);
  const a = f.refs.map((v) => shaped[v]);
  const joints = posedJoints(c.rig, dials.get("FBMHeavy") ?? 0);
  const b = f.refs.map((v) => skinned(joints, [...c.weights[v]], shaped[v]));
  const mean = (ps: V3[]) =>
    ps.reduce((s, p) => s.map((x, k) => x + p[k] / ps.length) as V3, [0, 0, 0] as V3);
  const [ca, cb] = [mean(a), mean(b)];
  const rot = a.length >= 3
    ? kabsch(a.map((p) => p.map((x, k) => x - ca[k]) as V3), b.map((p) => p.map((x, k) => x - cb[k]) as V3))
    : [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  return rest.map((p) => {
    const d = [p[0] - ca[0], p[1] - ca[1], p[2] - ca[2]];
    return [0, 1, 2].map((k) => cb[k] + rot[k][0] * d[0] + rot[k][1] * d[1] + rot[k][2] * d[2]) as V3;
  });
}

/**
 * Seed 4's case (with frames) whose first rigid follower's group names a frame node the scene does
 * not have (`#lPinkyNowhere`, `primary` rotation, no `reference`), and that follower's id.
 */
export function missingFrameCase(): { c: PosedFollowerCase; followerId: string | undefined } {
  const c = posedFollowerCase(4, { frames: true });
  const nodes =
    (c.json.scene as { nodes: { id?: string; extra?: { rigidity_group?: Record<string, unknown> }[] }[] })
      .nodes;
  const follower = nodes.find((n) => n.extra?.[0]?.rigidity_group)!;
  const group = follower.extra![0].rigidity_group!;
  delete group.reference;
  Object.assign(group, { transform_nodes: ["#lPinkyNowhere"], rotation_mode: "primary" });
  return { c, followerId: follower.id };
}
