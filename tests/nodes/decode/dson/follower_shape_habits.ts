/**
 * Scenes of a store character with a body shape and jewellery or props kept on its skin by rigid
 * follow nodes (`studio/node/rigid_follow`), as Daz Studio users save them: the shape morph moves
 * every vertex smoothly (wider, a bulge, a lean) and, through ERC formulas, the centres of a few
 * bones (`#bone?center_point/y`), the shape dialled in the scene or left at 0 for a preset; each
 * follower (an earring, a ring, a button, a prop held in a hand) names 1–8 neighbouring reference
 * vertices — sometimes one alone, sometimes a strip of two —, sits under the figure root or a bone
 * (a prop "parented to the hand"), sometimes names its target through a `Follow Target` channel,
 * and is moved and turned a little by its own channels. A second shape that moves none of its
 * reference vertices is dialled now and then.
 *
 * Where Daz draws a follower is worked out here, not by the code under test: its geometry where its
 * own channels put it on the base mesh (the figure at rest: `c + t + R·(p − c)`), then moved by the
 * best-fit rotation and translation (Kabsch, `rigidity_reference.ts`) of its reference vertices from
 * the base mesh to the shaped one ({@link expectedFollower}).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { channels, generateFigure, type Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import { kabsch, type ReferenceGroup, referenceRigidity, type V3 } from "./rigidity_reference.ts";

/** One follower of a case. */
export interface FollowerCase {
  readonly name: string;
  /** Its geometry where its own channels put it on the base figure at rest (cm). */
  readonly written: readonly V3[];
  readonly refs: readonly number[];
  /** Its group's modes as written (`full`, none scaled unless the case draws modes). */
  readonly rotation: ReferenceGroup["rotation"];
  readonly scale: ReferenceGroup["scale"];
}

/**
 * The modes users leave on a rigid follow node, drawn when a case asks for them: Daz's own (turned,
 * not scaled), grown evenly with the surface (a belt, a patch), slid without turning, and per-axis
 * stretches.
 */
const MODE_HABITS: readonly [number, ReferenceGroup["rotation"], ReferenceGroup["scale"]][] = [
  [0.3, "full", ["none", "none", "none"]],
  [0.2, "full", ["primary", "primary", "primary"]],
  [0.15, "none", ["none", "none", "none"]],
  [0.15, "primary", ["primary", "secondary", "none"]],
  [0.1, "full", ["primary", "secondary", "tertiary"]],
  [0.1, "secondary", ["none", "primary", "none"]],
];

/** One generated scene. */
export interface FollowerShapeCase {
  readonly seed: number;
  readonly json: Json;
  /** The figure's base vertices (cm). */
  readonly base: readonly V3[];
  /** Each shape's deltas by vertex (cm), by modifier id. */
  readonly deltas: ReadonlyMap<string, readonly V3[]>;
  /** The shapes' dials as saved. */
  readonly dials: ReadonlyMap<string, number>;
  readonly followers: readonly FollowerCase[];
  readonly habits: readonly string[];
}

const SIDE = 6, SPACING = 10;
const FIGURE = "Genesis8Female";
const FILE = "/data/DAZ%203D/Genesis%208/Female/Genesis8Female.dsf";

