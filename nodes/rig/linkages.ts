/**
 * Control linkages carried in a surface's own geometry: the pushrod (or a mass-balance arm) and the
 * control horn it ends at, as RC and sim models draw them — a horn plate or box standing off the skin
 * at the hinge line, a thin bar or 6–12-sided cylinder running forward from its tip toward the servo
 * in the body. They turn with the surface but are no part of it: left in, they stand outside its
 * sections as a dropped hinge's brackets do (`hanging.ts`), and a right hinge was judged weak for them
 * (held-out, 188 of 296 surfaces carrying a rod; 5 after). They are recognised by shape and
 * connectivity after the fit's first pass, and the fit is taken again without them:
 *
 * - the geometry falls into islands (vertices joined by triangles, or at one position: an export that
 *   splits every face's corners is still one part);
 * - a **rod** is an island long and thin (its length over a third of the chord and five times its
 *   thickness, under a third of the chord thick) running forward from near the surface (its aft end
 *   not ahead of the nose by a tenth of the chord) to ahead of the nose (by over a tenth), at least
 *   0.3 chord along the flow: a dropped hinge's bracket is a plate, not a bar; and ending by the hinge
 *   (its aft end in the front half of the chord): an airliner flap's canoe fairing, a long pod about
 *   its track running forward under the wing, runs aft past the trailing edge, and it hangs the flap;
 * - the **horn** is the compact island (no side over 0.7 chord) at the rod's aft end: its box within
 *   a few hundredths of the chord of it, and the one at its fore end (a balance arm's weight). One
 *   island per rod end; a bracket elsewhere along the span stays.
 *
 * - a **horn with no rod** (the pushrod drawn with the body, as real models often have it): when all
 *   that is left outside the sections lies in compact islands off the skin reaching no more than a
 *   tenth of the chord ahead of the lead, each a plate or box (over 0.08 chord, or a fifth of its
 *   length, across both its larger ways: a thin strut is a lone bracket's arm), and at each place along the span (within 0.3 chord)
 *   one stands **above** the surface, or a pair above and below. A horn hanging below alone has a
 *   dropped hinge's bracket's shape and place — a plate or a fairing from the lower skin down to a
 *   pivot by the nose — and taken out, the one sign of that hinge is lost and the line at the nose is
 *   judged good: a dropped hinge never hangs above, so what hangs only below stays (and is judged so,
 *   weak). Where the surface stands too steep for above to be told (a fin, a rudder, a ventral fin, a
 *   V-tail canted past 60°) a horn on either face is one: no rudder is hung on a hinge dropped to one
 *   side, and before v75 every such horn left its rudder weak (held-out fin_horns.ts seeds 7000-7499:
 *   136 of 400 fin and twin-fin rudders right but weak -> 0).
 *
 * - **names** corroborate, never override: a horn hanging below alone whose node is named as a horn or
 *   rod (`ElevatorHorn`, `Ruderhorn`, `guignol`, `Pushrod_L`: `vocabulary_linkages.ts`) is a horn; a
 *   part named a bracket or fairing that its shape makes a linkage, and one named a linkage that is
 *   left hanging, are named in a doubt the fit warns of.
 *
 * What is left — brackets, fairings, horns hanging below alone — still hangs and is judged so.
 *
 * @module
 */
import { type Island, islandsOf, MAX_ISLANDS } from "./linkage_islands.ts";
import type { PanelCoordinates } from "./edge_stations.ts";
import { MARGIN } from "./hanging.ts";
import type { SectionEnvelope } from "./section_envelope.ts";
import type { LinkageNames } from "./linkage_names.ts";

