/**
 * Props with a `rigidity` block as tools leave them: groups as Daz Studio's rigidity authoring
 * writes them (participant and reference facets), a group whose author marked no reference facets
 * (`reference_vertices` empty, or the key absent: a script's), and a mesh reduced after its
 * rigidity was made (a decimator or a hand edit drops the last vertices, the rigidity block stays:
 * indices past the vertex count). The prop is a grid of quads; each group's participants and
 * references are a patch of it.
 *
 * What a correct decode gives: the scene decoded (never refused for a stale index); each group
 * kept with its indices inside the mesh, in order; one warning per geometry counting the indices
 * past the mesh, and one naming the groups left with no reference vertex (nothing to fit their
 * rigid transform to).
 *
 * @module
 */
import { type Json, propFile } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One group as a correct decode keeps it. */
export interface KeptGroup {
  readonly id: string;
  readonly reference: readonly number[];
  readonly mask: readonly number[];
}

/** One generated prop. */
export interface RigidityCase {
  readonly seed: number;
  readonly json: Json;
  readonly groups: readonly KeptGroup[];
  /** The weight map as a correct decode keeps it (`[vertex, weight]`). */
  readonly weights: readonly (readonly [number, number])[];
  /** Indices past the mesh, over all groups and the weight map (a warning must count them). */
  readonly stale: number;
  /** Groups with mask vertices and no reference vertex in the mesh (a warning must name them). */
  readonly unreferenced: readonly string[];
  readonly habits: readonly string[];
}

/** The case of `seed`. */
export function rigidityCase(seed: number): RigidityCase {
  const r = prng(seed);
  const side = 4 + Math.floor(r() * 5);
  const all = (side + 1) * (side + 1);
  const habits: string[] = [];
  const reduced = r() < 0.4;
  // A decimator drops the last rows of vertices (and the quads using them).
  const rows = reduced ? side - 1 - Math.floor(r() * Math.max(1, side - 3)) : side;
  if (reduced) habits.push("reduced after rigidity");
  const count = (rows + 1) * (side + 1);
  const vertices: number[][] = [];
  for (let j = 0; j <= rows; j++) for (let i = 0; i <= side; i++) vertices.push([i * 2, 0, j * 2]);
  const polys: number[][] = [];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < side; i++) {
      const a = j * (side + 1) + i;
      polys.push([0, 0, a, a + 1, a + side + 2, a + side + 1]);
    }
  }
  const patch = () => {
    const n = 2 + Math.floor(r() * 6);
    return [...new Set(Array.from({ length: n }, () => Math.floor(r() * all)))].sort((a, b) => a - b);
  };
  const groups: Json[] = [], kept: KeptGroup[] = [], unreferenced: string[] = [];
  let stale = 0;
  const n = 1 + Math.floor(r() * 3);
  for (let g = 0; g < n; g++) {
    const id = ["buckle", "button", "ring"][g];
    let reference = patch();
    const mask = patch();
    const roll = r();
    let absent = false;
    if (roll < 0.2) {
      habits.push("no reference facets");
      reference = [];
    } else if (roll < 0.3) {
      habits.push("reference key absent");
      reference = [];
      absent = true;
    }
    const group: Json = {
      id,
      rotation_mode: "full",
      scale_modes: ["primary", "secondary", "tertiary"],
      mask_vertices: { count: mask.length, values: mask },
    };
    if (!absent) group.reference_vertices = { count: reference.length, values: reference };
    groups.push(group);
    const inside = (list: number[]) => list.filter((v) => v < count);
    stale += reference.length - inside(reference).length + mask.length - inside(mask).length;
    kept.push({ id, reference: inside(reference), mask: inside(mask) });
    if (!inside(reference).length && inside(mask).length) unreferenced.push(id);
  }
  // The weight map Daz's rigidity authoring paints: the participants', some of them partial.
  const weights: [number, number][] = [];
  if (r() < 0.6) {
    habits.push("weight map");
    const painted = [...new Set(groups.flatMap((g) => (g.mask_vertices as Json).values as number[]))];
    for (const v of painted.sort((a, b) => a - b)) {
      weights.push([v, r() < 0.3 ? Math.round(r() * 100) / 100 : 1]);
    }
    stale += weights.filter(([v]) => v >= count).length;
  }
  const keptWeights = weights.filter(([v]) => v < count);
  const json = propFile({
    assetId: "/data/Vendor/Belt/Belt.dsf",
    name: "Belt",
    vertices,
    polys,
    groups: ["belt"],
    surfaces: ["Leather"],
    extra: {
      rigidity: { groups, ...(weights.length && { weights: { count: weights.length, values: weights } }) },
    },
  });
  return { seed, json, groups: kept, weights: keptWeights, stale, unreferenced, habits };
}
