/**
 * A helicopter's main rotor found from the shape, for frame detection (`frame_detect.ts`): a flat,
 * wide layer at one extreme of an axis (a disc, or two to five blades), held off the body by a
 * mast — a band of that axis where only something narrow stands. It is often the widest thing in
 * the model and, with two or three blades, mirror-symmetric across no axis, so the frame's other
 * measures read the body without it; it says which way is up (the rotor is above the cabin), and
 * the mast where the cabin is (the tail boom runs from there to the tail).
 *
 * @module
 */
import type { Vec3 } from "./transform.ts";
// The rotor spans at least this share of the model's largest extent, as a named bare rotor must.
import { MAIN_ROTOR_SHARE } from "./rotorcraft.ts";

/** Bins along the axis the layer is searched along. */
const BINS = 64;
/** A bin is narrow when its points span at most this share of the model's largest extent across. */
const NARROW = 0.1;
/** The mast's band (narrow or empty bins) is at least this many bins (about 6 % of the axis). */
const GAP_BINS = 4;
/**
 * The rotor reaches past the body's own footprint by at least this share of the model's largest
 * extent (over the nose, or off its sides): a box fuselage's bottom face, flat and wide with no
 * vertices above it until the top, lies within the body's footprint.
 */
const OVERHANG = 0.1;
/**
 * The mast stands under the hub: points in the half of the band between the rotor and the body next
 * to the rotor, within this share of the model's largest extent of the hub, across. A wing over a
 * fuselage drawn with no vertices between (a polygon loft, a box) has a band with nothing under its
 * middle, or only an antenna's foot at the band's far side.
 */
const MAST_RADIUS = 0.05;
/** Share of the rotor's radius about the mast the cabin's top is looked for in. */
const NEAR_MAST = 0.5;
/** The body holds at least this share of the rotor's points. */
const BODY_POINTS = 0.5;
/** The body below the mast fills at least this share of the axis. */
const BODY_SHARE = 0.4;
/**
 * The layer is flat: its points lie within this share of its width along the axis (a rotor's
 * coning and its blades' thickness stay within a few per cent; a sparse disc's rim, cut across,
 * is as thick as it is wide).
 */
const FLAT = 0.12;

/** A main rotor found from the shape. */
export interface RotorLayer {
  /** The scene axis the rotor lies across (up), and the side it is on. */
  readonly axis: number;
  readonly sign: 1 | -1;
  /** The points without the rotor and its mast, x y z after x y z. */
  readonly body: Float64Array;
  /** Where the mast stands: the rotor's hub, its points' geometric median across the axis. */
  readonly mast: Vec3;
  /** The rotor's width over the model's largest extent. */
  readonly share: number;
}

/**
 * The main rotor's layer (see the module), or undefined when no axis has one — or more than one does
 * (a tandem's, or a shape this cannot tell).
 *
 * @example
 * ```ts
 * const rotor = rotorLayer(points, min, extent); // { axis: 1, sign: 1, ... } for a +Y-up helicopter
 * ```
 */
