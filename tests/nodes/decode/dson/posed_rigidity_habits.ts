/**
 * Posed figures whose geometry carries rigidity groups, as Daz Studio saves a dressed, posed
 * character: the posed, shaped figure of `posed_follower_habits.ts` (bones turned by tens of
 * degrees, the figure moved now and then, rigid followers on its skin) with one to three
 * `rigidity_group`s on its geometry — each a participant patch protected by a ring of reference
 * vertices around it (three of them now and then, a flat set; now and then a flat region, coplanar
 * up to the file's rounding) — written sparsely: `rotation_mode`
 * left out (the spec's none) now and then, a weight map or none, groups in no particular order,
 * frames named by `transform_nodes` or `reference`, by `#id` or by the figure file's path, or not
 * at all (principal axes).
 *
 * Where Daz puts the participants when the body shape is baked is worked out here, independently
 * (`rigidity_reference.ts`): rigidity runs with the morphs, on the mesh at rest, before skinning
 * carries it by the pose (morphs → rigidity → skinning), so a named bone's axes are its rest axes
 * (its `orientation`, in its rotation order), whatever the pose turns it by.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import type { Json } from "./generate.ts";
import { type PosedFollowerCase, posedFollowerCase } from "./posed_follower_habits.ts";
import { nodeFrameAxes, type ReferenceGroup, referenceRigidity, type V3 } from "./rigidity_reference.ts";

/** One generated scene. */
export interface PosedRigidityCase {
  readonly seed: number;
  readonly posed: PosedFollowerCase;
  readonly json: Json;
  /** The groups as the reference reads them (axes at rest, or none for principal axes). */
  readonly groups: readonly ReferenceGroup[];
  /** Rigidity weight by vertex, or undefined when the file has no weight map. */
  readonly weights?: readonly number[];
  readonly habits: readonly string[];
}

const FIGURE = "Genesis8Female";
const FILE = "/data/DAZ%203D/Genesis%208/Female/Genesis8Female.dsf";
const SIDE = 6;
const RING: [number, number][] = [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]];

/** The modes users leave on a group: Daz's default, a stretch with the surface, swings. */
const MODES: [ReferenceGroup["rotation"], ReferenceGroup["scale"]][] = [
  ["full", ["none", "none", "none"]],
  ["full", ["primary", "primary", "primary"]],
  ["primary", ["primary", "secondary", "none"]],
  ["secondary", ["none", "primary", "none"]],
  ["none", ["primary", "none", "none"]],
  ["full", ["primary", "secondary", "tertiary"]],
];

