/**
 * The wing sections' chord ends, a shape measurement frame detection (`frame_detect.ts`) decides the
 * fore-aft sign from: a wing's section is blunt at its leading edge and sharp at its trailing one,
 * so the summed thickness of each end of every section found across the span tells forward; the
 * sections' camber (`frame_camber.ts`) tells up besides.
 *
 * @module
 */
import { CAMBER_OUTBOARD, sectionCamber } from "./frame_camber.ts";
import { END_SLICE, type ShapeAxes } from "./frame_shape.ts";

/** Thickness of the wing sections' two chord ends, summed over the sections found. */
export interface SectionEnds {
  /** Summed thickness of the end of each section toward −long (its lowest tenth of the chord). */
  readonly low: number;
  /** The same toward +long. */
  readonly high: number;
  /** How many sections were measured. */
  readonly sections: number;
  /**
   * The sections' camber bowing toward +up and −up, each weighed by its chord squared, and the weight
   * of the sections whose camber was read (frame_camber.ts).
   */
  readonly camber: readonly [up: number, down: number, weight: number];
  /** How many low-poly rings (a game model's 4–12 points round) were found besides, ends unmeasured. */
  readonly rings: number;
}

/** Span bins per side of the plane of symmetry. */
const SECTION_BINS = 20;
/** Points a low-poly section ring may have (a game model's), read for camber without measured ends. */
const SPARSE_SECTION = 12;
/** Bins nearer the plane than this (the fuselage) or further out (the tips' caps) are left out. */
const SECTION_SPAN: readonly [number, number] = [5, 19];
/** A gap along the length of this share of it parts two surfaces in one span bin. */
const SECTION_GAP = 0.03;
/** The sharper end of a section must be thinner than this share of its thickness (a trailing edge). */
const SECTION_SHARP = 0.5;
/** Share of a section's chord at each end whose thickness is measured. */
const SECTION_END = 0.12;
/** A section thicker than this share of its chord is no wing's (a fin, a nacelle, a pod). */
const SECTION_THICK = 0.3;

/**
 * The thickness at the two ends of the chord of the wing and tail sections, in span bins away from
 * the plane of symmetry: each bin's points split along the length where a gap parts two surfaces,
 * each run a section when it is no thicker than {@link SECTION_THICK} of its chord. An airfoil is
 * blunt at its leading edge and sharp at its trailing edge, so the thicker end is forward; flat
 * plates and boxes are the same at both ends.
 *
 * `veeEnd`: the end (−1 low, +1 high) where {@link endVees} found a V. Its surfaces are canted
 * 20–70° from the span, and a span bin cuts a canted surface obliquely — through its thickness and
 * across its stations — so its pieces read as sections of any shape, sharp at either end; runs
 * centred in that end's last {@link END_SLICE} of the length are left out.
 */
export function sectionEnds(axes: ShapeAxes, veeEnd?: 1 | -1): SectionEnds {
  const { points, min, extent, long, span, up: upAxis } = axes;
  const half = extent[span] / 2, centre = min[span] + half;
  const bins: number[][] = Array.from({ length: 2 * SECTION_BINS }, () => []);
  for (let i = 0; i < points.length; i += 3) {
    const offset = points[i + span] - centre;
    const bin = Math.min(SECTION_BINS - 1, Math.floor(Math.abs(offset) / half * SECTION_BINS));
    // Written so a non-finite point (a damaged file's NaN) falls in no bin.
    if (!(bin >= SECTION_SPAN[0] && bin < SECTION_SPAN[1])) continue;
    bins[bin + (offset < 0 ? SECTION_BINS : 0)].push(points[i + long], points[i + upAxis]);
  }
  let low = 0, high = 0, sections = 0, rings = 0;
  const camber: [number, number, number] = [0, 0, 0];
  const gap = SECTION_GAP * extent[long];
  for (const [b, pairs] of bins.entries()) {
    const order = Array.from({ length: pairs.length / 2 }, (_, k) => k).sort((a, b) =>
      pairs[2 * a] - pairs[2 * b]
    );
    // Camber is read outboard only: a tailplane, which may be cambered upside down, lies inboard.
    const outboard = b % SECTION_BINS >= CAMBER_OUTBOARD * SECTION_BINS;
    // A low-poly ring (a game model's 4–12 points round) is one section, though gaps between its few
    // points part it into runs and its ends hold too few to measure: its camber reads (frame_camber.ts).
    if (order.length <= SPARSE_SECTION && thinSection(pairs, order)) {
      rings++;
      const bow = outboard ? sectionCamber(pairs, order) : undefined;
      const chord = pairs[2 * order[order.length - 1]] - pairs[2 * order[0]];
      if (bow !== undefined) {
        camber[bow > 0 ? 0 : 1] += Math.abs(bow) * chord * chord, camber[2] += chord * chord;
      }
      continue;
    }
    let start = 0;
    for (let k = 1; k <= order.length; k++) {
      if (k < order.length && pairs[2 * order[k]] - pairs[2 * order[k - 1]] <= gap) continue;
      const run = order.slice(start, k);
      start = k;
      const t = ((pairs[2 * run[0]] + pairs[2 * run[run.length - 1]]) / 2 - min[long]) / extent[long];
      if (veeEnd && (veeEnd > 0 ? t >= 1 - END_SLICE : t <= END_SLICE)) continue;
      const ends = runEnds(pairs, run);
      // A low-poly ring (a game model's 4–10 points) has too few points at its ends to measure, yet its
      // camber reads (frame_camber.ts) when it is as thin as a wing's.
      if (!ends) continue;
      low += ends[0], high += ends[1], sections++;
      const bow = outboard ? sectionCamber(pairs, run) : undefined;
      const chord = pairs[2 * run[run.length - 1]] - pairs[2 * run[0]];
      if (bow !== undefined) {
        camber[bow > 0 ? 0 : 1] += Math.abs(bow) * chord * chord, camber[2] += chord * chord;
      }
    }
  }
  return { low, high, sections, camber, rings };
}