/** How far ahead of the sections' lead (share of the chord) a rod must reach. */
export const ROD_REACH = 0.1;
/** A rod runs forward: its fore end at least this share of the chord ahead of its aft end. */
const ROD_RUN = 0.3;
/** A rod is at least this long (share of the chord) and this many times longer than thick. */
const ROD_LENGTH = 0.35, ROD_ASPECT = 5;
/** A rod is thinner than this share of the chord (a game model's chunky bar is a fifth). */
const ROD_THICKNESS = 0.33;
/** A horn is no longer than this share of the chord any way. */
const HORN_SIZE = 0.7;
/** A horn below and one above within this share of the chord along the span are a pair at one place. */
const HORN_PLACE = 0.3;
/** A horn reaches no further ahead of the lead than this share of the chord (a bracket's pivot lug may). */
const HORN_AHEAD = 0.1;
/**
 * A horn (a plate or box) is at least this share of the chord across in its two larger directions, or
 * a fifth of its length ({@link ROD_ASPECT}): a strut is thinner both ways.
 */
const HORN_BASE = 0.08;
/** A rod ends at its horn by the hinge: no further aft of the lead than this share of the chord. */
const ROD_AFT = 0.5;
/** Above and below are told only where the surface's thickness direction is this near the aircraft's up. */
const LEVEL = 0.5;
/** How near (share of the chord, beyond the rod's own radius) a horn's vertex must be to the rod's end. */
const TOUCHING = 0.06;

/**
 * The vertices of linkages (pushrods or balance arms and the horns they end at) in a panel's geometry,
 * by the module doc's rules; empty when there are none. `coords` are the panel's coordinates,
 * `envelope` its sections', `chord` its chord length, `up` the aircraft's up along the panel's thickness
 * direction (the normal's up component: its sign says which side is above; 0 when unknown), `names` the
 * linkage names of the vertices' nodes (`linkage_names.ts`), and `doubts` collects where name and
 * shape disagree.
 *
 * @example
 * ```ts
 * const linked = linkageVertices(coords, envelope, triangles, chord);
 * linked.size; // 0 for a surface with nothing driving it
 * ```
 */
export function linkageVertices(
  coords: PanelCoordinates,
  envelope: SectionEnvelope,
  triangles: Uint32Array,
  chord: number,
  up = 0,
  names?: LinkageNames,
  doubts?: string[],
): Set<number> {
  const linked = new Set<number>();
  if (!(chord > 0)) return linked;
  // No vertex ahead of the nose, no rod; what stands outside the sections spread along the span, no
  // horn alone: one numeric pass spares most panels (brackets, a hostile mesh's thousands of panels)
  // the islands' pass.
  let ahead = false;
  const outside: number[] = [];
  for (let i = 0; i < coords.u.length; i++) {
    const u = coords.u[i], v = coords.chordAt(i), w = coords.thicknessAt(i);
    if (!ahead) ahead = envelope.chordPosition(u, v, w) < -ROD_REACH;
    if (u >= envelope.first && u <= envelope.last && envelope.beyond(u, v, w, MARGIN) > MARGIN) {
      outside.push(i);
    }
  }
  if (!ahead && outside.length === 0) return linked;
  const islands = islandsOf(coords, triangles, 1e-6 * chord);
  if (islands.length === 0 || islands.length > MAX_ISLANDS) return linked;
  const used = new Set<Island>();
  for (const rod of islands) {
    const [length, thick] = rod.extents;
    if (!(length >= ROD_LENGTH * chord && length >= ROD_ASPECT * thick && thick <= ROD_THICKNESS * chord)) {
      continue;
    }
    const [a, b] = rod.ends;
    const at = (p: readonly number[]) => envelope.chordPosition(p[0], p[1], p[2]);
    const [fore, aft] = at(a) < at(b) ? [a, b] : [b, a];
    // Ahead of the nose, running forward from near the surface (its aft end not ahead too).
    if (!(at(fore) < -ROD_REACH && at(aft) - at(fore) >= ROD_RUN && at(aft) >= -ROD_REACH)) continue;
    // Ending by the hinge, at its horn: a canoe fairing runs on aft past the trailing edge.
    if (at(aft) > ROD_AFT) continue;
    used.add(rod);
    // The horn: the compact island whose box lies nearest the rod's aft end, within touching distance.
    const reach = TOUCHING * chord + thick / 2;
    const horn = touching(islands, used, aft, reach, chord);
    for (const v of rod.vertices) linked.add(v);
    if (horn) {
      used.add(horn);
      for (const v of horn.vertices) linked.add(v);
    }
    // A balance arm's weight at its fore end turns with it too (a pushrod's clevis, a bellcrank).
    const weight = touching(islands, used, fore, reach, chord);
    if (weight) {
      used.add(weight);
      for (const v of weight.vertices) linked.add(v);
    }
  }
  const left = outside.filter((i) => !linked.has(i));
  for (const v of hornsAlone(coords, envelope, islands, used, left, chord, up, names)) linked.add(v);
  if (names && doubts) doubtsOf(islands, linked, new Set(outside), names, doubts);
  return linked;
}

