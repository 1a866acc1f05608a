/**
 * A panel's forward and aft edge at each span station, in panel coordinates (u along the span, v
 * along the chord, w through the thickness), two ways:
 *
 * - {@link sliceStations}, from the **surface**: every triangle crossing a station plane is cut
 *   there, so each station sees the planform's true forward and aft extents whatever the tessellation
 *   (two vertices along the span, skewed quads, a chord drawn as one long triangle);
 * - {@link binVertices}, from vertices alone (skin-bone geometry, point clouds): the extremes of the
 *   vertices falling in each span bin — bogus on coarse meshes, where a bin may hold only
 *   trailing-edge vertices; the fit's confidence says so through its span coverage.
 *
 * Either way a station's edge point is the mean chord position of the points within a thin band of
 * the extreme and the middle of their thickness range: the edge at mid-thickness, not a skin corner.
 *
 * @module
 */

/**
 * Per station, for one edge: count, Σu, Σv, wMin, wMax of the points within the band of the extreme
 * (five numbers a station).
 */
type BandAccumulator = Float64Array;

/** One edge at every station: its point and the panel's thickness there. */
export interface StationEdge {
  /** (u, v, w) per station; NaN where the station did not see the panel. */
  readonly points: Float64Array;
  /** Thickness extent of the band at each station (NaN where empty). */
  readonly thickness: Float64Array;
}

/** Both edges at every station, and the chord the band was sized by. */
export interface StationEdges {
  readonly lead: StationEdge;
  readonly trail: StationEdge;
  /** Median chord over the stations that saw the panel. */
  readonly chord: number;
  /** The cut segments (station, va, wa, vb, wb) — each station's section — when sliced from triangles. */
  readonly cuts?: { readonly data: Float64Array; readonly n: number };
}

/**
 * Panel coordinates of the vertices: span positions stored (every pass needs them), chord and
 * thickness positions computed on demand (slicing needs them only where a triangle crosses a station).
 */
export interface PanelCoordinates {
  readonly u: Float64Array;
  chordAt(i: number): number;
  thicknessAt(i: number): number;
}

/** Fraction of a bin's width either side of a boundary whose vertices count in both bins. */
const BOUNDARY_SLIVER = 0.02;

/**
 * Cuts every triangle at `stations` planes square to the span, at the centres of equal slices of
 * [uMin, uMax], and keeps each station's forward- and aft-most cut points.
 */
export function sliceStations(
  coords: PanelCoordinates,
  triangles: Uint32Array,
  uMin: number,
  uMax: number,
  stations: number,
  bandFraction: number,
): StationEdges {
  const width = (uMax - uMin) / stations;
  const vLow = new Float64Array(stations).fill(Infinity);
  const vHigh = new Float64Array(stations).fill(-Infinity);
  // Cut segments as (station, va, wa, vb, wb); few (one per triangle crossing a station).
  const sink: CutSink = { cuts: new Float64Array(5 * 1024), n: 0 };
  if (width > 0) {
    // Each vertex's cell between stations: a triangle whose vertices share a cell crosses no
    // station — the test nearly every triangle of a dense mesh ends at.
    const u = coords.u;
    const cell = new Int32Array(u.length);
    for (let i = 0; i < u.length; i++) cell[i] = stationCell(u[i], uMin, width);
    for (let t = 0; t < triangles.length; t += 3) {
      const a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
      const ca = cell[a], cb = cell[b], cc = cell[c];
      if (ca === cb && cb === cc) continue;
      // Only the stations between its vertices' cells: a triangle is swept across the stations its
      // span covers, not cut at every station.
      cutTriangle(
        coords,
        a,
        b,
        c,
        firstCrossed(ca, cb, cc),
        lastCrossed(ca, cb, cc, stations),
        uMin,
        width,
        vLow,
        vHigh,
        sink,
      );
    }
  }
  const { cuts, n } = sink;
  const chord = medianChord(vLow, vHigh);
  const band = bandFraction * chord;
  // The band's thickness range at each edge, from the cut ends near the extreme.
  const lead = newBandAccumulator(stations), trail = newBandAccumulator(stations);
  // The cut ends in each band, in cut order (offsets of their v in `cuts`): the halfway pass below
  // reads only these, not every cut of a dense mesh again.
  const inLead: number[] = [], inTrail: number[] = [];
  for (let i = 0; i < n; i += 5) {
    const k = cuts[i] | 0, at = uMin + (k + 0.5) * width;
    for (let end = 1; end <= 3; end += 2) {
      const cv = cuts[i + end], cw = cuts[i + end + 1];
      if (cv <= vLow[k] + band) accumulate(lead, k, at, cv, cw), inLead.push(i + end);
      if (cv >= vHigh[k] - band) accumulate(trail, k, at, cv, cw), inTrail.push(i + end);
    }
  }
  // The edge at mid-thickness: halfway between the forward-most point of the upper and of the lower
  // half of the band (aft-most for the trailing edge). A slanted nose face is met at its middle, a
  // sharp or blunt nose at its tip, a flat sheet at its extreme — and skin points merely near the
  // nose cannot drag it aft, as a mean over the band would.
  const leadV = halfwayExtremes(cuts, inLead, lead, stations, 1);
  const trailV = halfwayExtremes(cuts, inTrail, trail, stations, -1);
  return {
    lead: edgeFromBands(lead, leadV),
    trail: edgeFromBands(trail, trailV),
    chord,
    cuts: { data: cuts, n },
  };
}

