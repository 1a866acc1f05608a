/**
 * Store clothing with rigid parts, fitted to a Genesis figure whose body shapes a shape preset dials,
 * as Daz users dress and shape figures: a shirt or jacket (a tube 0.8–3.3 cm out, now and then a
 * coat hanging 12–16 cm off, which the projection fades out) with buttons that are their own
 * references, buckles and badges held by a ring of reference vertices (every rotation and per-axis
 * scale mode), a zip's teeth — a strip two vertices wide and 6–10 tall that is its own reference,
 * turned in full as Daz's zip groups are — and its pull held by the teeth beside it, now and then a
 * weight map painting parts partly, a group whose author marked no reference facets; the body's
 * `FBMHeavy` and `PBMStomachDepth` (a belly pushed forward, strongest in front) are auto_follow and
 * at 0 in the saved scene, and a shape preset dials one of them, or both, at 0.3–1.0. Daz projects
 * each onto the garment (which has no morph of the name) and applies the garment's rigidity to it
 * (formats B.10, D7).
 *
 * Where Daz draws each garment vertex is worked out here, independently of the pipeline: the ideal
 * cylinder's shapes at the vertex's angle and height (fading between 5 and 10 cm off the body), and
 * rigidity by `rigidity_reference.ts` — each projected morph fitted on its own, from rest to that
 * morph at its dial (how several projected morphs combine in Daz is not documented; a bake of one
 * does so too), their displacements summed.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import type { Json } from "./generate.ts";
import { BODY, figureFile, H, MORPH, swell } from "./swell_body.ts";
import { referenceRigidity, type V3 } from "./rigidity_reference.ts";
import {
  garmentTube,
  type KeptGroup,
  projectionFollow,
  rigidityBook,
  ringHeld,
  ROTATIONS,
  SCALES,
} from "./garment_rigidity.ts";

/** The body's second auto_follow shape: a belly pushed forward. */
export const PBM = "PBMStomachDepth";
/** PBMStomachDepth's largest push (cm), in front at mid-height. */
export const BELLY = 1.5;

/** PBMStomachDepth's delta (cm) at angle `a` and height `y` of the body's surface (front: +z). */
export const belly = (a: number, y: number) => {
  const s = BELLY * ((1 + Math.sin(a)) / 2) ** 2 * Math.sin((Math.PI * y) / H);
  return [s * Math.cos(a), 0, s * Math.sin(a)];
};

/** The body's `PBMStomachDepth` modifier (its deltas on `body()`'s tube, `vertices` with angles and heights). */
export function bellyModifier(t: { vertices: number[][]; angles: number[]; heights: number[] }): Json {
  const deltas = t.vertices.map((_, v) => [v, ...belly(t.angles[v], t.heights[v])]);
  return {
    id: PBM,
    name: PBM,
    parent: `#${BODY}_geo`,
    channel: { id: "value", type: "float", value: 0, min: -1, max: 1, clamped: true, auto_follow: true },
    morph: { vertex_count: t.vertices.length, deltas: { count: deltas.length, values: deltas } },
  };
}

/** One generated garment, the dials a preset sets, and where Daz draws it. */
export interface PresetRigidityCase {
  readonly seed: number;
  /** The garment's figure file (`Shirt`). */
  readonly file: Json;
  /** The body shapes the preset dials, and their values. */
  readonly dials: readonly (readonly [string, number])[];
  /** The garment's rest vertices (cm). */
  readonly rest: readonly V3[];
  /** How far out of the body's surface the garment hangs (cm). */
  readonly offset: number;
  readonly groups: readonly KeptGroup[];
  readonly habits: readonly string[];
  /** Where Daz draws the garment's vertices (cm) with the body shapes at `dials` (by name). */
  readonly expectedAt: (dials: readonly (readonly [string, number])[]) => V3[];
  /** The garment's rigidity (`rigidity_reference.ts`) applied to one morph's `after` positions (cm). */
  readonly rigidOf: (after: readonly V3[]) => V3[];
}