/** Rotation (rows) of Euler degrees in `order`, the first letter turning first. */
export function eulerRows(d: readonly number[], order: string): V3[] {
  let m: V3[] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (const letter of order) {
    const a = (d["XYZ".indexOf(letter)] * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
    const r: V3[] = letter === "X"
      ? [[1, 0, 0], [0, c, -s], [0, s, c]]
      : letter === "Y"
      ? [[c, 0, s], [0, 1, 0], [-s, 0, c]]
      : [[c, -s, 0], [s, c, 0], [0, 0, 1]];
    m = r.map((row) => [0, 1, 2].map((j) => row[0] * m[0][j] + row[1] * m[1][j] + row[2] * m[2][j]) as V3);
  }
  return m;
}

/** The case of `seed`. */
export function followerShapeCase(seed: number, options: { modes?: boolean } = {}): FollowerShapeCase {
  const r = prng(seed);
  // The modes from a stream of their own: a case without them is the case it always was.
  const rm = prng(seed * 53 + 5);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const habits = new Set<string>();
  const bones = 3 + Math.floor(r() * 3);
  const json = generateFigure({ side: SIDE, bones, spacing: SPACING, figureId: FIGURE, influences: 2 });
  const geometry = (json.geometry_library as Json[])[0];
  const base = (geometry.vertices as { values: V3[] }).values;
  // A body is not flat: each vertex off the plane by up to ±3 cm.
  for (const p of base) p[2] = round(r() * 6 - 3);
  const count = base.length, height = (SIDE - 1) * SPACING;
  const boneIds = Array.from({ length: bones }, (_, k) => `${FIGURE}_bone${k}`);
  // The body shape: wider with height, a bulge, a lean — smooth, every vertex moved.
  const [wide, bulge, lean] = [round(0.05 + r() * 0.25), round(r() * 4 - 2), round(r() * 0.2 - 0.1)];
  const heavy: V3[] = base.map(([x, y, z]) => [
    round(wide * (x - height / 2) * (y / height) + lean * y),
    round(lean * -x * 0.5),
    round(bulge * Math.sin((Math.PI * y) / height) + 0.02 * z),
  ]);
  const deltas = new Map<string, V3[]>([["FBMHeavy", heavy]]);
  const dials = new Map<string, number>();
  const heavyDial = r() < 0.3 ? 0 : round(0.2 + r() * 0.8);
  if (heavyDial === 0) habits.add("shape at 0 (a preset dials it)");
  dials.set("FBMHeavy", heavyDial);
  const formulas: Json[] = [];
  for (let b = 1; b < bones; b++) {
    if (r() < 0.3) continue;
    const axis = Math.floor(r() * 3), coefficient = round(r() * 6 - 3);
    formulas.push({
      output: `${boneIds[b]}:${FILE}#${boneIds[b]}?center_point/${"xyz"[axis]}`,
      operations: [
        { op: "push", url: `${FIGURE}:#FBMHeavy?value` },
        { op: "push", val: coefficient },
        { op: "mult" },
      ],
    });
  }
  if (formulas.length) habits.add("shape moves joint centres");
  const morph = (id: string, values: V3[], more: Json = {}): Json => ({
    id,
    name: id,
    parent: `#${FIGURE}_geo`,
    channel: { id: "value", type: "float", name: id, value: 0, min: 0, max: 1 },
    morph: {
      vertex_count: count,
      deltas: {
        count: values.filter((d) => d.some((v) => v !== 0)).length,
        values: values.flatMap((d, v) => (d.some((x) => x !== 0) ? [[v, ...d]] : [])),
      },
    },
    ...more,
  });
  const modifiers = json.modifier_library as Json[];
  modifiers.push(morph("FBMHeavy", heavy, { formulas }));
  const sceneModifiers = (json.scene as { modifiers: Json[] }).modifiers;
  const parent = `#${FIGURE}_geo-1`;
  sceneModifiers.push({
    id: "FBMHeavy-1",
    url: "#FBMHeavy",
    parent,
    channel: { id: "value", current_value: heavyDial },
  });
  // The followers: a patch of neighbouring vertices each.
  const nodes = (json.scene as { nodes: Json[] }).nodes;
  const library = json.node_library as Json[];
  const geometries = json.geometry_library as Json[];
  const followers: FollowerCase[] = [];
  const used = new Set<number>();
  const many = 1 + Math.floor(r() * 3);
  for (let f = 0; f < many; f++) {
    const name = ["Earring", "Ring", "Button", "Prop"][f % 4] + (f >= 4 ? f : "");
    const [i, j] = [1 + Math.floor(r() * (SIDE - 3)), 1 + Math.floor(r() * (SIDE - 3))];
    const patch = [[0, 0], [1, 0], [0, 1], [1, 1], [-1, 0], [0, -1], [2, 0], [0, 2]]
      .map(([di, dj]) => (j + dj) * SIDE + (i + di));
    const shape = r();
    const size = shape < 0.12 ? 1 : shape < 0.22 ? 2 : 3 + Math.floor(r() * 6);
    if (size < 3) habits.add(`${size} reference vertex(es)`);
    const refs = patch.slice(0, size);
    refs.forEach((v) => used.add(v));
    const anchor = refs.map((v) => base[v]).reduce((a, p) => a.map((x, k) => x + p[k] / refs.length) as V3, [
      0,
      0,
      0,
    ]);
    const c: V3 = [round(anchor[0]), round(anchor[1]), round(anchor[2] + 1)];
    const vertices: V3[] = [[c[0] - 0.8, c[1] - 0.5, c[2]], [c[0] + 0.8, c[1] - 0.5, c[2]], [
      c[0],
      c[1] + 1,
      c[2] + 0.4,
    ]];
    const t: V3 = [round(r() * 2 - 1), round(r() * 2 - 1), round(r())];
    const turn: V3 = [round(r() * 60 - 30), round(r() * 60 - 30), round(r() * 60 - 30)];
    const order = "XYZ";
    const rot = eulerRows(turn, order);
    const written = vertices.map((p) => {
      const d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
      return [0, 1, 2].map((k) => c[k] + t[k] + rot[k][0] * d[0] + rot[k][1] * d[1] + rot[k][2] * d[2]) as V3;
    });
    geometries.push({
      id: `${name}_geo`,
      name: `${name}_geo`,
      type: "polygon_mesh",
      vertices: { count: 3, values: vertices },
      polygon_groups: { count: 1, values: ["g"] },
      polygon_material_groups: { count: 1, values: ["Metal"] },
      polylist: { count: 1, values: [[0, 0, 0, 1, 2]] },
    });
    library.push({
      id: name,
      name,
      label: name,
      type: "node",
      rotation_order: order,
      center_point: channels("float", c),
      translation: channels("float", t),
      rotation: channels("float", turn),
    });
    let rotation: ReferenceGroup["rotation"] = "full",
      scale: ReferenceGroup["scale"] = ["none", "none", "none"];
    if (options.modes) {
      let pick = rm();
      const habit = MODE_HABITS.find(([p]) => (pick -= p) < 0) ?? MODE_HABITS[0];
      [, rotation, scale] = habit;
      habits.add(`rotation ${rotation}, scale ${scale.join("/")}`);
    }
    const onBone = r() < 0.35;
    if (onBone) habits.add("parented to a bone");
    const followTarget = r() < 0.3;
    if (followTarget) habits.add("Follow Target channel");
    nodes.push({
      id: `${name}-1`,
      url: `#${name}`,
      parent: onBone ? `#${boneIds[bones - 1]}` : `#${FIGURE}-1`,
      geometries: [{ id: `${name}_geo-1`, url: `#${name}_geo` }],
      extra: [
        {
          type: "studio/node/rigid_follow",
          vertex_count: count,
          rigidity_group: {
            id: "follow",
            rotation_mode: rotation,
            scale_modes: [...scale],
            reference_vertices: { count: refs.length, values: refs },
          },
        },
        ...(followTarget
          ? [{
            type: "studio_node_channels",
            channels: [{ channel: { id: "Follow Target", node: `#${FIGURE}-1` } }],
          }]
          : []),
      ],
    });
    followers.push({ name, written, refs, rotation, scale });
  }
  if (r() < 0.4) {
    // A second shape that moves none of the followers' reference vertices.
    habits.add("second shape elsewhere");
    const far: V3[] = base.map((_, v) => (used.has(v) || v % 3 ? [0, 0, 0] : [0, 0, round(r() * 2)]));
    deltas.set("PBMNavel", far);
    modifiers.push(morph("PBMNavel", far));
    const dial = round(r());
    dials.set("PBMNavel", dial);
    sceneModifiers.push({
      id: "PBMNavel-1",
      url: "#PBMNavel",
      parent,
      channel: { id: "value", current_value: dial },
    });
  }
  return { seed, json, base, deltas, dials, followers, habits: [...habits] };
}

/** The figure's vertices at `dials` (cm). */
export function shapedVertices(c: FollowerShapeCase, dials: ReadonlyMap<string, number>): V3[] {
  return c.base.map((p, v) => {
    const out = [...p] as V3;
    for (const [id, d] of c.deltas) {
      const w = dials.get(id) ?? 0;
      for (let k = 0; k < 3; k++) out[k] += w * d[v][k];
    }
    return out;
  });
}

/**
 * Where Daz draws follower `f`'s geometry on the figure shaped as `shaped` (cm): its written place
 * moved by the best-fit rigid transform of its reference vertices from the base mesh to `shaped`
 * (fewer than three fix no twist about their line: the least turn carrying it, as a rigidity group's
 * full turn reads a line — the best fit's swing; before decode.dson v64 this said translation alone).
 */
export function expectedFollower(c: FollowerShapeCase, f: FollowerCase, shaped: readonly V3[]): V3[] {
  if (f.rotation !== "full" || f.scale.some((s) => s !== "none") || f.refs.length < 3) {
    // Its group's modes, as rigidity groups apply them, its geometry the participants (weight 1).
    const n = f.refs.length;
    const before = [...f.refs.map((v) => c.base[v]), ...f.written];
    const after = [...f.refs.map((v) => shaped[v]), ...f.written];
    const refs = Array.from({ length: n }, (_, k) => k);
    const mask = f.written.map((_, k) => n + k);
    return referenceRigidity(before, after, undefined, [{ rotation: f.rotation, scale: f.scale, refs, mask }])
      .slice(n);
  }
  const mean = (ps: V3[]) =>
    ps.reduce((a, p) => a.map((x, k) => x + p[k] / ps.length) as V3, [0, 0, 0] as V3);
  const a = f.refs.map((v) => c.base[v]), b = f.refs.map((v) => shaped[v]);
  const ca = mean(a), cb = mean(b);
  const rot = f.refs.length >= 3
    ? kabsch(a.map((p) => p.map((x, k) => x - ca[k]) as V3), b.map((p) => p.map((x, k) => x - cb[k]) as V3))
    : [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  return f.written.map((p) => {
    const d = [p[0] - ca[0], p[1] - ca[1], p[2] - ca[2]];
    return [0, 1, 2].map((k) => cb[k] + rot[k][0] * d[0] + rot[k][1] * d[1] + rot[k][2] * d[2]) as V3;
  });
}

/** `a · b` for column-major 4×4 matrices. */
function mul4(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  }
  return out;
}

/**
 * Where a decoded scene draws follower `name`'s geometry (cm): its mesh node's world matrix, or, for
 * a mesh skinned with a blend of joints, each vertex's weighted joint matrices (linear blend skinning).
 */
export function drawnFollower(doc: Document, name: string): V3[] {
  const node = doc.getRoot().listNodes().find((n) => n.getMesh()?.getName() === `${name}_geo-1`);
  if (!node) throw new Error(`no mesh of '${name}' drawn`);
  const out: V3[] = [];
  const skin = node.getSkin();
  const ibm = skin?.getInverseBindMatrices()?.getArray();
  for (const primitive of node.getMesh()!.listPrimitives()) {
    const positions = primitive.getAttribute("POSITION")!;
    for (let i = 0; i < positions.getCount(); i++) {
      const v = positions.getElement(i, []);
      const matrices: [number, number[]][] = [];
      if (skin && ibm) {
        const w = primitive.getAttribute("WEIGHTS_0")!.getElement(i, []);
        const j = primitive.getAttribute("JOINTS_0")!.getElement(i, []);
        for (let s = 0; s < 4; s++) {
          if (!w[s]) continue;
          const joint = skin.listJoints()[j[s]].getWorldMatrix() as unknown as number[];
          matrices.push([w[s], mul4(joint, Array.from(ibm.subarray(j[s] * 16, j[s] * 16 + 16)))]);
        }
      } else matrices.push([1, node.getWorldMatrix() as unknown as number[]]);
      const p: V3 = [0, 0, 0];
      for (const [w, m] of matrices) {
        for (let k = 0; k < 3; k++) {
          p[k] += w * (m[k] * v[0] + m[4 + k] * v[1] + m[8 + k] * v[2] + m[12 + k]) * 100;
        }
      }
      out.push(p);
    }
  }
  return out;
}
