/**
 * Propellers side by side drawn as one object, split sideways: a rip that merged `LPROP` and `RPROP`
 * into one `PROPS`, two engines' propellers on one wing in `Props_Left`, four engines' in `Propellers`.
 * One shaft cannot turn them; the mesh's connected pieces tell them apart where they fall into bands
 * across the aircraft (aircraft left) with clear gaps between, each band a rotor of its own — its
 * fit ({@link SideBySideOptions.fit}) not failed, with blades, its shaft parallel to the others' and
 * its disc clear of theirs. Two blades of one hubless propeller either side of its shaft make two
 * bands too, but neither is a rotor, so nothing is split; a contra-rotating pair on one shaft is one
 * band (`spin_split.ts` splits it along its shaft). Two engines' spinners glued fit well as one
 * two-blade rotor about the centre line; where the whole fits well, groups are split only when each
 * turns onto itself by a third of a turn or less, as no single blade does
 * ({@link SideBySideOptions.wholeFitsWell}).
 *
 * The node keeps the leftmost band; each other goes to a new sibling with the same transform, extras
 * and materials (`split_pieces.ts`). Two bands are named `<name>_L` and `<name>_R` as any sideways
 * split is; more are numbered from the left, `<name>_1`…`<name>_n`.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { gatherPositions, IndexOutOfRangeError } from "./geometry.ts";
import { whyNotSplittable } from "./mesh_halves.ts";
import { connectedPieces, splitNode } from "./split_pieces.ts";
import type { SpinFit } from "./spin_fit.ts";
import type { SpinGeometry } from "./spin_symmetry.ts";
import { cross, dot, type Mat4 } from "./transform.ts";

/** Bands whose lateral extents come closer than this share of the whole width are one band. */
const GAP = 0.02;

/** Shafts further apart than this are not twins on parallel shafts, degrees. */
const PARALLEL_DEGREES = 10;

/** Two-blade groups whose shafts lie further apart than this are not copies of one propeller, degrees. */
const COPY_DEGREES = 2;

/** A group no wider across the line between centres than this share of its length along it is thin. */
const THIN = 0.3;

/** How {@link splitSideBySide} fits one band as a rotor of its own. */
export interface SideBySideOptions {
  /** Fits a band's geometry (aircraft frame) as the part would be fitted. */
  readonly fit: (geometry: SpinGeometry) => SpinFit;
  /**
   * Where the whole fits well as one rotor, its groups either side of its shaft are its blades, unless
   * each turns onto itself about a shaft of its own by a third of a turn or less (round, or three blades
   * or more; a spinner drawn as a polygon of n sides fits as n "blades"), as no one blade does — a flat
   * blade turns onto itself by a half turn. Two spinners side by side fit as a two-blade rotor about the
   * centre line.
   */
  readonly wholeFitsWell?: boolean;
}

/** What {@link splitSideBySide} did: the parts, leftmost first, and each one's fit before the split. */
export interface SideBySide {
  readonly nodes: Node[];
  readonly fits: SpinFit[];
}

/**
 * Splits `node` sideways into the rotors its mesh's pieces show side by side; returns the nodes (the
 * first is `node`) or, where its pieces make no two bands, undefined; or why bands that look like two
 * rotors or more cannot be split (a string, for the warning).
 *
 * @example
 * ```ts
 * splitSideBySide(doc, props, toAircraft, { fit: (g) => fitSpinAxis(g, options) }); // PROPS_L, PROPS_R
 * ```
 */
