/**
 * The envelope of a panel's cut sections: where its surface lies in thickness at each chord
 * position, from the span stations' cuts. Each station's section is taken in its own chord frame —
 * from its lead point along its chord line to its trail point, lengths as shares of that chord — so
 * sweep, taper, twist and a deflection at rest do not count; per chordwise bin the thickness range
 * three quarters of the stations stay within is kept (brackets the stations happen to cut are no
 * part of the section). A point is then judged by how far it lies above or below that range. Used
 * for geometry in the panel's own mesh (`hanging.ts`) and for hinge hardware beside it
 * (`hinge_hardware.ts`).
 *
 * @module
 */
import { sameIntegers, sameNumbers, STATION_MEMO } from "./station_memo.ts";

/** Chordwise bins of the envelope. */
const CHORD_BINS = 24;
/** Runs of 1, 2, 4, 8 and 16 bins: any run of up to {@link CHORD_BINS} is two of one length. */
const RUN_LEVELS = 5;
/** Numbers per station row: span position, lead (v, w), chord line (dv, dw). */
const ROW = 5;
/** A station whose lead lies further than this (share of the chord) off the edge lines cut a bracket. */
const LEAD_OFF_LINE = 0.05;

/** A cut segment this far (share of the chord) ahead of its station's lead is none of its section. */
const AHEAD = 0.05;

/** Lead point (v, w) and chord line (dv, dw) of the fitted edge lines at a span position. */
export type EdgeLines = (u: number) => readonly [number, number, number, number];

/** Envelopes kept per kept cut (station framings: refits see the same, moved copies a few). */
const ENVELOPES_PER_CUT = 4;

/** Cut segments (station, va, wa, vb, wb), as `sliceStations` keeps them. */
export interface SectionCuts {
  readonly data: Float64Array;
  readonly n: number;
}

/**
 * Thickness envelope of a panel's sections (see the module doc), in the panel's (u span, v chord,
 * w thickness) coordinates.
 *
 * @example
 * ```ts
 * const envelope = SectionEnvelope.of(edges.cuts, lead.points, trail.points, lines);
 * envelope?.beyond(u, v, w); // 0 inside, else how far outside as a share of the chord
 * ```
 */
export class SectionEnvelope {
  private constructor(
    /** Stations as flat (u, v, w, dv, dw) rows. */
    private readonly rows: Float64Array,
    private readonly low: Float64Array,
    private readonly high: Float64Array,
    private readonly lowWide: Float64Array,
    private readonly highWide: Float64Array,
    private readonly lines: EdgeLines | undefined,
    /** True when every station saw the panel: they are evenly spaced and a cell is found directly. */
    private readonly even: boolean,
  ) {}

