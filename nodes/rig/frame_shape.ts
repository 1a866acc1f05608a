/**
 * Shape measurements frame detection (`frame_detect.ts`) decides from: the bounding box, mirror
 * symmetry per axis on a voxel grid, the vertical reach of the fuselage's two ends and a V at either
 * end; the thickness of the wing sections' two chord ends is `frame_sections.ts`'s.
 *
 * @module
 */
import type { Vec3 } from "./transform.ts";

/**
 * A scene's points and the axes the measurements read them along: the box they fill (`min`,
 * `extent`), the fuselage axis `long`, the `span` axis and the `up` axis (scene axis indices).
 */
export interface ShapeAxes {
  /** Every vertex, x y z after x y z. */
  readonly points: Float64Array;
  readonly min: Vec3;
  readonly extent: readonly number[];
  readonly long: number;
  readonly span: number;
  readonly up: number;
}

/** Voxels per axis of the symmetry test. */
const GRID = 24;
/** Fraction of the length at each end whose cross-section is compared. */
export const END_SLICE = 0.2;

/**
 * Per axis, the fraction of occupied voxels whose mirror image across the box's mid-plane (give or
 * take one voxel along that axis) is occupied too: near 1 across the span of a symmetric aircraft.
 */
export function mirrorSymmetry(points: Float64Array, min: Vec3, extent: readonly number[]): number[] {
  const occupied = new Uint8Array(GRID * GRID * GRID);
  const scale = extent.map((e) => e > 0 ? GRID / e : 0);
  const cell = (value: number, k: number) => Math.min(GRID - 1, ((value - min[k]) * scale[k]) | 0);
  for (let i = 0; i < points.length; i += 3) {
    occupied[(cell(points[i], 0) * GRID + cell(points[i + 1], 1)) * GRID + cell(points[i + 2], 2)] = 1;
  }
  const stride = [GRID * GRID, GRID, 1];
  return [0, 1, 2].map((k) => {
    let filled = 0, matched = 0;
    for (let index = 0; index < occupied.length; index++) {
      if (!occupied[index]) continue;
      filled++;
      const c = Math.floor(index / stride[k]) % GRID;
      const base = index - c * stride[k];
      const mirror = GRID - 1 - c;
      for (let d = -1; d <= 1; d++) {
        const m = mirror + d;
        if (m >= 0 && m < GRID && occupied[base + m * stride[k]]) {
          matched++;
          break;
        }
      }
    }
    return matched / filled;
  });
}

/** The vertical reach of one end of the fuselage axis. */
export interface EndSection {
  top: number;
  bottom: number;
}

/**
 * Share of the span either side of the plane of symmetry an end's reach is measured in: a fin, or
 * twin fins on a tailplane, stand within it; a wing's tips with their dihedral, reaching the end of
 * a swept wing, stand outside it.
 */
const END_SPAN = 0.35;
/** Share of the span either side of the plane of symmetry a fuselage's ends must hold points in. */
const BODY_SPAN = 0.2;
/**
 * A middle less tall than this share of the slimmer end is no fuselage's (a fuselage is as tall in
 * the middle as at its ends): a wing root where a box fuselage has no vertices.
 */
const THIN_MIDDLE = 0.5;

/**
 * The vertical reach of the last {@link END_SLICE} of the length at each end (`low`, `high` along
 * `long`), of the points within {@link END_SPAN} of the span of the plane of symmetry (all the end's
 * points when none are), and the fuselage's centre line: the middle of the vertical range of the
 * points near the plane (a tenth of the span either side) in the middle 40 % of the length
 * (`middle`). It is guessed as the box's centre (`levelKnown: false`) when there are none there (bare
 * boxes), and when either end holds no points within {@link BODY_SPAN} of the span: no fuselage
 * runs the length, and what is in the middle is a flying wing's root, a pod or a prop disc, whose
 * middle says nothing of where a fin would reach from. It is guessed too when the middle's vertical
 * range misses either end's points within {@link BODY_SPAN} of the span: a fuselage's nose and tail
 * lie within its height, and what stands in the middle apart from them is no fuselage — a large V-
 * or T-tail's root reaching forward over a fuselage drawn with no vertices between its ends (a
 * stretched box or cylinder). Thin protrusions from the middle — antennas on the spine or belly —
 * are left out of its range (see {@link bodyRange}).
 */