/**
 * The cell between stations that a span position `u` lies in, for stations at the centres of slices
 * `width` wide from `uMin`: cell k lies between station k and k + 1 (−1 before the first). A position
 * exactly on a station counts in the cell below it, so the triangles above it (reaching into the next
 * cell) still cut there.
 */
export function stationCell(u: number, uMin: number, width: number): number {
  return Math.ceil((u - uMin) / width - 0.5) - 1;
}

/** The first station a triangle with vertices in cells `ca`, `cb`, `cc` crosses: above its lowest cell. */
export function firstCrossed(ca: number, cb: number, cc: number): number {
  return (ca < cb ? (ca < cc ? ca : cc) : (cb < cc ? cb : cc)) + 1;
}

/**
 * The last station a triangle with vertices in cells `ca`, `cb`, `cc` crosses: its highest cell's
 * lower station (a vertex on a station is in the cell below, and the triangle above cuts it there).
 */
export function lastCrossed(ca: number, cb: number, cc: number, stations: number): number {
  return Math.min(stations - 1, ca > cb ? (ca > cc ? ca : cc) : (cb > cc ? cb : cc));
}

/**
 * Per station, the mean of the extreme chord positions (least for `sign` 1, greatest for −1) among
 * the band's cut ends (`ends`: offsets of their v in `cuts`, each within the band of its station's
 * extreme) at or above and at or below the middle of its thickness range.
 */
function halfwayExtremes(
  cuts: Float64Array,
  ends: readonly number[],
  acc: BandAccumulator,
  stations: number,
  sign: 1 | -1,
): Float64Array {
  const upper = new Float64Array(stations).fill(Infinity);
  const lower = new Float64Array(stations).fill(Infinity);
  for (const e of ends) {
    const k = cuts[e - (e % 5)] | 0;
    const mid = (acc[k * 5 + 3] + acc[k * 5 + 4]) / 2;
    const key = sign * cuts[e], cw = cuts[e + 1];
    if (cw >= mid && key < upper[k]) upper[k] = key;
    if (cw <= mid && key < lower[k]) lower[k] = key;
  }
  const out = new Float64Array(stations);
  for (let k = 0; k < stations; k++) out[k] = sign * (upper[k] + lower[k]) / 2;
  return out;
}

/** Where {@link cutTriangle} appends its cut segments: the buffer (grown as needed) and its length. */
interface CutSink {
  cuts: Float64Array;
  n: number;
}

/**
 * Cuts one triangle at the station planes `k0`…`k1` it spans, extending the stations' extremes and
 * appending one segment (station, va, wa, vb, wb) per cut to `sink`. Called for every triangle
 * crossing a station, so it allocates nothing but a grown buffer.
 */