  /**
   * The envelope of the stations' sections; undefined when no station saw the panel. `lead` and
   * `trail` hold each station's (u, v, w) edge point (NaN where empty). A station whose lead lies off
   * the fitted edge `lines`' chord line by more than 5 % of the chord cut a bracket (its lead is the
   * bracket's foot) and takes the lines' frame; one whose lead is ahead but in the surface (a horn
   * balance) keeps its own.
   */
  static of(
    cuts: SectionCuts,
    lead: Float64Array,
    trail: Float64Array,
    lines?: EdgeLines,
  ): SectionEnvelope | undefined {
    const { data, n } = cuts;
    const stations = lead.length / 3;
    // The stations that saw the panel: span position, lead point (v, w) and chord line (dv, dw) to
    // the trail point. The chord line, not the flow: a panel modelled deflected at rest is cut in
    // sections tilted by the deflection, and in the flow's frame a neighbouring station's lead (moved
    // along the tilted section by the sweep) would lift a bracket below the panel into its envelope.
    const at: number[][] = [];
    const index = new Int32Array(stations).fill(-1);
    for (let k = 0; k < stations; k++) {
      const dv = trail[k * 3 + 1] - lead[k * 3 + 1], dw = trail[k * 3 + 2] - lead[k * 3 + 2];
      if (dv > 0) {
        index[k] = at.length;
        at.push([lead[k * 3], lead[k * 3 + 1], lead[k * 3 + 2], dv, dw]);
      }
    }
    if (n === 0 || at.length === 0) return undefined;
    if (lines) {
      for (const row of at) {
        const [v0, w0, dv, dw] = lines(row[0]);
        if (!(dv > 0)) continue;
        const off = ((row[2] - w0) * dv - (row[1] - v0) * dw) / (dv * dv + dw * dw);
        if (Math.abs(off) > LEAD_OFF_LINE) row.splice(1, 4, v0, w0, dv, dw);
      }
    }
    const rows = new Float64Array(at.length * ROW);
    at.forEach((row, j) => rows.set(row, j * ROW));
    const m = at.length, first = rows[0], last = rows[(m - 1) * ROW];
    const even = m === stations && m > 1 && last > first;
    // The same cuts in the same station frames (a refit, a moved copy of the panel): the same envelope.
    const known = keptEnvelope(data, n, index, rows);
    if (known) {
      return new SectionEnvelope(rows, known.low, known.high, known.lowWide, known.highWide, lines, even);
    }
    // Per station and chordwise bin, the section's thickness range: a segment's range is laid on the
    // run of bins it covers as two runs of a power of two (overlapping: a least and a greatest are
    // the same however often a value counts), level by level, then pushed down to single bins below.
    // A hostile mesh's long segments each covered every bin, one by one.
    const cells = at.length * CHORD_BINS;
    const lowRuns = new Float64Array(RUN_LEVELS * cells).fill(Infinity);
    const highRuns = new Float64Array(RUN_LEVELS * cells).fill(-Infinity);
    // Section coordinates run from 0 (lead) to 1 (trail); bins reach a little beyond both.
    const binOf = (x: number) => Math.min(CHORD_BINS - 1, Math.max(0, Math.floor(x * CHORD_BINS)));
    // Every cut segment passes here (a hostile mesh's hundreds of thousands): the station rows are
    // read from the flat array, not unpacked from per-station arrays.
    for (let i = 0; i < n; i += 5) {
      const j = index[data[i] | 0];
      if (j < 0) continue;
      const r = j * ROW, v0 = rows[r + 1], w0 = rows[r + 2], dv = rows[r + 3], dw = rows[r + 4];
      const q = 1 / (dv * dv + dw * dw);
      // Each segment covers the bins between its ends: a long segment (a coarse skin) fills its span.
      const xa = ((data[i + 1] - v0) * dv + (data[i + 2] - w0) * dw) * q;
      const xb = ((data[i + 3] - v0) * dv + (data[i + 4] - w0) * dw) * q;
      const ya = ((data[i + 2] - w0) * dv - (data[i + 1] - v0) * dw) * q;
      const yb = ((data[i + 4] - w0) * dv - (data[i + 3] - v0) * dw) * q;
      // Wholly ahead of the lead: no part of the section. A station that cut a pushrod running
      // forward (its lead on the rod, so it took the lines' frame) would otherwise widen the lead
      // bin by the rod's depth, and a dropped hinge's brackets below the nose would hide inside it.
      if (xa < -AHEAD && xb < -AHEAD) continue;
      const lo = Math.min(ya, yb), hi = Math.max(ya, yb);
      const first = binOf(Math.min(xa, xb)), last = binOf(Math.max(xa, xb));
      if (!(first <= last)) continue;
      const level = 31 - Math.clz32(last - first + 1), o = level * cells + j * CHORD_BINS;
      const b0 = o + first, b1 = o + last + 1 - (1 << level);
      if (lo < lowRuns[b0]) lowRuns[b0] = lo;
      if (hi > highRuns[b0]) highRuns[b0] = hi;
      if (lo < lowRuns[b1]) lowRuns[b1] = lo;
      if (hi > highRuns[b1]) highRuns[b1] = hi;
    }
    for (let level = RUN_LEVELS - 1; level > 0; level--) {
      const half = 1 << (level - 1), o = level * cells, below = (level - 1) * cells;
      for (let j = 0; j < at.length; j++) {
        for (let b = j * CHORD_BINS, end = b + CHORD_BINS - 2 * half; b <= end; b++) {
          const lo = lowRuns[o + b], hi = highRuns[o + b], c0 = below + b, c1 = below + b + half;
          if (lo < lowRuns[c0]) lowRuns[c0] = lo;
          if (hi > highRuns[c0]) highRuns[c0] = hi;
          if (lo < lowRuns[c1]) lowRuns[c1] = lo;
          if (hi > highRuns[c1]) highRuns[c1] = hi;
        }
      }
    }
    const stationLow = lowRuns.subarray(0, cells), stationHigh = highRuns.subarray(0, cells);
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
    keepEnvelope(data, { n, index, rows, low, high, lowWide, highWide });
    return new SectionEnvelope(rows, low, high, lowWide, highWide, lines, even);
  }

