/**
 * What a pivot's hinge was fitted to, kept on the pivot so a later run can tell an edited panel from
 * an unedited one: the panel's bounding box and area-weighted centroid in the pivot's own frame
 * (`extras.partgraph.part.fitted_to`). In that frame the numbers do not change when the whole pivot
 * moves (the hinge moves with it, rightly), nor when a tool writes the mesh again in another vertex
 * order, splits vertices at seams and sharp edges or welds them (a box and a surface centroid count no
 * vertex twice), nor when the panel turns about the pivot's X (the hinge line stays the hinge: see
 * {@link panelDrift}), and only by float32 rounding through Blender 3.4 (by at most 2e-6 of the panel's size, measured on
 * the demo fighter and the Sketchbook airplane). They
 * change when the panel is moved, turned or resized under its pivot, or its mesh re-modelled.
 *
 * Both are read over what the panel's triangles with an area draw (`drawn_vertices.ts`): vertices no
 * triangle draws — a deleted face's corner, a stray at the origin, the rest of a game rip's one buffer,
 * loose edges — are what an exporter drops (Blender's writes only the vertices faces use, and no loose
 * edges by default), so a box reaching to them made a panel look edited once written again.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { type GatheredPositions, gatherPositions, positionBounds } from "./geometry.ts";
import { invertAffine, linearDeterminant, type Vec3 } from "./transform.ts";
import type { LocalMeshes } from "./local_meshes.ts";
import { drawnOnly } from "./drawn_vertices.ts";

/** A panel's geometry in its pivot's frame (pivot units). */
export interface FittedGeometry {
  /** Bounding box corners. */
  min: Vec3;
  max: Vec3;
  /** Area-weighted centroid of its triangles (the vertex mean when it has none). */
  centroid: Vec3;
}

/**
 * Largest change, as a share of the panel's size (its box's diagonal), below which a panel counts as
 * unedited. Blender's round trip changes the numbers by at most 2e-6 of the size (float32 positions and
 * transforms); a user's smallest deliberate edit on a metre-sized flap, 1 mm, is 1e-3 of it.
 */
export const EDITED_FRACTION = 1e-4;

/** Largest change, as a share of the panel's size, that a turn about the hinge must explain: 5× Blender's noise. */
export const TURN_FRACTION = 1e-5;

/**
 * The geometry under `panel` in `pivot`'s frame, or undefined when it draws no vertex (a skin bone).
 * `meshes`, a run's memo, reads a mesh many panels draw once for them all (the same numbers).
 */
export function fittedGeometry(pivot: Node, panel: Node, meshes?: LocalMeshes): FittedGeometry | undefined {
  // A pivot under a group shrunk to 0 (hidden damage copies, `hidden_scale.ts`) has no frame to read in.
  if (Math.abs(linearDeterminant(pivot.getWorldMatrix())) < 1e-300) return undefined;
  const frame = invertAffine(pivot.getWorldMatrix());
  if (!meshes) return describe(drawn(gatherPositions(panel, frame, { triangles: true })), 0);
  // The box from the memo's ranges (the same numbers), the placed positions only for the centroid.
  const gathered = meshes.gather(panel, frame, true, true);
  if (gathered.count === 0) return undefined;
  const ranges = ([0, 1, 2] as const).map((k) => meshes.axisBounds(panel, frame, k)!);
  const box = { min: ranges.map((r) => r.min) as Vec3, max: ranges.map((r) => r.max) as Vec3 };
  return describe(gathered, 0, box);
}

/**
 * How far the panel moved since `record`, pivot units, and the turn about the pivot's X (radians)
 * that best explains it: a turn about the hinge line leaves the line the hinge (a panel deflected in
 * Blender, or Blender's Z-up export, which turns every node's frame 90° about X). `mirrored` when the
 * pivot's frame has since lost or gained a mirror that the panel did not (Blender's Apply Scale on a
 * parent scaled −1: the world geometry and the hinge line stay, the frame no longer mirrors, so the
 * panel reads point-reflected through the pivot's origin). Undefined when the panel draws no vertex
 * now.
 */