/** True when a run of (long, up) pairs is no thicker than {@link SECTION_THICK} of its chord. */
function thinSection(pairs: number[], run: number[]): boolean {
  const chord = pairs[2 * run[run.length - 1]] - pairs[2 * run[0]];
  let top = -Infinity, bottom = Infinity;
  for (const k of run) top = Math.max(top, pairs[2 * k + 1]), bottom = Math.min(bottom, pairs[2 * k + 1]);
  return run.length >= 4 && chord > 0 && top - bottom <= SECTION_THICK * chord;
}

/**
 * The thickness at each chord end of one run of (long, up) pairs, when it is a wing's section: the
 * spread of each end's points about the straight line fitted through them, so a deflected trailing
 * edge's slope does not count as thickness.
 */
function runEnds(pairs: number[], run: number[]): [number, number] | undefined {
  if (run.length < 6) return undefined;
  const first = pairs[2 * run[0]], last = pairs[2 * run[run.length - 1]], chord = last - first;
  if (!(chord > 0)) return undefined;
  let top = -Infinity, bottom = Infinity;
  const front: number[] = [], back: number[] = [];
  for (const k of run) {
    const x = pairs[2 * k], y = pairs[2 * k + 1];
    top = Math.max(top, y);
    bottom = Math.min(bottom, y);
    if (x <= first + SECTION_END * chord) front.push(x, y);
    if (x >= last - SECTION_END * chord) back.push(x, y);
  }
  if (top - bottom > SECTION_THICK * chord) return undefined;
  // An end with fewer than 3 points has no thickness to measure: a run cut out of a sparse ring's
  // middle by a gap ends in one point or two, and whether rounding puts a second there decides.
  if (front.length < 6 || back.length < 6) return undefined;
  const ends: [number, number] = [spreadAboutLine(front), spreadAboutLine(back)];
  // An airfoil's trailing edge is sharp against its thickness; a run whose ends are both thick is a
  // plate's, a box's, or a piece of a coarse section cut at a gap (its cut face reads as blunt).
  if (Math.min(...ends) > SECTION_SHARP * (top - bottom)) return undefined;
  return ends;
}

/** The range of the (x, y) pairs' offsets from their least-squares line y = a + b x. */
function spreadAboutLine(pairs: number[]): number {
  const n = pairs.length / 2;
  if (n < 2) return 0;
  let sx = 0, sy = 0;
  for (let i = 0; i < pairs.length; i += 2) sx += pairs[i], sy += pairs[i + 1];
  const mx = sx / n, my = sy / n;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    sxx += (pairs[i] - mx) ** 2;
    sxy += (pairs[i] - mx) * (pairs[i + 1] - my);
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  let top = -Infinity, bottom = Infinity;
  for (let i = 0; i < pairs.length; i += 2) {
    const r = pairs[i + 1] - my - slope * (pairs[i] - mx);
    top = Math.max(top, r);
    bottom = Math.min(bottom, r);
  }
  return top - bottom;
}
