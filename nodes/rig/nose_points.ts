/**
 * The cut points and segments near each station's nose tip, packed for the nose tests of
 * `nose_centre.ts`.
 *
 * @module
 */

/** A station's section as cut segments (station, va, wa, vb, wb), the form `sliceStations` keeps. */
export interface StationCuts {
  readonly data: Float64Array;
  readonly n: number;
}

/**
 * Each station's cut points within `near` of its tip along the chord, relative to the tip, packed
 * station after station into one typed array in cut order (counted first, then filled: growing
 * per-station JS arrays instead spent most of the fit on a dense mesh reallocating them) — or, with
 * `only` (NaN where a station is left out), the segments (va, wa, vb, wb) with an end that near, of
 * the stations kept.
 */
export function packNose(
  cuts: StationCuts,
  lead: Float64Array,
  stations: number,
  near: number,
  only: Float64Array | undefined,
): { points: Float64Array; start: Int32Array } {
  const data = cuts.data, n = cuts.n;
  const start = new Int32Array(stations + 1);
  // The cuts with an end that near, in cut order: the fill below reads only these (a dense or hostile
  // section has most of its cuts far from the tip), packing the same points in the same order.
  const kept: number[] = [];
  for (let i = 0; i < n; i += 5) {
    const k = data[i] | 0;
    const v0 = lead[k * 3 + 1];
    if (Number.isNaN(v0) || (only && Number.isNaN(only[k * 3]))) continue;
    const va = data[i + 1] - v0, vb = data[i + 3] - v0;
    if (only) {
      if (Math.min(va, vb) <= near) start[k + 1] += 4, kept.push(i);
    } else {
      if (va <= near) start[k + 1] += 2;
      if (vb <= near) start[k + 1] += 2;
      if (va <= near || vb <= near) kept.push(i);
    }
  }
  for (let k = 0; k < stations; k++) start[k + 1] += start[k];
  const points = new Float64Array(start[stations]);
  const end = start.slice(0, stations);
  for (const i of kept) {
    const k = data[i] | 0;
    const v0 = lead[k * 3 + 1], w0 = lead[k * 3 + 2];
    const va = data[i + 1] - v0, wa = data[i + 2] - w0;
    const vb = data[i + 3] - v0, wb = data[i + 4] - w0;
    let j = end[k];
    if (only) {
      points[j++] = va;
      points[j++] = wa;
      points[j++] = vb;
      points[j++] = wb;
    } else {
      if (va <= near) {
        points[j++] = va;
        points[j++] = wa;
      }
      if (vb <= near) {
        points[j++] = vb;
        points[j++] = wb;
      }
    }
    end[k] = j;
  }
  return { points, start };
}