export function endSections(
  axes: ShapeAxes,
): { low: EndSection; high: EndSection; middle: EndSection; level: number; levelKnown: boolean } {
  const { points, min, extent, long, span, up: upAxis } = axes;
  const range = () => ({ top: -Infinity, bottom: Infinity });
  const low = range(), high = range(), middle = range(), lowOut = range(), highOut = range();
  // The vertical range of each end's points near the plane of symmetry: a fuselage runs nose to tail.
  const bodyAt = [range(), range()];
  const spanCentre = min[span] + extent[span] / 2;
  for (let i = 0; i < points.length; i += 3) {
    const t = (points[i + long] - min[long]) / extent[long];
    const out = Math.abs(points[i + span] - spanCentre) / extent[span];
    const inMiddle = t >= 0.3 && t <= 0.7;
    const body = out <= BODY_SPAN && (t <= END_SLICE || t >= 1 - END_SLICE)
      ? [bodyAt[t <= END_SLICE ? 0 : 1]]
      : [];
    const targets = t <= END_SLICE
      ? [out <= END_SPAN ? low : lowOut, ...body]
      : t >= 1 - END_SLICE
      ? [out <= END_SPAN ? high : highOut, ...body]
      : inMiddle && out <= 0.1
      ? [middle]
      : [];
    for (const target of targets) {
      target.top = Math.max(target.top, points[i + upAxis]);
      target.bottom = Math.min(target.bottom, points[i + upAxis]);
    }
  }
  if (middle.top > middle.bottom) Object.assign(middle, bodyRange(axes, middle));
  const levelKnown = middle.top >= middle.bottom &&
    bodyAt.every((end) => end.top >= middle.bottom && end.bottom <= middle.top);
  // A fuselage drawn with no vertices between its ends (a box) leaves the middle to a wing's root,
  // far thinner than the fuselage's ends and off its centre line by the wing's height on it: the
  // end without a fin (the lower one) then gives the centre line.
  const [lowBody, highBody] = bodyAt, height = (r: EndSection) => r.top - r.bottom;
  const slimEnd = height(lowBody) <= height(highBody) ? lowBody : highBody;
  const thinMiddle = levelKnown && height(middle) < THIN_MIDDLE * height(slimEnd);
  const level = !levelKnown
    ? min[upAxis] + extent[upAxis] / 2
    : thinMiddle
    ? (slimEnd.top + slimEnd.bottom) / 2
    : (middle.top + middle.bottom) / 2;
  // An end with nothing near the plane of symmetry is measured across the span.
  const [lowEnd, highEnd] = [[low, lowOut], [high, highOut]].map(([near, out]) =>
    near.top >= near.bottom ? near : out
  );
  return { low: lowEnd, high: highEnd, middle, level, levelKnown };
}

/** Height bins the middle's points are sorted into to find thin protrusions. */
const BODY_BINS = 64;
/** A protrusion is thin when its width along the span is at most this share of its height. */
const THIN = 0.25;
/**
 * A protrusion is short, too: at most this share of the length along it. A body drawn with one
 * station on the plane of symmetry (a flying wing's centre section) is a profile of no width there,
 * but runs the middle's length.
 */
const SHORT = 0.1;
/** A protrusion left out stands this share of the middle's vertical range past the fuselage. */
const MIN_STAND = 0.1;

/**
 * The fuselage's top and bottom in the middle of the length, within `rough` (the vertical range of
 * the points near the plane of symmetry there), leaving out thin protrusions: a whip or blade
 * antenna on the spine or the belly stands up to 1.5 times the fuselage's radius off it and would
 * move the centre line half that, but is far narrower along the span than it is tall. From the top
 * (and likewise the bottom) down, the points above each height are a protrusion while they are two
 * or more (a coarse ring's one top vertex is the fuselage's), their width along the span at most
 * {@link THIN} of how far they reach past it and their length at most {@link SHORT}; the fuselage
 * starts where they widen or lengthen, and is left as it was when nothing does (nothing wider stands
 * there) or they stand out by under {@link MIN_STAND} of the range. A fuselage ring's cap is always
 * wider than that (so are a canopy, a wing root and a centre-line tank), so only sticks and plates
 * standing on edge are left out: antennas, a gear leg on the centre line. Antennas further apart
 * along the spine than {@link SHORT} of the length together are no short protrusion and stay.
 */