export function rotorLayer(
  points: Float64Array,
  min: Vec3,
  extent: readonly number[],
): RotorLayer | undefined {
  const largest = Math.max(...extent);
  const found: RotorLayer[] = [];
  for (const axis of [0, 1, 2]) {
    if (!(extent[axis] > 0)) continue;
    for (const sign of [1, -1] as const) {
      const layer = layerAlong(points, min, extent, largest, axis, sign);
      if (layer) found.push(layer);
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

function layerAlong(
  points: Float64Array,
  min: Vec3,
  extent: readonly number[],
  largest: number,
  axis: number,
  sign: 1 | -1,
): RotorLayer | undefined {
  const [a, b] = [0, 1, 2].filter((k) => k !== axis);
  // Bin 0 is the extreme the rotor would be at; a non-finite point falls in no bin (−1).
  const bins = new Int32Array(points.length / 3);
  for (let i = 0, v = 0; i < points.length; i += 3, v++) {
    const t = (points[i + axis] - min[axis]) / extent[axis];
    const bin = Math.min(BINS - 1, Math.floor((sign > 0 ? 1 - t : t) * BINS));
    bins[v] = bin >= 0 ? bin : -1;
  }
  const narrow = NARROW * largest;
  const all = widths(points, bins, a, b);
  // The layer: a run of wide bins, a one-bin hole allowed, as wide as a main rotor. What stands
  // above it — narrow, or a run less wide (a fin's or a tail rotor's tip at the tail; a UH-60's
  // tail rotor is its highest point) — is the body's.
  let firstWide = -1, lastWide = -1, span = 0;
  for (let start = 0; start < BINS && span < MAIN_ROTOR_SHARE * largest; start = lastWide + 1) {
    firstWide = all.findIndex((w, bin) => bin >= start && w > narrow);
    if (firstWide < 0) return undefined;
    lastWide = firstWide;
    while (lastWide + 1 < BINS && (all[lastWide + 1] > narrow || all[lastWide + 2] > narrow)) {
      lastWide += all[lastWide + 1] > narrow ? 1 : 2;
    }
    span = Math.max(...all.slice(firstWide, lastWide + 1));
  }
  // Its core: the bins at least half as wide as the widest. The hub: a disc's or evenly spaced
  // blades' centre, their points' geometric median (a tail rotor or a fin reaching that height,
  // beside the disc, moves it little).
  const core = (bin: number) => bin >= firstWide && bin <= lastWide && all[bin] >= 0.5 * span;
  // A NaN coordinate across makes its bin's width NaN; inside the run it left no core bin, and the
  // search for one below never ended (a hang): no layer is read through it.
  if (Number.isNaN(span)) return undefined;
  let low = Infinity, high = -Infinity, inCore = 0;
  for (let i = 0, v = 0; i < points.length; i += 3, v++) {
    if (!core(bins[v])) continue;
    inCore++;
    low = Math.min(low, points[i + axis]), high = Math.max(high, points[i + axis]);
  }
  if (span < MAIN_ROTOR_SHARE * largest || high - low > FLAT * span) return undefined;
  // The core's (x, y) pairs the median iterates over: every n-th past MEDIAN_PAIRS, evenly.
  const every = Math.max(1, Math.ceil(inCore / MEDIAN_PAIRS));
  const pairs = new Float64Array(2 * Math.ceil(inCore / every));
  for (let i = 0, v = 0, j = 0, k = 0; i < points.length; i += 3, v++) {
    if (!core(bins[v])) continue;
    if (j++ % every === 0) pairs[k++] = points[i + a], pairs[k++] = points[i + b];
  }
  const centre = geometricMedian(pairs);
  const mast: Vec3 = [0, 0, 0];
  mast[a] = centre[0], mast[b] = centre[1], mast[axis] = (low + high) / 2;
  // Each point's distance from the mast across, worked out once for the passes below.
  const across = new Float64Array(bins.length);
  for (let i = 0, v = 0; i < points.length; i += 3, v++) {
    across[v] = Math.hypot(points[i + a] - mast[a], points[i + b] - mast[b]);
  }
  // The disc's edge: the furthest reach within 1.3 times the 80th percentile's (a disc's rim, a
  // blade's tip; a tail rotor or a fin beside the disc at that height reaches further).
  const reach = new Float64Array(inCore);
  for (let v = 0, k = 0; v < bins.length; v++) if (core(bins[v])) reach[k++] = across[v];
  reach.sort();
  const typical = reach[Math.floor(0.8 * (reach.length - 1))];
  const radius = reach.findLast((r) => r <= 1.3 * typical)!;
  // The layer: the core and the bins next to it wide within the disc (a coned or drooped blade's
  // inner stations).
  const within = widths(points, bins, a, b, (v) => across[v] <= 1.1 * radius);
  while (!core(firstWide)) firstWide++;
  while (!core(lastWide)) lastWide--;
  while (firstWide > 0 && within[firstWide - 1] > narrow) firstWide--;
  while (lastWide + 1 < BINS && within[lastWide + 1] > narrow) lastWide++;
  // Nothing stands above the rotor over its disc but the hub's cap: a fin or a tail rotor above it
  // stands beyond the disc. (A mid or low wing has the fuselage or an antenna above it.)
  for (let i = 0, v = 0; i < points.length; i += 3, v++) {
    const r = across[v];
    if (bins[v] >= 0 && bins[v] < firstWide && r > MAST_RADIUS * largest && r < 0.9 * typical) {
      return undefined;
    }
  }
  let rotorCount = 0;
  for (let i = 0, v = 0; i < points.length; i += 3, v++) {
    if (bins[v] >= firstWide && bins[v] <= lastWide && across[v] <= 1.1 * radius) rotorCount++;
  }
  // Below it, near the mast, only the mast until the body: the cabin is under the hub, while a
  // fin and a tail rotor stand at the disc's edge or beyond it (they must clear it), so they are
  // not read as the body's top.
  const near = (v: number) => across[v] < NEAR_MAST * radius;
  const under = widths(points, bins, a, b, near);
  let bodyStart = lastWide + 1;
  while (bodyStart < BINS && !(under[bodyStart] > narrow)) bodyStart++;
  if (bodyStart - lastWide - 1 < GAP_BINS || BINS - bodyStart < BODY_SHARE * BINS) return undefined;
  // The rotor is wider than the body below it, across at least one way, and reaches past its
  // footprint; the mast stands under the hub; the body outweighs the rotor (a flying wing's whole
  // wing over its winglets' tips is no rotor).
  const box = [Infinity, -Infinity, Infinity, -Infinity], layer = [...box];
  const kept: number[] = [];
  let mastPoints = 0;
  for (let i = 0, v = 0; i < points.length; i += 3, v++) {
    const bin = bins[v];
    const inLayer = bin >= firstWide && bin <= lastWide;
    const r = inLayer ? layer : bin >= bodyStart ? box : undefined;
    if (r) {
      r[0] = Math.min(r[0], points[i + a]), r[1] = Math.max(r[1], points[i + a]);
      r[2] = Math.min(r[2], points[i + b]), r[3] = Math.max(r[3], points[i + b]);
    }
    const gap = bin > lastWide && bin < bodyStart;
    // The mast reaches up to the hub: points near it in the half of the band next to the rotor (an
    // antenna on a fuselage drawn with no vertices inside stands at the band's far side).
    if (gap && bin - lastWide <= (bodyStart - lastWide) / 2 && across[v] <= MAST_RADIUS * largest) {
      mastPoints++;
    }
    // The body keeps what stands above the layer, beyond the disc at its height, and away from the
    // mast in the mast's band (a fin, a tail rotor).
    const off = inLayer ? across[v] > 1.1 * radius : !gap || !near(v);
    if (off) kept.push(points[i], points[i + 1], points[i + 2]);
  }
  if (span < 1.5 * Math.min(box[1] - box[0], box[3] - box[2])) return undefined;
  const overhang = Math.max(box[0] - layer[0], layer[1] - box[1], box[2] - layer[2], layer[3] - box[3]);
  if (overhang < OVERHANG * largest || mastPoints < 2 || kept.length / 3 < BODY_POINTS * rotorCount) {
    return undefined;
  }
  return { axis, sign, body: new Float64Array(kept), mast, share: span / largest };
}

/**
 * Per bin, how far its points (the `v`-th, when `keep(v)`) spread across the axis: the larger of the two
 * ways (`a`, `b`), 0 for an empty bin. Typed boxes: this runs over every point several times a layer.
 */
function widths(
  points: Float64Array,
  bins: Int32Array,
  a: number,
  b: number,
  keep?: (v: number) => boolean,
): number[] {
  const box = new Float64Array(4 * BINS);
  for (let r = 0; r < 4 * BINS; r += 4) box[r] = box[r + 2] = Infinity, box[r + 1] = box[r + 3] = -Infinity;
  for (let i = 0, v = 0; i < points.length; i += 3, v++) {
    if (bins[v] < 0 || (keep && !keep(v))) continue;
    const r = 4 * bins[v];
    box[r] = Math.min(box[r], points[i + a]), box[r + 1] = Math.max(box[r + 1], points[i + a]);
    box[r + 2] = Math.min(box[r + 2], points[i + b]), box[r + 3] = Math.max(box[r + 3], points[i + b]);
  }
  return Array.from({ length: BINS }, (_, bin) => {
    const r = 4 * bin;
    return box[r + 1] >= box[r] ? Math.max(box[r + 1] - box[r], box[r + 3] - box[r + 2]) : 0;
  });
}

/**
 * Most (x, y) pairs the geometric median iterates over: a layer holding more (a dense scan's, or a
 * point cloud's drawn by thousands of nodes) gives every n-th, evenly. 50 iterations over a million
 * pairs took 3 s; a median is robust to the sampling.
 */
const MEDIAN_PAIRS = 20_000;

/** The geometric median of (x, y) pairs (Weiszfeld's iteration): robust to a minority far out. */
function geometricMedian(pairs: Float64Array): [number, number] {
  const n = pairs.length / 2;
  let x = 0, y = 0;
  for (let i = 0; i < pairs.length; i += 2) x += pairs[i] / n, y += pairs[i + 1] / n;
  for (let step = 0; step < 50; step++) {
    let sx = 0, sy = 0, sw = 0;
    for (let i = 0; i < pairs.length; i += 2) {
      const w = 1 / Math.max(Math.hypot(pairs[i] - x, pairs[i + 1] - y), 1e-9);
      sx += w * pairs[i], sy += w * pairs[i + 1], sw += w;
    }
    // Come to rest (the same point again), every further step would give it again.
    if (sx / sw === x && sy / sw === y) break;
    x = sx / sw, y = sy / sw;
  }
  return [x, y];
}