/** The case of `seed`. */
export function posedRigidityCase(seed: number): PosedRigidityCase {
  const posed = posedFollowerCase(seed);
  const json = posed.json;
  const r = prng(seed * 97 + 29);
  const habits = new Set(posed.habits);
  const library = json.node_library as Json[];
  const bones = library.filter((n) => n.type === "bone");
  const figure = library.find((n) => n.id === FIGURE)!;
  const used = new Set(posed.shape.followers.flatMap((f) => f.refs));
  // The figure's vertices, written back into the file's geometry (the same array) when flattened.
  const base = posed.shape.base as V3[];
  const groups: ReferenceGroup[] = [];
  const written: Json[] = [];
  const many = 1 + Math.floor(r() * 3);
  for (let g = 0; g < many; g++) {
    // A participant vertex away from the edge, its ring of neighbours the reference.
    let centre = -1;
    for (let tries = 0; tries < 20 && centre < 0; tries++) {
      const [i, j] = [1 + Math.floor(r() * (SIDE - 2)), 1 + Math.floor(r() * (SIDE - 2))];
      const v = j * SIDE + i;
      if (!used.has(v)) centre = v;
    }
    if (centre < 0) break;
    const [i, j] = [centre % SIDE, Math.floor(centre / SIDE)];
    const size = r() < 0.25 ? 3 : 4 + Math.floor(r() * 5);
    if (size === 3) habits.add("3 reference vertices (a flat set)");
    const refs = RING.slice(0, size).map(([di, dj]) => (j + dj) * SIDE + (i + di));
    const mask = [centre];
    [centre, ...refs].forEach((v) => used.add(v));
    if (r() < 0.35) {
      // A flat region modelled so (a plate, a belt's strip), tilted on the body: every vertex on one
      // plane, written to 4 decimals as Daz Studio does — coplanar up to that rounding.
      habits.add("flat tilted patch");
      const tilt = [r() * 0.8 - 0.4, r() * 0.8 - 0.4, 1];
      const norm = Math.hypot(...tilt);
      const n = tilt.map((x) => x / norm);
      const c = base[centre];
      for (const v of [centre, ...refs]) {
        const d = base[v].reduce((s, x, k) => s + (x - c[k]) * n[k], 0);
        // The participant stands off the plate by 0.6 cm (a stud), the ring lies on it.
        const lift = v === centre ? 0.6 : 0;
        base[v] = base[v].map((x, k) => Math.round((x + (lift - d) * n[k]) * 1e4) / 1e4) as V3;
      }
    }
    const [rotation, scale] = MODES[Math.floor(r() * MODES.length)];
    const group: Json = {
      id: `rigid_${["belt", "button", "buckle"][g]}`,
      scale_modes: [...scale],
      reference_vertices: { count: refs.length, values: refs },
      mask_vertices: { count: mask.length, values: mask },
    };
    if (rotation !== "none" || r() < 0.5) group.rotation_mode = rotation;
    else habits.add("rotation_mode left out");
    let axes: V3[] | undefined;
    const framed = r();
    if (framed < 0.75) {
      const k = Math.floor(r() * (bones.length + 1));
      const node = k === bones.length ? figure : bones[k];
      const uri = r() < 0.5 ? `#${node.id}` : `${FILE}#${node.id}`;
      if (framed < 0.45) group.transform_nodes = [uri];
      else group.reference = uri;
      const orientation = node === figure
        ? [0, 0, 0]
        : (node.orientation as { value: number }[]).map((c) => c.value);
      axes = nodeFrameAxes(orientation, [0, 0, 0], node.rotation_order as string);
      habits.add(`${framed < 0.45 ? "transform_nodes" : "reference"} ${node === figure ? "figure" : "bone"}`);
    }
    // Keys in the order a script wrote them, not the spec's.
    written.push(Object.fromEntries(Object.entries(group).sort(() => r() - 0.5)));
    groups.push({ rotation, scale, refs, mask, axes });
  }
  if (r() < 0.5) written.reverse();
  if (written.length > 1 && groups.length > 1 && written[0].id !== `rigid_belt`) {
    habits.add("groups reversed");
  }
  let weights: number[] | undefined;
  const rigidity: Json = { groups: written };
  if (r() < 0.5) {
    // Sparse: participants only, some partly rigid; every other vertex 0.
    weights = base.map(() => 0);
    const values: [number, number][] = [];
    for (const group of groups) {
      for (const v of group.mask) {
        const w = r() < 0.6 ? 1 : Math.round((0.3 + r() * 0.7) * 100) / 100;
        weights[v] = w;
        values.push([v, w]);
      }
    }
    rigidity.weights = { count: values.length, values };
    habits.add("weight map");
  }
  const geometry = (json.geometry_library as Json[])[0];
  geometry.rigidity = rigidity;
  // Groups are applied in file order (an overlap takes the last): the reference reads them so too.
  const ordered = written.map((w) =>
    groups[["rigid_belt", "rigid_button", "rigid_buckle"].indexOf(w.id as string)]
  );
  return { seed, posed, json, groups: ordered, weights, habits: [...habits] };
}

/** Where Daz puts every vertex of the figure's geometry with the body shape baked at `weight` (cm). */
export function bakedPlace(c: PosedRigidityCase, weight: number): V3[] {
  const base = c.posed.shape.base as V3[];
  const delta = c.posed.shape.deltas.get("FBMHeavy")!;
  const after = base.map((p, v) => p.map((x, k) => x + weight * delta[v][k]) as V3);
  return referenceRigidity(base, after, c.weights, c.groups);
}