  /** Span position of the first station that saw the panel. */
  get first(): number {
    return this.rows[0];
  }

  /** Span position of the last station that saw the panel. */
  get last(): number {
    return this.rows[this.rows.length - ROW];
  }

  /**
   * How far the point (u, v, w) lies above or below the envelope, as a share of the chord (0
   * inside), in the frame that fits it best: the chord frame interpolated at its span position,
   * either neighbouring station's (a vertex of a step, a horn balance, between them) or the fitted
   * edge lines' (right where an end station's section is truncated by a skewed end rib). Once the
   * interpolated frame puts it within `enough`, that is the answer (the common case, one frame). A
   * span position beyond the outermost stations takes the nearest station's frames.
   */
  beyond(u: number, v: number, w: number, enough = 0): number {
    const rows = this.rows, m = rows.length / ROW;
    const first = rows[0], last = rows[(m - 1) * ROW];
    let j = this.even ? ((u - first) * ((m - 1) / (last - first))) | 0 : 0;
    if (j > m - 2) j = m - 2;
    if (j < 0) j = 0;
    while (j + 2 < m && rows[(j + 1) * ROW] < u) j++;
    const a = j * ROW, b = Math.min(j + 1, m - 1) * ROW;
    const f = rows[b] > rows[a] ? Math.min(1, Math.max(0, (u - rows[a]) / (rows[b] - rows[a]))) : 0;
    const lerp = (k: number) => rows[a + k] + f * (rows[b + k] - rows[a + k]);
    let beyond = this.outsideIn(v, w, lerp(1), lerp(2), lerp(3), lerp(4));
    if (beyond <= enough) return beyond;
    beyond = Math.min(beyond, this.outsideIn(v, w, rows[a + 1], rows[a + 2], rows[a + 3], rows[a + 4]));
    beyond = Math.min(beyond, this.outsideIn(v, w, rows[b + 1], rows[b + 2], rows[b + 3], rows[b + 4]));
    if (this.lines && beyond > enough) {
      const [v0, w0, dv, dw] = this.lines(u);
      if (dv > 0) beyond = Math.min(beyond, this.outsideIn(v, w, v0, w0, dv, dw));
    }
    return beyond;
  }