/**
 * The vertices of control horns with no rod (the pushrod drawn with the body): when everything left
 * standing outside the sections (`outside`) is in islands not `used` that are compact (no side over
 * {@link HORN_SIZE} of the chord), plates or boxes reaching no further ahead of the lead than
 * {@link HORN_AHEAD}, and at every place along the span one of them stands above the surface (`up`:
 * see {@link linkageVertices}). What hangs only below may be a dropped hinge's bracket: empty then.
 */
function hornsAlone(
  coords: PanelCoordinates,
  envelope: SectionEnvelope,
  islands: readonly Island[],
  used: ReadonlySet<Island>,
  outside: readonly number[],
  chord: number,
  up: number,
  names?: LinkageNames,
): number[] {
  if (outside.length === 0) return [];
  const owner = new Map<number, Island>();
  for (const island of islands) {
    if (used.has(island)) continue;
    for (const v of island.vertices) owner.set(v, island);
  }
  // Each horn's vertices outside the sections above the surface and below it.
  const sides = new Map<Island, { above: number; below: number }>();
  for (const i of outside) {
    const island = owner.get(i);
    // Outside the sections but in the skin (or a scrap): no horn standing on it.
    if (!island || island.extents[0] > HORN_SIZE * chord) return [];
    const side = sides.get(island) ?? { above: 0, below: 0 };
    sides.set(island, side);
    if (envelope.above(coords.u[i], coords.chordAt(i), coords.thicknessAt(i)) === up > 0) side.above++;
    else side.below++;
  }
  const found: number[] = [];
  for (const [horn, side] of sides) {
    // Thin both ways across its length, it is a strut (a lone bracket's arm, a mast), not a horn's
    // plate or box: under HORN_BASE of the chord across and a rod's aspect (ROD_ASPECT times longer
    // than wide). A horn sized to a rudder on an all-moving fin (its chord the whole fin's, three times
    // the rudder's) is under HORN_BASE but a plate or box as wide as a third of its length or more:
    // taken for a strut, it left 9 of 100 such fins weak, their shafts right (fin_horns.ts 13000-13499).
    if (horn.extents[1] < HORN_BASE * chord && horn.extents[1] < horn.extents[0] / ROD_ASPECT) return [];
    // Hanging below, a horn must have one standing above at its place (a pair): else it may be a
    // dropped hinge's bracket.
    // ... unless its name says it is a horn (or the rod's end).
    const level = Math.abs(up) >= LEVEL, named = names ? saidOf(horn, names).word : undefined;
    const above = (i: number) =>
      envelope.above(coords.u[i], coords.chordAt(i), coords.thicknessAt(i)) === up > 0;
    // On a surface standing steep (a fin, a rudder, a steep V-tail) no hinge is dropped to one side:
    // a rudder turns about the fin's middle, and a horn stands off either face.
    const upright = !level || side.above > side.below || standsAboveBy(horn, sides, chord) ||
      partnered(horn, used, chord, above);
    if (!upright && named !== "horn" && named !== "rod") return [];
    for (const v of horn.vertices) {
      // Ahead of the lead it reaches for a pivot.
      if (envelope.chordPosition(coords.u[v], coords.chordAt(v), coords.thicknessAt(v)) < -HORN_AHEAD) {
        return [];
      }
      found.push(v);
    }
  }
  return found;
}

/**
 * True when a horn a rod drives (an island `used`, compact) stands above the surface (`above` of most
 * of its vertices) at `horn`'s place along the span: the pair's other half.
 */