export function splitSideBySide(
  doc: Document,
  node: Node,
  toAircraft: Mat4,
  options: SideBySideOptions,
): SideBySide | string | undefined {
  if (!node.getMesh() || node.getSkin()) return undefined;
  const first = pieces(node, toAircraft);
  if (!first) return undefined;
  // Cut at the widest gaps first: a hubless rotor's blades leave gaps about its shaft narrower than
  // the gap between two engines' discs. Up to four rotors.
  const gaps = first.gaps.map((g, k) => ({ ...g, k })).sort((a, b) => b.width - a.width);
  // The fewest cuts leaving every group a good rotor; else the fewest leaving each a rotor (a group
  // still holding two rotors may fit weak); for copies of a two-blade propeller, the most.
  let chosen: { cuts: number[]; fits: SpinFit[] } | undefined;
  for (let n = 1; n <= Math.min(3, gaps.length); n++) {
    const cuts = gaps.slice(0, n).map((g) => g.at).sort((a, b) => b - a);
    const geometries = groupGeometries(first, cuts), fits = geometries.map(options.fit);
    const copiesOnly = options.wholeFitsWell && !fits.every((f) => f.blades === 0 || f.blades >= 3);
    if (
      !rotorsSideBySide(fits) ||
      (copiesOnly && !twoBladeCopies(fits, geometries, piecesPerGroup(first, cuts)))
    ) {
      continue;
    }
    if (copiesOnly) {
      // Two copies side by side are a copy too (a half turn about their middle): the most cuts whose
      // groups are all copies, so that four engines' copies are not left two to a part.
      chosen = { cuts, fits };
      continue;
    }
    chosen ??= { cuts, fits };
    if (fits.every((f) => f.confidence === "good")) {
      chosen = { cuts, fits };
      break;
    }
  }
  if (!chosen) return undefined;
  const why = whyNotSplittable(node, { guides: true });
  if (why) return why;
  const { cuts, fits } = chosen;
  const name = node.getName();
  const nodes = [node];
  // Peel the rightmost group off into a sibling, again and again: each split re-gathers what is left.
  for (let last = cuts.length; last > 0; last--) {
    const now = pieces(node, toAircraft);
    if (!now) break;
    const groupOf = now.lateral.map((l) => groupAt((l.min + l.max) / 2, cuts));
    const far = splitNode(doc, node, now.pieceOf, groupOf.map((g) => (g === last ? "right" : "left")));
    nodes.splice(1, 0, far);
  }
  const names = nodes.length === 2 ? ["L", "R"] : nodes.map((_, k) => `${k + 1}`);
  nodes.forEach((n, k) => {
    n.setName(`${name}_${names[k]}`);
    n.getMesh()!.setName(`${name}_${names[k]}`);
  });
  return { nodes, fits };
}

/**
 * True when fits of groups side by side (leftmost first) show one rotor each: not failed, blades
 * counted (or round), not one blade, shafts parallel, each disc clear of its neighbour's.
 */
function rotorsSideBySide(fits: readonly SpinFit[]): boolean {
  if (!fits.every(isRotor)) return false;
  const cos = Math.cos((PARALLEL_DEGREES * Math.PI) / 180);
  if (!fits.every((f) => Math.abs(dot(f.axis, fits[0].axis)) >= cos)) return false;
  // A blade group of one rotor reaches to its neighbour's shaft; discs side by side clear each other.
  for (let k = 1; k < fits.length; k++) {
    const apart = Math.abs(fits[k].centre[2] - fits[k - 1].centre[2]);
    if (apart < 0.9 * (fits[k].radius + fits[k - 1].radius)) return false;
  }
  return true;
}

/**
 * True when every group fits well as a two-blade rotor about the very shaft of the others: one
 * propeller copied across to the other engine (moved, not mirrored), which the whole's half turn about
 * the centre line cannot tell from one two-blade rotor. A loose blade of a hubless rotor turns onto
 * itself too: pitched, about its face's normal, which leans one way on one blade and the other way on
 * the blade opposite; flat (a plate), about the shaft, but it is one piece lying end to end with the
 * blade opposite (see {@link linedUp}). A plank propeller (one flat box) copied with its blades across
 * the aircraft cannot be told from such a rotor and stays whole.
 */
function twoBladeCopies(
  fits: readonly SpinFit[],
  geometries: readonly SpinGeometry[],
  pieceCounts: readonly number[],
): boolean {
  const cos = Math.cos((COPY_DEGREES * Math.PI) / 180);
  const parallel = fits.every((f) =>
    f.blades === 2 && f.confidence === "good" && f.axisFrom === "half_turn" &&
    Math.abs(dot(f.axis, fits[0].axis)) >= cos
  );
  return parallel && fits.every((_, k) =>
    k === 0 || pieceCounts[k - 1] >= 2 || pieceCounts[k] >= 2 ||
    !linedUp(fits[k - 1], fits[k], geometries[k - 1], geometries[k])
  );
}

/**
 * True when two neighbouring groups are each long and thin along the line between their centres, as
 * one rotor's two loose blades lie end to end through its shaft; copies' blades lie at any angle.
 */