  /**
   * Field `k` of the envelope's row at span position `u`, interpolated between the two bins around it
   * (clamped to the first and last).
   */
  #rowAt(u: number): (k: number) => number {
    const rows = this.rows, m = rows.length / ROW;
    let j = 0;
    while (j + 2 < m && rows[(j + 1) * ROW] < u) j++;
    const a = j * ROW, b = Math.min(j + 1, m - 1) * ROW;
    const f = rows[b] > rows[a] ? Math.min(1, Math.max(0, (u - rows[a]) / (rows[b] - rows[a]))) : 0;
    return (k) => rows[a + k] + f * (rows[b + k] - rows[a + k]);
  }

  /**
   * Where the point (u, v, w) lies along the chord in the interpolated frame: 0 at the lead, 1 at
   * the trail, negative ahead.
   */
  chordPosition(u: number, v: number, w: number): number {
    const lerp = this.#rowAt(u);
    const dv = lerp(3), dw = lerp(4);
    return ((v - lerp(1)) * dv + (w - lerp(2)) * dw) / (dv * dv + dw * dw);
  }

  /**
   * True when the point (u, v, w) lies above the middle of the envelope's thickness range at its
   * chord position, in the interpolated frame (ahead of the lead against the lead bin's range, behind
   * the trail against the last bin's) — which side of the sections a point outside them is on.
   */
  above(u: number, v: number, w: number): boolean {
    const lerp = this.#rowAt(u);
    const v0 = lerp(1), w0 = lerp(2), dv = lerp(3), dw = lerp(4);
    const q = 1 / (dv * dv + dw * dw);
    const x = ((v - v0) * dv + (w - w0) * dw) * q, y = ((w - w0) * dv - (v - v0) * dw) * q;
    const k = x < 0 ? 0 : x >= 1 ? CHORD_BINS - 1 : (x * CHORD_BINS) | 0;
    const lo = x < 0 ? this.low[0] : this.lowWide[k], hi = x < 0 ? this.high[0] : this.highWide[k];
    return lo <= hi ? y > (lo + hi) / 2 : y > 0;
  }

  /**
   * How far a point in section coordinates lies outside the envelope (0 inside). Only the thickness
   * direction counts: a horn balance the stations cut once reaches ahead in the surface's plane and
   * turns about the same line; a bracket hangs below. Ahead of the lead a point is held to the lead
   * bin's own range (a dropped hinge's lug ahead of the nose hangs below it), behind the trail to the
   * last bin's.
   */
  private outside(x: number, y: number): number {
    const ahead = x < 0;
    const k = ahead ? 0 : x >= 1 ? CHORD_BINS - 1 : (x * CHORD_BINS) | 0;
    const lo = ahead ? this.low[0] : this.lowWide[k], hi = ahead ? this.high[0] : this.highWide[k];
    return lo <= hi ? Math.max(0, lo - y, y - hi) : 0;
  }

  /** {@link outside} for (v, w) in the chord frame (v0, w0) + (dv, dw). */
  private outsideIn(v: number, w: number, v0: number, w0: number, dv: number, dw: number): number {
    const q = 1 / (dv * dv + dw * dw);
    return this.outside(((v - v0) * dv + (w - w0) * dw) * q, ((w - w0) * dv - (v - v0) * dw) * q);
  }
}

/** An envelope's thickness ranges and what they were made from besides the cut segments. */
interface KeptEnvelope {
  readonly n: number;
  readonly index: Int32Array;
  readonly rows: Float64Array;
  readonly low: Float64Array;
  readonly high: Float64Array;
  readonly lowWide: Float64Array;
  readonly highWide: Float64Array;
}

/**
 * The envelope made before from the same segments, stations and station rows (bit for bit), kept with
 * the station memo's cut (`station_memo.ts`): a panel's refits and its moved copies share that cut, and
 * a 2,000-node file drawing one hostile mesh spent a quarter of its fit here once its cuts were kept.
 */
function keptEnvelope(data: Float64Array, n: number, index: Int32Array, rows: Float64Array) {
  const kept = STATION_MEMO.keptWith(data)?.envelopes as KeptEnvelope[] | undefined;
  return kept?.find((e) => e.n === n && sameIntegers(e.index, index) && sameNumbers(e.rows, rows));
}

/** Keeps an envelope with its kept cut (the last few station framings of it); none for other cuts. */
function keepEnvelope(data: Float64Array, envelope: KeptEnvelope): void {
  const kept = STATION_MEMO.keptWith(data)?.envelopes;
  if (!kept) return;
  if (kept.length >= ENVELOPES_PER_CUT) kept.shift();
  kept.push(envelope);
}