function partnered(
  horn: Island,
  used: ReadonlySet<Island>,
  chord: number,
  above: (vertex: number) => boolean,
): boolean {
  for (const other of used) {
    if (other.extents[0] > HORN_SIZE * chord) continue;
    const apart = Math.max(0, other.low[0] - horn.high[0], horn.low[0] - other.high[0]);
    if (apart > HORN_PLACE * chord) continue;
    if (2 * other.vertices.filter(above).length > other.vertices.length) return true;
  }
  return false;
}

/** True when an island of `sides` standing mostly above the surface lies at `horn`'s place along the span. */
function standsAboveBy(
  horn: Island,
  sides: ReadonlyMap<Island, { above: number; below: number }>,
  chord: number,
): boolean {
  for (const [other, side] of sides) {
    if (other === horn || side.above <= side.below) continue;
    const apart = Math.max(0, other.low[0] - horn.high[0], horn.low[0] - other.high[0]);
    if (apart <= HORN_PLACE * chord) return true;
  }
  return false;
}

/** The compact island not yet `used` whose box lies nearest `point`, within `reach`. */
function touching(
  islands: readonly Island[],
  used: ReadonlySet<Island>,
  point: readonly number[],
  reach: number,
  chord: number,
): Island | undefined {
  let found: Island | undefined, nearest = reach;
  for (const island of islands) {
    if (used.has(island) || island.extents[0] > HORN_SIZE * chord) continue;
    const d = Math.hypot(
      ...[0, 1, 2].map((k) => Math.max(0, island.low[k] - point[k], point[k] - island.high[k])),
    );
    if (d <= nearest) [found, nearest] = [island, d];
  }
  return found;
}

/**
 * What an island's nodes' names say: a bracket where any of its vertices' node is named one (parts
 * welded at a shared corner are one island), a horn or rod where all its vertices' nodes are named so.
 */
function saidOf(island: Island, names: LinkageNames): { word?: string; name?: string } {
  let all: { word?: string; name?: string } | undefined;
  for (const v of island.vertices) {
    const word = names.word(v);
    if (word === "bracket") return { word, name: names.name(v) };
    if (!word) all = {};
    else all ??= { word, name: names.name(v) };
  }
  return all ?? {};
}

/**
 * Adds to `doubts` the islands whose name and shape disagree: named a bracket or fairing yet `linked`
 * (left out as a linkage), or named a horn or rod yet standing `outside` the sections, left in.
 */
function doubtsOf(
  islands: readonly Island[],
  linked: ReadonlySet<number>,
  outside: ReadonlySet<number>,
  names: LinkageNames,
  doubts: string[],
): void {
  for (const island of islands) {
    const { word, name } = saidOf(island, names);
    if (!word) continue;
    const out = linked.has(island.vertices[0]);
    if (word === "bracket" && out) {
      doubts.push(
        `'${name}' is named a bracket or fairing but shaped as a control linkage: left out of the fit`,
      );
    } else if (word !== "bracket" && !out && island.vertices.some((v) => outside.has(v))) {
      doubts.push(`'${name}' is named a control ${word} but hangs as a bracket would: kept in the fit`);
    }
  }
}

/**
 * The geometry without the `dropped` vertices and the triangles touching them, renumbered.
 */
export function withoutVertices(
  positions: Float32Array | Float64Array,
  count: number,
  triangles: Uint32Array,
  dropped: ReadonlySet<number>,
): { positions: Float64Array; count: number; triangles: Uint32Array } {
  const index = new Int32Array(count).fill(-1);
  const kept = new Float64Array((count - dropped.size) * 3);
  let n = 0;
  for (let i = 0; i < count; i++) {
    if (dropped.has(i)) continue;
    index[i] = n;
    kept[n * 3] = positions[i * 3],
      kept[n * 3 + 1] = positions[i * 3 + 1],
      kept[n * 3 + 2] = positions[i * 3 + 2];
    n++;
  }
  const out: number[] = [];
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = index[triangles[t]], b = index[triangles[t + 1]], c = index[triangles[t + 2]];
    if (a >= 0 && b >= 0 && c >= 0) out.push(a, b, c);
  }
  return { positions: kept, count: n, triangles: new Uint32Array(out) };
}
