/**
 * Garments with rigidity groups on a body whose auto_follow shape is dialled, as Daz Studio store
 * clothing ships them: buttons whose participants are their own references (Daz's examples), buckles
 * and badges whose participants are held by a ring of reference vertices around them, each group
 * with its own `rotation_mode` and per-axis `scale_modes`, now and then a weight map painting some
 * participants partly or not at all, a group an author left without reference facets, and garments
 * hanging far off the body (the projection fades out by 10 cm). The body (`swell_body.ts`) swells by
 * FBMHeavy; the garment has no morph of that name, so Daz projects it — and applies the garment's
 * rigidity to the projected morph (formats B.10, D7).
 *
 * Where Daz draws each garment vertex is worked out here from the ideal cylinder's swell at the
 * vertex's angle and height and the independent rigidity formulation (`rigidity_reference.ts`).
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import type { Json } from "./generate.ts";
import { figureFile, swell } from "./swell_body.ts";
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

/** One generated garment and where Daz draws it. */
export interface ProjectedRigidityCase {
  readonly seed: number;
  /** The garment's figure file (`Shirt`). */
  readonly file: Json;
  /** FBMHeavy's dial in the scene. */
  readonly dial: number;
  /** The garment's rest vertices and where Daz draws them (cm). */
  readonly rest: readonly V3[];
  readonly expected: readonly V3[];
  /** How far out of the body's surface the garment hangs (cm). */
  readonly offset: number;
  readonly groups: readonly KeptGroup[];
  readonly habits: readonly string[];
}

/** The case of `seed`. */
export function projectedRigidityCase(seed: number): ProjectedRigidityCase {
  const r = prng(seed * 17 + 5);
  const habits = new Set<string>();
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  const far = r() < 0.15;
  const offset = far ? 12 + Math.round(r() * 4) : Math.round((0.8 + r() * 2.5) * 10) / 10;
  if (far) habits.add("hanging 12-16 cm off the body");
  const { segments, rows, t, rest, at } = garmentTube(r, offset);
  const dial = r() < 0.2 ? 0 : Math.round((0.2 + r() * 0.8) * 1000) / 1000;
  if (!dial) habits.add("body shape at 0");
  const n = 1 + Math.floor(r() * 4);
  const painted = r() < 0.5;
  const book = rigidityBook(r, painted, 0.2, habits);
  for (let g = 0; g < n; g++) {
    const kind = r();
    const row = 1 + Math.floor(r() * (rows - 8)), seg = Math.floor(r() * segments);
    if (kind < 0.4) {
      // A button: a small patch that is its own reference.
      const size = 2 + Math.floor(r() * 2), mask: number[] = [];
      for (let j = 0; j < size; j++) for (let i = 0; i < size; i++) mask.push(at(row + j, seg + i));
      habits.add("buttons their own references");
      book.add({ id: `button${g}`, refs: mask, mask, rotation: "full", scale: ["none", "none", "none"] });
    } else if (kind < 0.85) {
      // A buckle or badge: a patch held by the ring of vertices around it.
      const { refs, mask } = ringHeld(at, row, seg, 3 + Math.floor(r() * 3), 3 + Math.floor(r() * 5));
      const rotation = pick(ROTATIONS), scale = [pick(SCALES), pick(SCALES), pick(SCALES)];
      habits.add(`a buckle held by a ring (${rotation}, ${scale.join("/")})`);
      book.add({ id: `buckle${g}`, refs, mask, rotation, scale });
    } else {
      // Participant facets marked, reference facets never (Daz then has nothing to fit).
      const mask: number[] = [];
      for (let j = 0; j < 2; j++) for (let i = 0; i < 3; i++) mask.push(at(row + j, seg + i));
      habits.add("a group without reference facets");
      book.add({ id: `unreferenced${g}`, refs: [], mask, rotation: "full", scale: ["none", "none", "none"] });
    }
  }
  const file = figureFile("Shirt", { vertices: rest, polys: t.polys }, []);
  book.writeInto(file);
  // The ideal swell at each vertex's angle and height, fading out between 5 and 10 cm off the body.
  const follow = projectionFollow(offset);
  const after = rest.map((p, v) =>
    swell(t.angles[v], t.heights[v]).map((d, k) => p[k] + follow * dial * d) as V3
  );
  const expected = referenceRigidity(rest, after, book.perVertex(rest.length), book.reference);
  return { seed, file, dial, rest, expected, offset, groups: book.kept, habits: [...habits] };
}
