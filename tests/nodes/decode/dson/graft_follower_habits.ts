/**
 * Scenes with a geograft (a mouth, a navel, a nipple) fitted to a figure and a piercing or stud kept
 * on the graft by a rigid follow node, as Daz Studio users save them: the graft's own shape (a pucker,
 * a smile) moves its vertices, dialled in the scene; the follower names 1–6 graft vertices — its own
 * ones, or a vertex welded to the body's edge among them —, sits under the graft figure or the body
 * with a `Follow Target` channel naming the graft, and is moved and turned a little by its channels.
 * The graft is merged into the body by the decode, so the mesh the follower follows is gone.
 *
 * Where Daz draws the follower is worked out here: its written place moved by the best-fit rotation
 * and translation (Kabsch) of its reference vertices from the graft's base to its shaped vertices.
 *
 * @module
 */
import { channels, generateFigure, type Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import type { FollowerCase } from "./follower_shape_habits.ts";
import { kabsch, referenceRigidity, type V3 } from "./rigidity_reference.ts";

/** One generated scene. */
export interface GraftFollowerCase {
  readonly seed: number;
  readonly json: Json;
  /** The graft's base vertices (cm). */
  readonly base: readonly V3[];
  /** The graft shape's deltas by vertex (cm). */
  readonly delta: readonly V3[];
  /** The graft shape's dial as saved. */
  readonly dial: number;
  readonly followers: readonly FollowerCase[];
  readonly habits: readonly string[];
}

const SIDE = 5, SPACING = 10, FIGURE = "Genesis8Female", GRAFT = "MouthGraft";
/** The graft shape's name. */
export const GRAFT_SHAPE = "GraftPucker";

/** Rotation (rows) of Euler degrees, X then Y then Z. */
function euler(d: readonly number[]): V3[] {
  let m: V3[] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (const axis of [0, 1, 2]) {
    const a = (d[axis] * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
    const r: V3[] = axis === 0
      ? [[1, 0, 0], [0, c, -s], [0, s, c]]
      : axis === 1
      ? [[c, 0, s], [0, 1, 0], [-s, 0, c]]
      : [[c, -s, 0], [s, c, 0], [0, 0, 1]];
    m = r.map((row) => [0, 1, 2].map((j) => row[0] * m[0][j] + row[1] * m[1][j] + row[2] * m[2][j]) as V3);
  }
  return m;
}

/** The case of `seed`. */
export function graftFollowerCase(seed: number): GraftFollowerCase {
  const r = prng(seed);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const habits = new Set<string>();
  const json = generateFigure({ side: SIDE, bones: 3, spacing: SPACING, figureId: FIGURE, influences: 2 });
  const body = (json.geometry_library as Json[])[0];
  const bodyVerts = (body.vertices as { values: V3[] }).values;
  const bodyPolys = (body.polylist as { count: number }).count;
  // The graft covers body cell (ci, cj): a 4×4 grid of its own over that cell, its corners welded.
  const [ci, cj] = [Math.floor(r() * (SIDE - 2)), Math.floor(r() * (SIDE - 3))];
  const n = 4, base: V3[] = [];
  const pairs: [number, number][] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const corner = (i === 0 || i === n - 1) && (j === 0 || j === n - 1);
      const [bi, bj] = [ci + i / (n - 1), cj + j / (n - 1)];
      const bulge = corner ? 0 : round(1 + r() * 2);
      base.push([round(bi * SPACING), round(bj * SPACING), bulge]);
      if (corner) pairs.push([j * n + i, (cj + j / (n - 1)) * SIDE + ci + i / (n - 1)]);
    }
  }
  // Welded vertices sit on the body's.
  for (const [g, b] of pairs) base[g] = [...bodyVerts[b]] as V3;
  const polys: number[][] = [];
  for (let j = 0; j < n - 1; j++) {
    for (let i = 0; i < n - 1; i++) {
      polys.push([0, 0, j * n + i, j * n + i + 1, (j + 1) * n + i + 1, (j + 1) * n + i]);
    }
  }
  // The pucker: the graft's inner vertices drawn in and out, smoothly, scaled by a seeded amount.
  const [amount, twist] = [round(0.5 + r() * 2), round(r() * 0.6 - 0.3)];
  const mid: V3 = [(ci + 0.5) * SPACING, (cj + 0.5) * SPACING, 0];
  const delta: V3[] = base.map((p, v) => {
    if (pairs.some(([g]) => g === v)) return [0, 0, 0];
    const [dx, dy] = [p[0] - mid[0], p[1] - mid[1]];
    return [
      round(-dx * 0.2 * amount / 2 - twist * dy),
      round(-dy * 0.2 * amount / 2 + twist * dx),
      round(amount),
    ];
  });
  const dial = r() < 0.25 ? 0 : round(0.2 + r() * 0.8);
  if (dial === 0) habits.add("pucker at 0 (a bake dials it)");
  (json.geometry_library as Json[]).push({
    id: `${GRAFT}_geo`,
    name: `${GRAFT}_geo`,
    type: "polygon_mesh",
    vertices: { count: base.length, values: base },
    polygon_groups: { count: 1, values: ["mouth"] },
    polygon_material_groups: { count: 1, values: ["Mouth"] },
    polylist: { count: polys.length, values: polys },
    graft: {
      vertex_count: bodyVerts.length,
      poly_count: bodyPolys,
      vertex_pairs: { count: pairs.length, values: pairs },
      hidden_polys: { count: 1, values: [cj * (SIDE - 1) + ci] },
    },
  });
  (json.node_library as Json[]).push({
    id: GRAFT,
    name: GRAFT,
    type: "figure",
    label: GRAFT,
    center_point: [],
  });
  (json.modifier_library as Json[] ?? (json.modifier_library = [])).push({
    id: GRAFT_SHAPE,
    name: GRAFT_SHAPE,
    parent: `#${GRAFT}_geo`,
    channel: { id: "value", type: "float", name: GRAFT_SHAPE, value: 0, min: 0, max: 1 },
    morph: {
      vertex_count: base.length,
      deltas: { count: delta.length, values: delta.flatMap((d, v) => (d.some((x) => x) ? [[v, ...d]] : [])) },
    },
  });
  const scene = json.scene as { nodes: Json[]; modifiers: Json[] };
  scene.nodes.push({
    id: `${GRAFT}-1`,
    url: `#${GRAFT}`,
    parent: `#${FIGURE}-1`,
    conform_target: `#${FIGURE}-1`,
    geometries: [{ id: `${GRAFT}_geo-1`, url: `#${GRAFT}_geo` }],
  });
  scene.modifiers.push({
    id: `${GRAFT_SHAPE}-1`,
    url: `#${GRAFT_SHAPE}`,
    parent: `#${GRAFT}_geo-1`,
    channel: { id: "value", current_value: dial },
  });
  const followers: FollowerCase[] = [];
  const many = 1 + Math.floor(r() * 2);
  for (let f = 0; f < many; f++) {
    const name = ["Stud", "Hoop"][f];
    // Neighbouring graft vertices; now and then a welded corner among them.
    const start = r() < 0.3 ? 0 : 5;
    if (start === 0) habits.add("a welded vertex among the references");
    const size = 1 + Math.floor(r() * 6);
    if (size < 3) habits.add(`${size} reference vertex(es)`);
    const refs = [start, start + 1, start + n, start + n + 1, start + 2, start + 2 * n].slice(0, size);
    const c = refs.map((v) => base[v]).reduce((a, p) => a.map((x, k) => x + p[k] / refs.length) as V3, [
      0,
      0,
      0,
    ]);
    const centre: V3 = [round(c[0]), round(c[1]), round(c[2] + 0.5)];
    const shape: V3[] = [[-0.4, -0.3, 0], [0.4, -0.3, 0], [0, 0.5, 0.2]].map((d) =>
      d.map((x, k) => centre[k] + x) as V3
    );
    const t: V3 = [round(r() - 0.5), round(r() - 0.5), round(r() * 0.5)];
    const turn: V3 = [round(r() * 40 - 20), round(r() * 40 - 20), round(r() * 40 - 20)];
    const rot = euler(turn);
    const written = shape.map((p) => {
      const d = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
      return [0, 1, 2].map((k) =>
        centre[k] + t[k] + rot[k][0] * d[0] + rot[k][1] * d[1] + rot[k][2] * d[2]
      ) as V3;
    });
    (json.geometry_library as Json[]).push({
      id: `${name}_geo`,
      name: `${name}_geo`,
      type: "polygon_mesh",
      vertices: { count: 3, values: shape },
      polygon_groups: { count: 1, values: ["g"] },
      polygon_material_groups: { count: 1, values: ["Metal"] },
      polylist: { count: 1, values: [[0, 0, 0, 1, 2]] },
    });
    (json.node_library as Json[]).push({
      id: name,
      name,
      label: name,
      type: "node",
      rotation_order: "XYZ",
      center_point: channels("float", centre),
      translation: channels("float", t),
      rotation: channels("float", turn),
    });
    const underBody = r() < 0.4;
    habits.add(underBody ? "under the body, Follow Target the graft" : "under the graft");
    scene.nodes.push({
      id: `${name}-1`,
      url: `#${name}`,
      parent: underBody ? `#${FIGURE}-1` : `#${GRAFT}-1`,
      geometries: [{ id: `${name}_geo-1`, url: `#${name}_geo` }],
      extra: [
        {
          type: "studio/node/rigid_follow",
          vertex_count: base.length,
          rigidity_group: {
            id: "follow",
            rotation_mode: "full",
            scale_modes: ["none", "none", "none"],
            reference_vertices: { count: refs.length, values: refs },
          },
        },
        ...(underBody
          ? [{
            type: "studio_node_channels",
            channels: [{ channel: { id: "Follow Target", node: `#${GRAFT}-1` } }],
          }]
          : []),
      ],
    });
    followers.push({ name, written, refs, rotation: "full", scale: ["none", "none", "none"] });
  }
  return { seed, json, base, delta, dial, followers, habits: [...habits] };
}

