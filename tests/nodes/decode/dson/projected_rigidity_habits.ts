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
import { figureFile, R, swell, tube } from "./swell_body.ts";
import { type ReferenceGroup, referenceRigidity, type V3 } from "./rigidity_reference.ts";

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
  /** Each group's id, its participants, and whether it has no reference vertex. */
  readonly groups: readonly {
    readonly id: string;
    readonly mask: readonly number[];
    readonly unreferenced: boolean;
  }[];
  readonly habits: readonly string[];
}

const ROTATIONS = ["none", "full", "primary", "secondary"] as const;
const SCALES = ["none", "primary", "secondary", "tertiary"] as const;

/** The case of `seed`. */
export function projectedRigidityCase(seed: number): ProjectedRigidityCase {
  const r = prng(seed * 17 + 5);
  const habits = new Set<string>();
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  const far = r() < 0.15;
  const offset = far ? 12 + Math.round(r() * 4) : Math.round((0.8 + r() * 2.5) * 10) / 10;
  if (far) habits.add("hanging 12-16 cm off the body");
  const segments = 48 + Math.floor(r() * 33), rows = 14 + Math.floor(r() * 8);
  const ys = Array.from({ length: rows }, (_, j) => Math.round((3 + j * (34 / (rows - 1))) * 1e4) / 1e4);
  const phase = Math.round(r() * 1000) / 1000;
  // Coordinates written to 7 significant digits, as Daz writes them.
  const t = tube(R + offset, segments, ys, phase);
  const rest = t.vertices.map((p) => p.map((x) => +x.toPrecision(7)) as V3);
  const dial = r() < 0.2 ? 0 : Math.round((0.2 + r() * 0.8) * 1000) / 1000;
  if (!dial) habits.add("body shape at 0");
  const at = (row: number, s: number) => row * segments + ((s % segments) + segments) % segments;
  const groups: Json[] = [], reference: ReferenceGroup[] = [];
  const kept: { id: string; mask: number[]; unreferenced: boolean }[] = [];
  const n = 1 + Math.floor(r() * 4);
  const weights = new Map<number, number>();
  const painted = r() < 0.5;
  for (let g = 0; g < n; g++) {
    const kind = r();
    const row = 1 + Math.floor(r() * (rows - 8)), seg = Math.floor(r() * segments);
    let refs: number[] = [], mask: number[] = [], id: string;
    let rotation: typeof ROTATIONS[number] = "full";
    let scale: [typeof SCALES[number], typeof SCALES[number], typeof SCALES[number]] = [
      "none",
      "none",
      "none",
    ];
    if (kind < 0.4) {
      // A button: a small patch that is its own reference.
      id = `button${g}`;
      const size = 2 + Math.floor(r() * 2);
      for (let j = 0; j < size; j++) for (let i = 0; i < size; i++) mask.push(at(row + j, seg + i));
      refs = [...mask];
      habits.add("buttons their own references");
    } else if (kind < 0.85) {
      // A buckle or badge: a patch held by the ring of vertices around it.
      id = `buckle${g}`;
      const h = 3 + Math.floor(r() * 3), w = 3 + Math.floor(r() * 5);
      for (let j = -1; j <= h; j++) {
        for (let i = -1; i <= w; i++) {
          const v = at(row + 1 + j, seg + i);
          if (j < 0 || j === h || i < 0 || i === w) refs.push(v);
          else mask.push(v);
        }
      }
      rotation = pick(ROTATIONS);
      scale = [pick(SCALES), pick(SCALES), pick(SCALES)];
      habits.add(`a buckle held by a ring (${rotation}, ${scale.join("/")})`);
    } else {
      // Participant facets marked, reference facets never (Daz then has nothing to fit).
      id = `unreferenced${g}`;
      for (let j = 0; j < 2; j++) for (let i = 0; i < 3; i++) mask.push(at(row + j, seg + i));
      habits.add("a group without reference facets");
    }
    mask = [...new Set(mask)].sort((a, b) => a - b);
    refs = [...new Set(refs)].sort((a, b) => a - b);
    if (painted) {
      // Painted: most fully rigid, some partly, now and then a whole group left unpainted.
      const off = r() < 0.2;
      if (off) habits.add("a group painted 0");
      for (const v of mask) weights.set(v, off ? 0 : r() < 0.3 ? Math.round(r() * 100) / 100 : 1);
    }
    groups.push({
      id,
      rotation_mode: rotation,
      scale_modes: scale,
      reference_vertices: { count: refs.length, values: refs },
      mask_vertices: { count: mask.length, values: mask },
    });
    reference.push({ rotation, scale, refs, mask });
    kept.push({ id, mask, unreferenced: !refs.length });
  }
  if (painted) habits.add("weight map");
  const file = figureFile("Shirt", { vertices: rest, polys: t.polys }, []);
  const entries = [...weights].filter(([, w]) => w > 0).sort((a, b) => a[0] - b[0]);
  (file.geometry_library as Json[])[0].rigidity = {
    groups,
    ...(painted ? { weights: { count: entries.length, values: entries } } : {}),
  };
  // The ideal swell at each vertex's angle and height, fully within 5 cm of the body, none past 10.
  const follow = offset <= 5 ? 1 : offset >= 10 ? 0 : 1 - (offset - 5) / 5;
  const after = rest.map((p, v) =>
    swell(t.angles[v], t.heights[v]).map((d, k) => p[k] + follow * dial * d) as V3
  );
  const perVertex = painted ? rest.map((_, v) => weights.get(v) ?? 0) : undefined;
  const expected = referenceRigidity(rest, after, perVertex, reference);
  return { seed, file, dial, rest, expected, offset, groups: kept, habits: [...habits] };
}
