/**
 * The splines of ERC formulas (`spline_linear`, `spline_constant`, `spline_tcb`): each key is
 * `[x, y, …]` (a TCB key `[x, y, tension, continuity, bias]`), the input maps onto the span of
 * keys around it by its fraction of that span, and beyond the end keys the curve holds the end
 * key's `y`. `spline_linear` runs straight between keys and `spline_constant` holds each key's `y`
 * up to the next key.
 *
 * `spline_tcb` passes through its keys and holds its ends, as both open-source readers that
 * evaluate it do (Diffeomorphic's import_daz drivers, pymods's `utils.spline_tcb`). Between keys
 * they disagree: Diffeomorphic keeps only the keys' `(x, y)` and runs straight between them; pymods
 * runs a Kochanek–Bartels Hermite curve over the span's fraction, with the first key's tension,
 * continuity and bias for both tangents and each end key standing in for its missing neighbour.
 * Neither the DSON spec nor Daz publishes Daz's curve; the Kochanek–Bartels one is what the name
 * `spline_tcb` (tension, continuity, bias) and the keys' five numbers describe, and a straight
 * reading would make those three numbers meaningless, so it is used (decode.dson v38). Both
 * readings are handed to the caller ({@link TcbSpan}) for its warning, with their difference: how
 * large the doubt is there.
 *
 * @module
 */

/** A `spline_tcb` input between two keys, where readers disagree on the curve (the Kochanek–Bartels one is used). */
export interface TcbSpan {
  /** The input (x). */
  readonly input: number;
  /** The keys either side, `(x, y)`. */
  readonly from: readonly [number, number];
  readonly to: readonly [number, number];
  /** Diffeomorphic's reading: straight between the keys. */
  readonly straight: number;
  /** pymods's reading: a Kochanek–Bartels curve over the span; the value used. */
  readonly kochanek: number;
}

/** A spline key: `[x, y, …]` with finite x and y. */
export function isKey(key: number | number[]): boolean {
  return Array.isArray(key) && key.length >= 2 && Number.isFinite(key[0]) && Number.isFinite(key[1]);
}

/**
 * A spline's value at `x` (see the module doc); undefined for two keys at one x. A TCB spline
 * between its keys gives its Kochanek–Bartels reading, and `offKey` is told both readings.
 *
 * @example
 * ```ts
 * splineAt("spline_linear", [[0, 0], [2, 1]], 1); // 0.5
 * splineAt("spline_tcb", [[0, 0], [2, 1]], 3); // 1 (held past the last key)
 * splineAt("spline_tcb", [[-135, 1], [0, 0]], -90); // 19/27 ≈ 0.7037 (straight: 2/3)
 * ```
 */
export function splineAt(
  kind: "spline_linear" | "spline_constant" | "spline_tcb",
  written: readonly number[][],
  x: number,
  offKey: (span: TcbSpan) => void = () => {},
): number | undefined {
  // A curve of x: the keys in x order (as Daz lists them); two keys at one x leave it undefined.
  const keys = [...written].sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < keys.length; k++) if (!(keys[k][0] > keys[k - 1][0])) return undefined;
  const onKey = keys.find((key) => key[0] === x);
  if (onKey) return onKey[1];
  // Before decode.dson v37 a TCB spline past its end keys was unknown (both readers hold them), and
  // before v38 between its keys.
  if (x <= keys[0][0]) return keys[0][1];
  const last = keys[keys.length - 1];
  if (x >= last[0]) return last[1];
  const k = keys.findIndex((key) => key[0] > x);
  if (kind === "spline_constant") return keys[k - 1][1];
  const [x0, y0] = keys[k - 1], [x1, y1] = keys[k];
  const straight = y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
  if (kind === "spline_linear") return straight;
  const kochanek = kochanekAt(keys, k - 1, x);
  offKey({ input: x, from: [x0, y0], to: [x1, y1], straight, kochanek });
  return kochanek;
}

/**
 * pymods's reading of span `i` (keys `i`, `i + 1`) at `x`: the curve through the keys as points
 * `(x, y)`, with Kochanek–Bartels tangents of key `i`'s tension, continuity and bias (0 where not
 * written), an end key standing in for its missing neighbour, evaluated at the span's fraction.
 */
function kochanekAt(keys: readonly number[][], i: number, x: number): number {
  const before = keys[Math.max(0, i - 1)], p0 = keys[i], p1 = keys[i + 1];
  const after = keys[Math.min(keys.length - 1, i + 2)];
  const [t, c, b] = [2, 3, 4].map((n) => (Number.isFinite(p0[n]) ? p0[n] : 0));
  const out0 = ((1 - t) * (1 + c) * (1 + b)) / 2, out1 = ((1 - t) * (1 - c) * (1 - b)) / 2;
  const in0 = ((1 - t) * (1 - c) * (1 + b)) / 2, in1 = ((1 - t) * (1 + c) * (1 - b)) / 2;
  // The tangents' y (the curve's x is not solved for: the fraction of the span is its parameter).
  const leaving = out0 * (p0[1] - before[1]) + out1 * (p1[1] - p0[1]);
  const arriving = in0 * (p1[1] - p0[1]) + in1 * (after[1] - p1[1]);
  const s = (x - p0[0]) / (p1[0] - p0[0]), s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * p0[1] + (s3 - 2 * s2 + s) * leaving + (-2 * s3 + 3 * s2) * p1[1] +
    (s3 - s2) * arriving;
}

/** `x` to four significant digits, for a warning. */
export function roundForText(x: number): string {
  return String(Number(x.toPrecision(4)));
}

/**
 * A {@link TcbSpan} in a warning's words: the input, the keys either side, the reading used
 * (Kochanek–Bartels), the other (straight) and their difference.
 *
 * @example
 * ```ts
 * describeSpan({ input: -90, from: [-135, 1], to: [0, 0], straight: 0.6667, kochanek: 0.7037 });
 * // "input -90 lies between keys (-135, 1) and (0, 0): read as a Kochanek–Bartels curve (…) 0.7037, used; …"
 * ```
 */
export function describeSpan(span: TcbSpan): string {
  const n = roundForText;
  const [x0, y0] = span.from, [x1, y1] = span.to;
  return `input ${n(span.input)} lies between keys (${n(x0)}, ${n(y0)}) and (${n(x1)}, ${n(y1)}): ` +
    `read as a Kochanek–Bartels curve (as pymods does) it gives ${n(span.kochanek)}, used; read ` +
    `straight (as Diffeomorphic does), ${n(span.straight)}; they differ by ` +
    `${n(Math.abs(span.kochanek - span.straight))} (Daz's curve is not published)`;
}