function linedUp(a: SpinFit, b: SpinFit, ga: SpinGeometry, gb: SpinGeometry): boolean {
  const between = b.centre.map((v, i) => v - a.centre[i]);
  const along = between.map((v, i) => v - dot(between, a.axis) * a.axis[i]);
  const size = Math.hypot(...along);
  if (!(size > 0)) return false;
  const d = along.map((v) => v / size), across = cross(a.axis, d);
  const extent = (g: SpinGeometry, u: readonly number[]) => {
    let min = Infinity, max = -Infinity;
    for (let i = 0; i < g.count; i++) {
      const t = g.positions[3 * i] * u[0] + g.positions[3 * i + 1] * u[1] + g.positions[3 * i + 2] * u[2];
      min = Math.min(min, t), max = Math.max(max, t);
    }
    return max - min;
  };
  return extent(ga, across) <= THIN * extent(ga, d) && extent(gb, across) <= THIN * extent(gb, d);
}

/** The group (0 leftmost) of a lateral position, given the cuts between groups, leftmost first. */
function groupAt(z: number, cuts: readonly number[]): number {
  let g = 0;
  while (g < cuts.length && z < cuts[g]) g++;
  return g;
}

/** A band's fit that shows a rotor: not failed, blades counted (or round), not one blade. */
function isRotor(fit: SpinFit): boolean {
  return fit.confidence !== "failed" && fit.blades !== 1 && fit.axisFrom !== "frame";
}

/** The node's mesh's pieces (aircraft frame) and the gaps across the aircraft between them. */
function pieces(node: Node, toAircraft: Mat4) {
  let gathered;
  try {
    gathered = gatherPositions(node, toAircraft, { descend: false, triangles: true });
  } catch (error) {
    if (error instanceof IndexOutOfRangeError) return undefined;
    throw error;
  }
  if (!gathered.triangles || gathered.count === 0) return undefined;
  const { pieceOf, lateral } = connectedPieces(gathered.positions, gathered.count, gathered.triangles);
  if (lateral.length < 2) return undefined;
  const min = Math.min(...lateral.map((l) => l.min)), max = Math.max(...lateral.map((l) => l.max));
  const least = GAP * (max - min);
  // From the left (largest aircraft z): where no piece reaches across, a gap.
  const order = lateral.map((_, k) => k).sort((a, b) => lateral[b].max - lateral[a].max);
  const gaps: { at: number; width: number }[] = [];
  let edge = Infinity;
  for (const k of order) {
    if (edge !== Infinity && lateral[k].max < edge - least) {
      gaps.push({ at: (lateral[k].max + edge) / 2, width: edge - lateral[k].max });
    }
    edge = Math.min(edge, lateral[k].min);
  }
  return { gathered, pieceOf, lateral, gaps };
}

/** Each group's geometry, the groups cut at `cuts` (leftmost first). */
function groupGeometries(
  found: NonNullable<ReturnType<typeof pieces>>,
  cuts: readonly number[],
): SpinGeometry[] {
  const groupOf = Int32Array.from(found.lateral.map((l) => groupAt((l.min + l.max) / 2, cuts)));
  return Array.from(
    { length: cuts.length + 1 },
    (_, g) => bandGeometry(found.gathered, found.pieceOf, groupOf, g),
  );
}

/** How many of the mesh's pieces each group holds, the groups cut at `cuts` (leftmost first). */
function piecesPerGroup(found: NonNullable<ReturnType<typeof pieces>>, cuts: readonly number[]): number[] {
  const counts = new Array<number>(cuts.length + 1).fill(0);
  for (const l of found.lateral) counts[groupAt((l.min + l.max) / 2, cuts)]++;
  return counts;
}

/** The vertices and triangles of one band, renumbered. */
function bandGeometry(
  gathered: { positions: Float64Array; count: number; triangles?: Uint32Array },
  pieceOf: Int32Array,
  bandOfPiece: Int32Array,
  band: number,
): SpinGeometry {
  const index = new Int32Array(gathered.count).fill(-1);
  const positions: number[] = [];
  for (let i = 0; i < gathered.count; i++) {
    if (pieceOf[i] < 0 || bandOfPiece[pieceOf[i]] !== band) continue;
    index[i] = positions.length / 3;
    positions.push(gathered.positions[i * 3], gathered.positions[i * 3 + 1], gathered.positions[i * 3 + 2]);
  }
  const triangles: number[] = [];
  const t = gathered.triangles!;
  for (let k = 0; k + 2 < t.length; k += 3) {
    if (index[t[k]] >= 0) triangles.push(index[t[k]], index[t[k + 1]], index[t[k + 2]]);
  }
  return {
    positions: Float64Array.from(positions),
    count: positions.length / 3,
    triangles: Uint32Array.from(triangles),
  };
}