function cutTriangle(
  coords: PanelCoordinates,
  a: number,
  b: number,
  c: number,
  k0: number,
  k1: number,
  uMin: number,
  width: number,
  vLow: Float64Array,
  vHigh: Float64Array,
  sink: CutSink,
): void {
  const u = coords.u;
  const ua = u[a], ub = u[b], uc = u[c];
  const va = coords.chordAt(a), vb = coords.chordAt(b), vc = coords.chordAt(c);
  const wa = coords.thicknessAt(a), wb = coords.thicknessAt(b), wc = coords.thicknessAt(c);
  for (let k = k0; k <= k1; k++) {
    const at = uMin + (k + 0.5) * width;
    const pa = ua - at, pb = ub - at, pc = uc - at;
    // The edges a→b, b→c, c→a in turn (written out: a loop choosing each edge's ends by index cost
    // a hostile mesh, whose every triangle crosses several stations, a quarter of the fit).
    const fab = crossing(pa, pb), fbc = crossing(pb, pc), fca = crossing(pc, pa);
    let found = 0, v0 = 0, w0 = 0, v1 = 0, w1 = 0;
    if (fab >= 0) {
      v0 = va + fab * (vb - va);
      w0 = wa + fab * (wb - wa);
      if (v0 < vLow[k]) vLow[k] = v0;
      if (v0 > vHigh[k]) vHigh[k] = v0;
      found = 1;
    }
    if (fbc >= 0) {
      const cv = vb + fbc * (vc - vb), cw = wb + fbc * (wc - wb);
      if (cv < vLow[k]) vLow[k] = cv;
      if (cv > vHigh[k]) vHigh[k] = cv;
      if (found === 0) {
        v0 = cv;
        w0 = cw;
      } else {
        v1 = cv;
        w1 = cw;
      }
      found++;
    }
    if (fca >= 0) {
      const cv = vc + fca * (va - vc), cw = wc + fca * (wa - wc);
      if (cv < vLow[k]) vLow[k] = cv;
      if (cv > vHigh[k]) vHigh[k] = cv;
      if (found === 0) {
        v0 = cv;
        w0 = cw;
      } else if (found === 1) {
        v1 = cv;
        w1 = cw;
      }
      found++;
    }
    if (found < 2) continue;
    if (sink.n + 5 > sink.cuts.length) {
      const grown = new Float64Array(sink.cuts.length * 2);
      grown.set(sink.cuts);
      sink.cuts = grown;
    }
    const cuts = sink.cuts, n = sink.n;
    cuts[n] = k;
    cuts[n + 1] = v0;
    cuts[n + 2] = w0;
    cuts[n + 3] = v1;
    cuts[n + 4] = w1;
    sink.n = n + 5;
  }
}

/**
 * Where an edge from p to q (span positions relative to a station plane) meets the plane, as a share
 * of the way from p, or −1 when it does not: an edge meets it once, counting a vertex on it with the
 * edge it starts (an edge lying in the plane meets it at p).
 */
function crossing(up: number, uq: number): number {
  if (!((up <= 0 && uq > 0) || (up >= 0 && uq < 0) || (up === 0 && uq === 0))) return -1;
  return up === uq ? 0 : up / (up - uq);
}

/**
 * Bins the vertices along the span and keeps each bin's forward- and aft-most vertices. A vertex
 * within a sliver of a bin boundary counts in both bins: a section lying on a boundary would
 * otherwise split its upper and lower skins (their span positions differ by thickness × the
 * normal's tilt) and each bin would see one corner.
 */
