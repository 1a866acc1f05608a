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
/** Numbers per station row: span position, lead (v, w), chord line (dv, dw). */
const ROW = 5;
/** Vertices of a panel checked one by one; a denser panel is sampled evenly down to about this. */
const SAMPLED = 20_000;

/**
 * Vertices outside the envelope of the cut sections (cut segments (station, va, wa, vb, wb)). Each
 * station's section is taken in its own chord frame — from its lead point along its chord line to
 * its trail point, lengths as shares of that chord — so sweep, taper, twist and a deflection at rest
 * do not count; per chordwise bin the thickness range three quarters of the stations stay within
 * is kept; a vertex beyond that range (the nearest bin's, ahead of the lead or behind the trail) by
 * more than {@link MARGIN} of the chord in every frame it is placed in — the chord frame
 * interpolated at its span position, either neighbouring station's, the fitted edge `lines`' (lead
 * v, w and the chord line's dv, dw at a span position) — hangs out. A station whose lead lies off
 * the lines' chord line by more than {@link MARGIN} (it cut a bracket) takes the lines' frame.
 * Only the thickness direction counts, and only the span between the outermost stations is judged.
 * Undefined when nothing hangs out.
 */
export function hangingGeometry(
  coords: PanelCoordinates,
  cuts: { readonly data: Float64Array; readonly n: number },
  lead: Float64Array,
  trail: Float64Array,
  spanLength: number,
  lines?: (u: number) => readonly [number, number, number, number],
): Hanging | undefined {
  const { data, n } = cuts;
  const stations = lead.length / 3;
  // The stations that saw the panel: span position, lead point (v, w) and chord line (dv, dw) to
  // the trail point. The chord line, not the flow: a panel modelled deflected at rest is cut in
  // sections tilted by the deflection, and in the flow's frame a neighbouring station's lead (moved
  // along the tilted section by the sweep) would lift a bracket below the panel into its envelope.
  const at: number[][] = [];
  for (let k = 0; k < stations; k++) {
    const dv = trail[k * 3 + 1] - lead[k * 3 + 1], dw = trail[k * 3 + 2] - lead[k * 3 + 2];
    if (dv > 0) at.push([lead[k * 3], lead[k * 3 + 1], lead[k * 3 + 2], dv, dw]);
  }
  // A station that cut a bracket has its lead on the bracket, below or above the section: its frame
  // would take the bracket for the nose. Such a station is placed on the fitted edge lines instead
  // (a horn balance's station, whose lead is ahead but in the surface, keeps its own).
  if (lines) {
    for (const row of at) {
      const [v0, w0, dv, dw] = lines(row[0]);
      if (!(dv > 0)) continue;
      const off = ((row[2] - w0) * dv - (row[1] - v0) * dw) / (dv * dv + dw * dw);
      if (Math.abs(off) > MARGIN) row.splice(1, 4, v0, w0, dv, dw);
    }
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
    const [, v0, w0, dv, dw] = at[j];
    const q = 1 / (dv * dv + dw * dw);
    // Each segment covers the bins between its ends: a long segment (a coarse skin) fills its span.
    const xa = ((data[i + 1] - v0) * dv + (data[i + 2] - w0) * dw) * q;
    const xb = ((data[i + 3] - v0) * dv + (data[i + 4] - w0) * dw) * q;
    const ya = ((data[i + 2] - w0) * dv - (data[i + 1] - v0) * dw) * q;
    const yb = ((data[i + 4] - w0) * dv - (data[i + 3] - v0) * dw) * q;
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
  // The same in the chord frame (v0, w0) + (dv, dw).
  const outsideIn = (v: number, w: number, v0: number, w0: number, dv: number, dw: number) => {
    const q = 1 / (dv * dv + dw * dw);
    return outside(((v - v0) * dv + (w - w0) * dw) * q, ((w - w0) * dv - (v - v0) * dw) * q);
  };
  // The stations as flat (u, v, w, dv, dw) rows.
  const m = at.length, rows = new Float64Array(m * ROW);
  at.forEach((row, j) => rows.set(row, j * ROW));
  const first = rows[0], last = rows[(m - 1) * ROW];
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
    while (j + 2 < m && rows[(j + 1) * ROW] < u) j++;
    const a = j * ROW, b = Math.min(j + 1, m - 1) * ROW;
    const f = rows[b] > rows[a] ? (u - rows[a]) / (rows[b] - rows[a]) : 0;
    const v = coords.chordAt(i), w = coords.thicknessAt(i);
    // The common case: inside the envelope in the interpolated frame.
    const lerp = (k: number) => rows[a + k] + f * (rows[b + k] - rows[a + k]);
    let beyond = outsideIn(v, w, lerp(1), lerp(2), lerp(3), lerp(4));
    if (beyond <= MARGIN) continue;
    beyond = Math.min(beyond, outsideIn(v, w, rows[a + 1], rows[a + 2], rows[a + 3], rows[a + 4]));
    beyond = Math.min(beyond, outsideIn(v, w, rows[b + 1], rows[b + 2], rows[b + 3], rows[b + 4]));
    if (lines && beyond > MARGIN) {
      // The fitted edge lines' frame: right where an end station's section is truncated (a skewed
      // end rib reaching past it).
      const [v0, w0, dv, dw] = lines(u);
      if (dv > 0) beyond = Math.min(beyond, outsideIn(v, w, v0, w0, dv, dw));
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
