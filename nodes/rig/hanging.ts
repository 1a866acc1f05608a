/**
 * Geometry a panel carries outside its own sections: hinge brackets of a dropped hinge (a flap hung
 * below the wing, its brackets in the flap's mesh), track fairings, control horns, a horn balance too
 * narrow for any span station to cut. The fit never sees it — the stations cut the surface between
 * such parts — so a forward-edge hinge is drawn through the surface's nose while the model may turn
 * about the brackets' pivot well below it. Such a fit is an approximation the report must not call
 * good: the vertices lying clearly outside the envelope of every station's section are counted and
 * grouped along the span, and the judgement names them.
 *
 * @module
 */
import type { PanelCoordinates } from "./edge_stations.ts";

/** What hangs outside the sections: how far (share of the chord) and at how many span places. */
export interface Hanging {
  /** The furthest such vertex from the section envelope, as a share of the chord. */
  readonly depth: number;
  /** Separate places along the span (clusters of such vertices). */
  readonly places: number;
}

/** Outside the envelope by more than this share of the (local) chord counts. */
const MARGIN = 0.05;
const CHORD_BINS = 24;
/** Vertices of a panel checked one by one; a denser panel is sampled evenly down to about this. */
const SAMPLED = 20_000;

/**
 * Vertices outside the envelope of the cut sections (cut segments (station, va, wa, vb, wb)). Each
 * station's section is taken relative to its own lead point and chord (so sweep, taper and twist
 * do not count), and per chordwise bin the thickness range three quarters of the stations stay
 * within kept; a vertex beyond that range (the nearest bin's, ahead of the lead or behind the trail)
 * by more than {@link MARGIN} of the chord in every frame it is placed in — the lead point and chord
 * interpolated at its span position, either neighbouring station's, the fitted edge `lines`' (lead
 * v, w and chord at a span position) — hangs out. Only the thickness direction counts, and only the
 * span between the outermost stations is judged. Undefined when nothing hangs out.
 */