export function binVertices(
  coords: PanelCoordinates,
  uMin: number,
  uMax: number,
  bins: number,
  bandFraction: number,
): StationEdges {
  const u = coords.u;
  const v = new Float64Array(u.length), w = new Float64Array(u.length);
  for (let i = 0; i < u.length; i++) {
    v[i] = coords.chordAt(i);
    w[i] = coords.thicknessAt(i);
  }
  const binScale = uMax > uMin ? bins / (uMax - uMin) : 0;
  const count = u.length;
  const vLow = new Float64Array(bins).fill(Infinity);
  const vHigh = new Float64Array(bins).fill(-Infinity);
  const lastBin = bins - 1;
  const binOf = (i: number) => Math.min(lastBin, ((u[i] - uMin) * binScale) | 0);
  const sharedBin = (i: number, b: number) => {
    const f = (u[i] - uMin) * binScale - b;
    const shared = f < BOUNDARY_SLIVER ? b - 1 : f > 1 - BOUNDARY_SLIVER ? b + 1 : -1;
    return shared >= 0 && shared <= lastBin ? shared : -1;
  };
  const extend = (k: number, i: number) => {
    if (v[i] < vLow[k]) vLow[k] = v[i];
    if (v[i] > vHigh[k]) vHigh[k] = v[i];
  };
  for (let i = 0; i < count; i++) {
    const b = binOf(i), s = sharedBin(i, b);
    extend(b, i);
    if (s >= 0) extend(s, i);
  }
  const chord = medianChord(vLow, vHigh);
  const band = bandFraction * chord;
  const lead = newBandAccumulator(bins), trail = newBandAccumulator(bins);
  const collect = (k: number, i: number) => {
    if (v[i] <= vLow[k] + band) accumulate(lead, k, u[i], v[i], w[i]);
    if (v[i] >= vHigh[k] - band) accumulate(trail, k, u[i], v[i], w[i]);
  };
  for (let i = 0; i < count; i++) {
    const b = binOf(i), s = sharedBin(i, b);
    collect(b, i);
    if (s >= 0) collect(s, i);
  }
  return { lead: edgeFromBands(lead), trail: edgeFromBands(trail), chord };
}

/** Median over stations that saw the panel of their chord extent (0 when none did). */
function medianChord(vLow: Float64Array, vHigh: Float64Array): number {
  const chords: number[] = [];
  for (let k = 0; k < vLow.length; k++) if (vHigh[k] >= vLow[k]) chords.push(vHigh[k] - vLow[k]);
  return median(chords);
}

function newBandAccumulator(stations: number): BandAccumulator {
  const acc = new Float64Array(stations * 5);
  for (let k = 0; k < stations; k++) {
    acc[k * 5 + 3] = Infinity;
    acc[k * 5 + 4] = -Infinity;
  }
  return acc;
}

function accumulate(acc: BandAccumulator, k: number, u: number, v: number, w: number): void {
  const o = k * 5;
  acc[o]++;
  acc[o + 1] += u;
  acc[o + 2] += v;
  if (w < acc[o + 3]) acc[o + 3] = w;
  if (w > acc[o + 4]) acc[o + 4] = w;
}

/**
 * Station points of an edge from its band accumulator: mean span position, the chord position
 * `chordAt` gives where finite (else the band's mean, as for binned vertices), the middle of the
 * thickness.
 */
function edgeFromBands(acc: BandAccumulator, chordAt?: Float64Array): StationEdge {
  const stations = acc.length / 5;
  const points = new Float64Array(stations * 3).fill(NaN);
  const thickness = new Float64Array(stations).fill(NaN);
  for (let k = 0, o = 0; k < stations; k++, o += 5) {
    if (acc[o] === 0) continue;
    const v = chordAt?.[k];
    points[k * 3] = acc[o + 1] / acc[o];
    points[k * 3 + 1] = v !== undefined && Number.isFinite(v) ? v : acc[o + 2] / acc[o];
    points[k * 3 + 2] = (acc[o + 3] + acc[o + 4]) / 2;
    thickness[k] = acc[o + 4] - acc[o + 3];
  }
  return { points, thickness };
}

/** True when station `k` saw the edge. */
export function stationFilled(edge: StationEdge, k: number): boolean {
  return !Number.isNaN(edge.points[k * 3]);
}

/** A station's edge point (u, v, w). */
export function stationPoint(edge: StationEdge, k: number): [number, number, number] {
  return [edge.points[k * 3], edge.points[k * 3 + 1], edge.points[k * 3 + 2]];
}

/** Median over filled stations of an edge's thickness. */
export function medianThickness(edge: StationEdge): number {
  return median([...edge.thickness].filter((t) => !Number.isNaN(t)));
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}