export function panelDrift(
  record: FittedGeometry,
  pivot: Node,
  panel: Node,
): { drift: number; turn: number; mirrored: boolean; now: FittedGeometry } | undefined {
  const every = gatherPositions(panel, invertAffine(pivot.getWorldMatrix()), { triangles: true });
  const gathered = drawn(every);
  const now = describe(gathered, 0);
  if (!now) return undefined;
  const drift = geometryDrift(record, now);
  if (drift <= EDITED_FRACTION * geometrySize(record)) return { drift, turn: 0, mirrored: false, now };
  // A record written before boxes were read over what is drawn (rig.insert_pivot before v16) reached
  // to every vertex: the panel unedited still reads so, and keeps its pivot.
  if (gathered.count < every.count) {
    const old = geometryDrift(record, describe(every, 0)!);
    if (old <= EDITED_FRACTION * geometrySize(record)) return { drift: old, turn: 0, mirrored: false, now };
  }
  const angle = (c: Vec3) => Math.atan2(c[2], c[1]);
  // A turn (of a frame mirrored or not) explains the change only to float noise: a small move across a
  // thin panel is nearly a turn about the hinge too (1 mm across a 2.4 m aileron: within 6e-5 of its
  // size after a 0.25° turn back).
  const reflected = reflect(gathered);
  for (const [positions, mirrored] of [[gathered, false], [reflected, true]] as const) {
    const centroid = mirrored ? describe(positions, 0)!.centroid : now.centroid;
    // The turns tried: Blender's axis conversions, and the one that brings the centroid back.
    const turns = [0, Math.PI / 2, -Math.PI / 2, Math.PI, angle(record.centroid) - angle(centroid)];
    for (const turn of mirrored ? turns : turns.slice(1)) {
      const turned = geometryDrift(record, describe(positions, turn)!);
      if (turned <= TURN_FRACTION * geometrySize(record)) return { drift: turned, turn, mirrored, now };
    }
  }
  return { drift, turn: 0, mirrored: false, now };
}

/** `gathered` without the vertices no triangle with an area draws (drawnOnly keeps doubles doubles). */
const drawn = (gathered: GatheredPositions) => drawnOnly(gathered) as GatheredPositions;

/** Gathered positions reflected through the pivot's origin (a mirror the frame lost or gained, see above). */
function reflect(gathered: GatheredPositions): GatheredPositions {
  return { ...gathered, positions: gathered.positions.map((x) => -x) };
}

/**
 * Box and surface centroid of gathered positions turned by `turn` radians about X; `box`, when given,
 * is their box as `positionBounds` finds it (unturned).
 */
function describe(
  gathered: GatheredPositions,
  turn: number,
  box?: { min: Vec3; max: Vec3 },
): FittedGeometry | undefined {
  if (gathered.count === 0) return undefined;
  const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
  const p = turn === 0 ? gathered.positions : Float64Array.from(gathered.positions);
  if (turn !== 0) {
    for (let o = 0; o < gathered.count * 3; o += 3) {
      const [y, z] = [p[o + 1], p[o + 2]];
      p[o + 1] = cos * y - sin * z;
      p[o + 2] = sin * y + cos * z;
    }
  }
  const bounds = box && turn === 0 ? box : positionBounds({ positions: p, count: gathered.count })!;
  const triangles = gathered.triangles ?? new Uint32Array(0);
  const sum = [0, 0, 0];
  let area = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = 3 * triangles[t], b = 3 * triangles[t + 1], c = 3 * triangles[t + 2];
    // Scalars, not arrays: this runs once per triangle of every panel the rig pivots.
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const w = Math.sqrt(nx * nx + ny * ny + nz * nz);
    area += w;
    sum[0] += w * (p[a] + p[b] + p[c]);
    sum[1] += w * (p[a + 1] + p[b + 1] + p[c + 1]);
    sum[2] += w * (p[a + 2] + p[b + 2] + p[c + 2]);
  }
  let centroid: number[];
  if (area > 0) centroid = sum.map((s) => s / (3 * area));
  else {
    centroid = [0, 0, 0];
    for (let i = 0; i < gathered.count * 3; i++) centroid[i % 3] += p[i] / gathered.count;
  }
  // Seven significant digits: float32's, so the record is no longer than what it describes.
  const round = (v: readonly number[]) => v.map((x) => Number(x.toPrecision(7)) + 0) as Vec3;
  return { min: round(bounds.min), max: round(bounds.max), centroid: round(centroid) };
}

/** The panel's size: its box's diagonal. */
export function geometrySize(g: FittedGeometry): number {
  return Math.hypot(g.max[0] - g.min[0], g.max[1] - g.min[1], g.max[2] - g.min[2]);
}

/**
 * How far the geometry moved between two records, pivot units: the largest change of a box face or
 * of the centroid along any axis (a turn of the panel moves its box's faces and its centroid too).
 */
export function geometryDrift(before: FittedGeometry, after: FittedGeometry): number {
  let drift = 0;
  for (const key of ["min", "max", "centroid"] as const) {
    for (let k = 0; k < 3; k++) drift = Math.max(drift, Math.abs(after[key][k] - before[key][k]));
  }
  return drift;
}

/** The record of the geometry scaled by `k` about the pivot's origin. */
export function scaledGeometry(g: FittedGeometry, k: number): FittedGeometry {
  const scale = (v: Vec3) => v.map((x) => x * k) as Vec3;
  return { min: scale(g.min), max: scale(g.max), centroid: scale(g.centroid) };
}

/** True for a `fitted_to` record of the shape {@link fittedGeometry} writes (a file may carry anything). */
export function isFittedGeometry(value: unknown): value is FittedGeometry {
  const vec = (v: unknown) => Array.isArray(v) && v.length === 3 && v.every((x) => Number.isFinite(x));
  const g = value as FittedGeometry | undefined;
  return typeof g === "object" && g !== null && vec(g.min) && vec(g.max) && vec(g.centroid);
}