function bodyRange(axes: ShapeAxes, rough: EndSection): EndSection {
  const { points, min, extent, long, span, up: upAxis } = axes;
  const spanCentre = min[span] + extent[span] / 2;
  const scale = BODY_BINS / (rough.top - rough.bottom);
  const count = new Uint32Array(BODY_BINS);
  // Per height bin: its points' count, height range, and span and length ranges.
  const bins =
    () => [new Float64Array(BODY_BINS).fill(Infinity), new Float64Array(BODY_BINS).fill(-Infinity)];
  const [bottom, top] = bins(), [left, right] = bins(), [fore, aft] = bins();
  for (let i = 0; i < points.length; i += 3) {
    const t = (points[i + long] - min[long]) / extent[long];
    const offset = points[i + span] - spanCentre;
    // The points endSections' middle holds (written so a non-finite point is none of them).
    if (!(t >= 0.3 && t <= 0.7 && Math.abs(offset) <= 0.1 * extent[span])) continue;
    const y = points[i + upAxis];
    const bin = Math.min(BODY_BINS - 1, Math.floor((y - rough.bottom) * scale));
    count[bin]++;
    top[bin] = Math.max(top[bin], y), bottom[bin] = Math.min(bottom[bin], y);
    left[bin] = Math.min(left[bin], offset), right[bin] = Math.max(right[bin], offset);
    fore[bin] = Math.min(fore[bin], t), aft[bin] = Math.max(aft[bin], t);
  }
  // Walks the bins from one end: `edge` is the height the protrusion is measured from, `reach` a
  // bin's height toward that end.
  const trim = (order: number[], reach: (bin: number) => number, edge: number): number => {
    let capCount = 0, capLeft = Infinity, capRight = -Infinity, capFore = Infinity, capAft = -Infinity;
    let found = edge;
    for (const bin of order) {
      if (!count[bin]) continue;
      const thin = capCount === 0 ||
        capCount >= 2 && capRight - capLeft <= THIN * Math.abs(edge - reach(bin)) &&
          capAft - capFore <= SHORT;
      // The fuselage is wider than what stands on it; with nothing wider, nothing stands out. What
      // stands out by under a tenth of the range (a smooth profile's crest) moves the line little.
      if (!thin) return Math.abs(edge - found) >= MIN_STAND * (rough.top - rough.bottom) ? found : edge;
      found = reach(bin);
      capCount += count[bin];
      capLeft = Math.min(capLeft, left[bin]), capRight = Math.max(capRight, right[bin]);
      capFore = Math.min(capFore, fore[bin]), capAft = Math.max(capAft, aft[bin]);
    }
    return edge;
  };
  const down = Array.from({ length: BODY_BINS }, (_, k) => BODY_BINS - 1 - k);
  const body = {
    top: trim(down, (bin) => top[bin], rough.top),
    bottom: trim([...down].reverse(), (bin) => bottom[bin], rough.bottom),
  };
  return body.top > body.bottom ? body : rough;
}

/** Two surfaces canted symmetric about the plane of symmetry at one end: a V-tail seen from behind. */
export interface EndVee {
  /** +1: the V opens toward +up (its tips above its root), −1: toward −up. */
  readonly opens: 1 | -1;
  /** The surfaces' cant from the span axis, degrees. */
  readonly cant: number;
  /** How well height follows the distance from the plane of symmetry (correlation, 0–1). */
  readonly fit: number;
}

/** A V's cant from the span axis must be within these (dihedral and anhedral stay below 20°). */
const VEE_CANT: readonly [number, number] = [20, 70];
/** The correlation of height with distance from the plane of symmetry a V must reach. */
const VEE_FIT = 0.9;

/**
 * At each end's last {@link END_SLICE} of the length, a V when the points away from the plane of
 * symmetry (beyond a quarter of that end's half-width), on both sides, lie along two canted lines:
 * height follows the distance from the plane with a correlation of {@link VEE_FIT} or more and a
 * slope of {@link VEE_CANT}. A flat tailplane with an upright fin, a prop disc or a bare fuselage
 * box is no V; a swept wing whose tips reach the end is too flat to be one.
 */
export function endVees(axes: ShapeAxes): { low?: EndVee; high?: EndVee } {
  const { points, min, extent, long, span, up: upAxis } = axes;
  const spanCentre = min[span] + extent[span] / 2;
  const ends = [[] as number[], [] as number[]]; // (signed offset, height) pairs, low and high end
  for (let i = 0; i < points.length; i += 3) {
    const t = (points[i + long] - min[long]) / extent[long];
    const end = t <= END_SLICE ? 0 : t >= 1 - END_SLICE ? 1 : -1;
    if (end >= 0) ends[end].push(points[i + span] - spanCentre, points[i + upAxis]);
  }
  const [low, high] = ends.map((pairs) => veeOf(pairs));
  return { low, high };
}

function veeOf(pairs: number[]): EndVee | undefined {
  let halfWidth = 0;
  for (let i = 0; i < pairs.length; i += 2) halfWidth = Math.max(halfWidth, Math.abs(pairs[i]));
  let n = 0, left = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const x = Math.abs(pairs[i]), y = pairs[i + 1];
    if (!(x > 0.25 * halfWidth)) continue;
    n++;
    if (pairs[i] > 0) left++;
    sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
  }
  // Both sides, each with a fifth of the points at least: one canted fin is no V.
  if (n < 8 || left < 0.2 * n || n - left < 0.2 * n) return undefined;
  const vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
  if (!(vx > 1e-12 * halfWidth * halfWidth) || !(vy > 0)) return undefined;
  const fit = Math.abs(cxy) / Math.sqrt(vx * vy);
  const cant = Math.atan(Math.abs(cxy / vx)) * 180 / Math.PI;
  if (fit < VEE_FIT || cant < VEE_CANT[0] || cant > VEE_CANT[1]) return undefined;
  return { opens: cxy > 0 ? 1 : -1, cant, fit };
}