/**
 * Where Daz draws follower `f` with the graft shape at `dial` (cm): Kabsch of its references from the
 * base; fewer than three fix no twist about their line, so the least turn carrying it (a rigidity
 * group's full turn on a line; before decode.dson v64 this said translation alone).
 */
export function expectedGraftFollower(c: GraftFollowerCase, f: FollowerCase, dial: number): V3[] {
  const mean = (ps: V3[]) =>
    ps.reduce((a, p) => a.map((x, k) => x + p[k] / ps.length) as V3, [0, 0, 0] as V3);
  const a = f.refs.map((v) => c.base[v]);
  const b = f.refs.map((v) => c.base[v].map((x, k) => x + dial * c.delta[v][k]) as V3);
  if (f.refs.length < 3) {
    const n = a.length, refs = a.map((_, k) => k), mask = f.written.map((_, k) => n + k);
    const group = { rotation: "full" as const, scale: ["none", "none", "none"] as const, refs, mask };
    return referenceRigidity([...a, ...f.written], [...b, ...f.written], undefined, [group]).slice(n);
  }
  const ca = mean(a), cb = mean(b);
  const rot = f.refs.length >= 3
    ? kabsch(a.map((p) => p.map((x, k) => x - ca[k]) as V3), b.map((p) => p.map((x, k) => x - cb[k]) as V3))
    : [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  return f.written.map((p) => {
    const d = [p[0] - ca[0], p[1] - ca[1], p[2] - ca[2]];
    return [0, 1, 2].map((k) => cb[k] + rot[k][0] * d[0] + rot[k][1] * d[1] + rot[k][2] * d[2]) as V3;
  });
}