/** The case of `seed`. */
export function presetRigidityCase(seed: number): PresetRigidityCase {
  const r = prng(seed * 29 + 11);
  const habits = new Set<string>();
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  const far = r() < 0.12;
  const offset = far ? 12 + Math.round(r() * 4) : Math.round((0.8 + r() * 2.5) * 10) / 10;
  if (far) habits.add("a coat hanging 12-16 cm off the body");
  const { segments, rows, phase, t, rest, at } = garmentTube(r, offset);
  const dial = () => Math.round((0.3 + r() * 0.7) * 1000) / 1000;
  const which = r();
  const dials: [string, number][] = which < 0.45
    ? [[MORPH, dial()]]
    : which < 0.8
    ? [[PBM, dial()]]
    : [[MORPH, dial()], [PBM, dial()]];
  habits.add(`a preset dialling ${dials.map(([m, v]) => `${m} ${v}`).join(" and ")}`);
  // The front (+z, where the belly pushes) is where clothing carries its buttons and zips.
  const front = Math.round(((Math.PI / 2 - phase) / (2 * Math.PI)) * segments);
  const painted = r() < 0.4;
  const book = rigidityBook(r, painted, 0.15, habits);
  const n = 1 + Math.floor(r() * 4);
  for (let g = 0; g < n; g++) {
    const kind = r();
    const row = 1 + Math.floor(r() * (rows - 12)), seg = front + Math.floor((r() - 0.5) * segments * 0.5);
    const made: {
      id: string;
      refs: number[];
      mask: number[];
      rotation: typeof ROTATIONS[number];
      scale: typeof SCALES[number][];
    }[] = [];
    if (kind < 0.35) {
      // A button: a small patch that is its own reference.
      const size = 2 + Math.floor(r() * 2), mask: number[] = [];
      for (let j = 0; j < size; j++) for (let i = 0; i < size; i++) mask.push(at(row + j, seg + i));
      made.push({ id: `button${g}`, refs: mask, mask, rotation: "full", scale: ["none", "none", "none"] });
      habits.add("buttons their own references");
    } else if (kind < 0.65) {
      // A buckle or badge: a patch held by the ring of vertices around it.
      const { refs, mask } = ringHeld(at, row, seg, 3 + Math.floor(r() * 3), 3 + Math.floor(r() * 5));
      const rotation = pick(ROTATIONS), scale = [pick(SCALES), pick(SCALES), pick(SCALES)];
      made.push({ id: `buckle${g}`, refs, mask, rotation, scale });
      habits.add(`a buckle held by a ring (${rotation}, ${scale.join("/")})`);
    } else if (kind < 0.9) {
      // A zip: its teeth a strip two wide that is its own reference, turned in full, unscaled; its
      // pull a patch beside the top of the teeth, held by the teeth next to it.
      const tall = 6 + Math.floor(r() * 5), teeth: number[] = [];
      for (let j = 0; j < tall; j++) for (let i = 0; i < 2; i++) teeth.push(at(row + j, seg + i));
      made.push({
        id: `zip${g}`,
        refs: teeth,
        mask: teeth,
        rotation: "full",
        scale: ["none", "none", "none"],
      });
      const pull = [at(row, seg + 2), at(row + 1, seg + 2), at(row, seg + 3), at(row + 1, seg + 3)];
      const held = [at(row, seg), at(row + 1, seg), at(row + 2, seg), at(row, seg + 1), at(row + 2, seg + 1)];
      made.push({
        id: `zip${g}_pull`,
        refs: held,
        mask: pull,
        rotation: pick(ROTATIONS),
        scale: ["none", "none", "none"],
      });
      habits.add("a zip: teeth their own references, a pull held by them");
    } else {
      // Participant facets marked, reference facets never (Daz then has nothing to fit).
      const mask: number[] = [];
      for (let j = 0; j < 2; j++) for (let i = 0; i < 3; i++) mask.push(at(row + j, seg + i));
      made.push({
        id: `unreferenced${g}`,
        refs: [],
        mask,
        rotation: "full",
        scale: ["none", "none", "none"],
      });
      habits.add("a group without reference facets");
    }
    for (const m of made) book.add(m);
  }
  const file = figureFile("Shirt", { vertices: rest, polys: t.polys }, []);
  book.writeInto(file);
  // Each shape's ideal delta at each vertex's angle and height, fully within 5 cm of the body, none past 10.
  const follow = projectionFollow(offset),
    perVertex = book.perVertex(rest.length),
    reference = book.reference;
  const expectedAt = (at: readonly (readonly [string, number])[]) => {
    const out = rest.map((p) => [...p] as V3);
    for (const [morph, value] of at) {
      if (!value) continue;
      const shape = morph === PBM ? belly : swell;
      const after = rest.map((p, v) =>
        shape(t.angles[v], t.heights[v]).map((d, k) => p[k] + follow * value * d) as V3
      );
      const rigid = referenceRigidity(rest, after, perVertex, reference);
      rigid.forEach((p, v) => p.forEach((x, k) => out[v][k] += x - rest[v][k]));
    }
    return out;
  };
  const rigidOf = (after: readonly V3[]) => referenceRigidity(rest, after, perVertex, reference);
  return { seed, file, dials, rest, offset, groups: book.kept, habits: [...habits], expectedAt, rigidOf };
}
