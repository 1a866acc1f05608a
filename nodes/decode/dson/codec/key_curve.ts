/**
 * A DSON channel animation's value at a time (the DSON spec's `channel_animation`): `keys` are
 * `[time, value, [interpolation, …]]`, and a key's interpolation shapes the span from it to the next
 * key — `["CONST"]` holds its value, `["LINEAR"]` runs straight, `["TCB", tension, continuity, bias]`
 * is a Kochanek–Bartels spline, `["HERMITE", in, out]` a cubic with the given slopes (value per
 * second: its out slope leaving, the next key's in slope arriving when that key is HERMITE too). A key
 * with none is, as the spec says for float channels, Catmull-Rom: TCB with all three 0. Before the
 * first key the curve holds the first value, after the last the last.
 *
 * Kochanek–Bartels (1984), with the tangents scaled for keys unevenly spaced in time (each by
 * 2Δ/(Δ before + Δ after) of its span), so a continuity of 0 keeps the slope continuous in time
 * across a key; an end key's missing neighbour span is taken equal to its other one.
 *
 * @module
 */

/** One key: its time (seconds), value, and interpolation as written (`undefined`: none). */
export interface CurveKey {
  readonly time: number;
  readonly value: number;
  readonly interpolation?: readonly [string, ...number[]];
}

/**
 * The value of the curve through `keys` (in ascending time) at `time`.
 *
 * @example
 * ```ts
 * curveValueAt([{ time: 0, value: 0 }, { time: 1, value: 1, interpolation: ["LINEAR"] }], 0.5); // 0.5
 * ```
 */
export function curveValueAt(keys: readonly CurveKey[], time: number): number {
  if (!keys.length) return NaN;
  if (time <= keys[0].time) return keys[0].value;
  const last = keys[keys.length - 1];
  if (time >= last.time) return last.value;
  const i = keys.findIndex((_, k) => k + 1 < keys.length && time < keys[k + 1].time);
  const [a, b] = [keys[i], keys[i + 1]];
  const span = b.time - a.time;
  if (!(span > 0)) return b.value;
  const s = (time - a.time) / span;
  const kind = (a.interpolation?.[0] ?? "TCB").toUpperCase();
  if (kind === "CONST") return a.value;
  if (kind === "LINEAR") return a.value + s * (b.value - a.value);
  // Tangents in value per span (the Hermite parameter's unit).
  const slope = (key: CurveKey, k: number) => {
    const x = key.interpolation?.[k];
    return typeof x === "number" && Number.isFinite(x) ? x * span : 0;
  };
  const leaving = kind === "HERMITE" ? slope(a, 2) : tcbTangents(keys, i).leaving;
  const arriving = kind === "HERMITE" && b.interpolation?.[0]?.toUpperCase() === "HERMITE"
    ? slope(b, 1)
    : tcbTangents(keys, i + 1).arriving;
  const s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * a.value + (s3 - 2 * s2 + s) * leaving + (-2 * s3 + 3 * s2) * b.value +
    (s3 - s2) * arriving;
}

/**
 * Key `i`'s Kochanek–Bartels tangents, in value per span: `arriving` for the span before it,
 * `leaving` for the span after (its tension, continuity and bias when it is a TCB key, else 0).
 */
function tcbTangents(keys: readonly CurveKey[], i: number): { arriving: number; leaving: number } {
  const key = keys[i];
  const tcb = key.interpolation?.[0]?.toUpperCase() === "TCB" ? key.interpolation.slice(1) as number[] : [];
  const [t, c, b] = [0, 1, 2].map((k) => (Number.isFinite(tcb[k]) ? tcb[k] : 0));
  const prev = keys[i - 1], next = keys[i + 1];
  // The chords and spans either side; an end key's missing one is its other.
  const before = prev ? key.value - prev.value : next ? next.value - key.value : 0;
  const after = next ? next.value - key.value : before;
  const spanBefore = prev ? key.time - prev.time : next ? next.time - key.time : 1;
  const spanAfter = next ? next.time - key.time : spanBefore;
  // Kochanek–Bartels's source (leaving) and destination (arriving) derivatives: continuity −1 turns
  // each tangent along its own span's chord, so evenly spaced keys are joined by straight lines (sharp
  // corners, as 3ds Max's TCB at continuity 0 of its 0–50 scale); +1 the other way (the corners bulge).
  // Before apply_preset v27 the two continuity factors were swapped: −1 bulged and +1 was straight.
  const leaving = ((1 - t) * (1 + c) * (1 + b)) / 2 * before + ((1 - t) * (1 - c) * (1 - b)) / 2 * after;
  const arriving = ((1 - t) * (1 - c) * (1 + b)) / 2 * before + ((1 - t) * (1 + c) * (1 - b)) / 2 * after;
  const total = spanBefore + spanAfter;
  return { arriving: (arriving * 2 * spanBefore) / total, leaving: (leaving * 2 * spanAfter) / total };
}