export function hangingGeometry(
  coords: PanelCoordinates,
  cuts: { readonly data: Float64Array; readonly n: number },
  lead: Float64Array,
  trail: Float64Array,
  spanLength: number,
  lines?: (u: number) => readonly [number, number, number],
): Hanging | undefined {
  const { data, n } = cuts;
  const stations = lead.length / 3;
  // The stations that saw the panel: span position, lead point (v, w) and chord.
  const at: number[][] = [];
  for (let k = 0; k < stations; k++) {
    const chord = trail[k * 3 + 1] - lead[k * 3 + 1];
    if (chord > 0) at.push([lead[k * 3], lead[k * 3 + 1], lead[k * 3 + 2], chord]);
  }
  if (n === 0 || at.length === 0) return undefined;
  const index = new Int32Array(stations).fill(-1);
  for (let k = 0, j = 0; k < stations; k++) if (trail[k * 3 + 1] - lead[k * 3 + 1] > 0) index[k] = j++;
  // Per station and chordwise bin, the section's thickness range.
  const stationLow = new Float64Array(at.length * CHORD_BINS).fill(Infinity);
  const stationHigh = new Float64Array(at.length * CHORD_BINS).fill(-Infinity);
  // Section coordinates run from 0 (lead) to 1 (trail); bins reach a little beyond both.
  const binOf = (x: number) => Math.min(CHORD_BINS - 1, Math.max(0, Math.floor(x * CHORD_BINS)));
  for (let i = 0; i < n; i += 5) {
    const j = index[data[i] | 0];
    if (j < 0) continue;
    const [, v0, w0, c] = at[j];
    // Each segment covers the bins between its ends: a long segment (a coarse skin) fills its span.
    const xa = (data[i + 1] - v0) / c, xb = (data[i + 3] - v0) / c;
    const ya = (data[i + 2] - w0) / c, yb = (data[i + 4] - w0) / c;
    const lo = Math.min(ya, yb), hi = Math.max(ya, yb);
    for (let b = binOf(Math.min(xa, xb)); b <= binOf(Math.max(xa, xb)); b++) {
      const o = j * CHORD_BINS + b;
      if (lo < stationLow[o]) stationLow[o] = lo;
      if (hi > stationHigh[o]) stationHigh[o] = hi;
    }
  }
  // The envelope over the stations, past the most extreme quarter of them: brackets the stations
  // happen to cut are no part of the section.
  const low = new Float64Array(CHORD_BINS), high = new Float64Array(CHORD_BINS);
  for (let b = 0; b < CHORD_BINS; b++) {
    const lows: number[] = [], highs: number[] = [];
    for (let j = 0; j < at.length; j++) {
      const o = j * CHORD_BINS + b;
      if (stationLow[o] <= stationHigh[o]) {
        lows.push(stationLow[o]);
        highs.push(stationHigh[o]);
      }
    }
    lows.sort((x, y) => x - y);
    highs.sort((x, y) => y - x);
    const pick = Math.floor(lows.length / 4);
    low[b] = lows.length ? lows[pick] : Infinity;
    high[b] = highs.length ? highs[pick] : -Infinity;
  }
  // A neighbouring bin's range counts too: the envelope is sampled, not exact.
  const lowWide = new Float64Array(CHORD_BINS), highWide = new Float64Array(CHORD_BINS);
  for (let b = 0; b < CHORD_BINS; b++) {
    const b0 = Math.max(0, b - 1), b1 = Math.min(CHORD_BINS - 1, b + 1);
    lowWide[b] = Math.min(low[b], low[b0], low[b1]);
    highWide[b] = Math.max(high[b], high[b0], high[b1]);
  }
  // How far a point in section coordinates lies outside the envelope (0 inside).
  // Only the thickness direction counts: a horn balance the stations cut once reaches ahead in the
  // surface's plane and turns about the same line; a bracket hangs below. Ahead of the lead a point is
  // held to the lead bin's own range (a dropped hinge's lug ahead of the nose hangs below it), behind
  // the trail to the last bin's.
  const outside = (x: number, y: number) => {
    const ahead = x < 0;
    const k = ahead ? 0 : x >= 1 ? CHORD_BINS - 1 : (x * CHORD_BINS) | 0;
    const lo = ahead ? low[0] : lowWide[k], hi = ahead ? high[0] : highWide[k];
    return lo <= hi ? Math.max(0, lo - y, y - hi) : 0;
  };
  // The stations as flat (u, v, w, chord) rows.
  const m = at.length, rows = new Float64Array(m * 4);
  at.forEach((row, j) => rows.set(row, j * 4));
  const first = rows[0], last = rows[(m - 1) * 4];
  const even = m === stations && m > 1 && last > first, perStep = even ? (m - 1) / (last - first) : 0;
  const out: number[] = [];
  let depth = 0;
  const count = coords.u.length;
  // A dense mesh is sampled (every vertex up to SAMPLED, then evenly), so the pass stays a small
  // share of the fit; brackets drawn as densely as their surface are still met many times over.
  const stride = Math.max(1, Math.floor(count / SAMPLED));
  for (let i = 0; i < count; i += stride) {
    const u = coords.u[i];
    // Beyond the outermost stations a skewed or raked end rib leaves them truncated sections: judge
    // only what lies between stations.
    if (u < first || u > last) continue;
    // The lead point and chord at this span position, between the nearest stations; or either
    // station's own, for a vertex of a step (a horn balance) between them. Scalars only: this runs
    // once per vertex of every panel.
    // Stations are evenly spaced: when every one saw the panel its cell is found directly.
    let j = even ? ((u - first) * perStep) | 0 : 0;
    if (j > m - 2) j = m - 2;
    if (j < 0) j = 0;
    while (j + 2 < m && rows[(j + 1) * 4] < u) j++;
    const a = j * 4, b = Math.min(j + 1, m - 1) * 4;
    const f = rows[b] > rows[a] ? (u - rows[a]) / (rows[b] - rows[a]) : 0;
    const v = coords.chordAt(i), w = coords.thicknessAt(i);
    const inverse = 1 / (rows[a + 3] + f * (rows[b + 3] - rows[a + 3]));
    // The common case inline: inside the envelope in the interpolated frame.
    const x = (v - rows[a + 1] - f * (rows[b + 1] - rows[a + 1])) * inverse;
    const y = (w - rows[a + 2] - f * (rows[b + 2] - rows[a + 2])) * inverse;
    let beyond = outside(x, y);
    if (beyond <= MARGIN) continue;
    beyond = Math.min(beyond, outside((v - rows[a + 1]) / rows[a + 3], (w - rows[a + 2]) / rows[a + 3]));
    beyond = Math.min(beyond, outside((v - rows[b + 1]) / rows[b + 3], (w - rows[b + 2]) / rows[b + 3]));
    if (lines && beyond > MARGIN) {
      // The fitted edge lines' frame: right where an end station's section is truncated (a skewed
      // end rib reaching past it).
      const [v0, w0, c] = lines(u);
      if (c > 0) beyond = Math.min(beyond, outside((v - v0) / c, (w - w0) / c));
    }
    if (beyond > MARGIN) {
      out.push(u);
      depth = Math.max(depth, beyond);
    }
  }
  if (out.length < 3) return undefined;
  // Places along the span: runs of such vertices with gaps of over a twentieth of the span between.
  out.sort((a, b) => a - b);
  let places = 1;
  for (let i = 1; i < out.length; i++) if (out[i] - out[i - 1] > 0.05 * spanLength) places++;
  return { depth, places };
}
