/**
 * The splines of ERC formulas (`spline_linear`, `spline_constant`, `spline_tcb`): each key is
 * `[x, y, …]` (a TCB key `[x, y, tension, continuity, bias]`), the input maps onto the span of
 * keys around it by its fraction of that span, and beyond the end keys the curve holds the end
 * key's `y`. `spline_linear` runs straight between keys and `spline_constant` holds each key's `y`
 * up to the next key.
 *
 * `spline_tcb` follows Daz's own DSON spec (object_definitions/operation: "TCB (Kochanek-Bartels)
 * Spline interpolation between key values", each knot a `knot5` `[key, value, tension, continuity,
 * bias]`): a Kochanek–Bartels curve in which each knot's own three numbers shape its own tangents,
 * with the step-size adjustment for unevenly spaced knots — the same curve as a keyed channel's TCB
 * keys (`key_curve.ts`, which evaluates both), so a formula and an animation of the same knots agree.
 * An end knot's missing neighbour chord is taken equal to its other one, so two knots of zero
 * tension, continuity and bias (most JCMs) run straight, as Diffeomorphic reads them.
 *
 * Daz does not publish its end tangents, and the open readers differ between knots: pymods's
 * `utils.spline_tcb` gives both tangents of a span the first knot's parameters, makes each end knot
 * its own neighbour and ignores the spacing; Diffeomorphic's import_daz runs straight. Both other
 * readings are handed to the caller ({@link TcbSpan}) for its warning (before decode.dson v43 and
 * dson.apply_preset v34 the pymods reading was used, and keyed channels and formulas disagreed).
 *
 * @module
 */
import { curveValueAt } from "./key_curve.ts";

/** A `spline_tcb` input between two keys, where readers disagree on the curve (the spec's Kochanek–Bartels one is used). */
export interface TcbSpan {
  /** The input (x). */
  readonly input: number;
  /** The keys either side, `(x, y)`. */
  readonly from: readonly [number, number];
  readonly to: readonly [number, number];
  /** Diffeomorphic's reading: straight between the keys. */
  readonly straight: number;
  /** pymods's reading: the span's first knot's tension, continuity and bias for both tangents, end knots their own neighbours. */
  readonly firstKnot: number;
  /** The DSON spec's Kochanek–Bartels curve, each knot with its own parameters (as keyed channels); the value used. */
  readonly kochanek: number;
}

/** A spline key: `[x, y, …]` with finite x and y. */
export function isKey(key: number | number[]): boolean {
  return Array.isArray(key) && key.length >= 2 && Number.isFinite(key[0]) && Number.isFinite(key[1]);
}

/**
 * A spline's value at `x` (see the module doc); undefined for two keys at one x. A TCB spline
 * between its keys gives the spec's Kochanek–Bartels reading, and `offKey` is told the others.
 *
 * @example
 * ```ts
 * splineAt("spline_linear", [[0, 0], [2, 1]], 1); // 0.5
 * splineAt("spline_tcb", [[0, 0], [2, 1]], 3); // 1 (held past the last key)
 * splineAt("spline_tcb", [[-135, 1], [0, 0]], -90); // 2/3: two plain knots run straight (pymods: 19/27)
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
  // Each knot a TCB key of its own parameters (0 where not written), as a keyed channel's.
  const kochanek = curveValueAt(
    keys.map(([time, value, ...tcb]) => ({
      time,
      value,
      interpolation: ["TCB", ...[0, 1, 2].map((n) => (Number.isFinite(tcb[n]) ? tcb[n] : 0))] as const,
    })),
    x,
  );
  offKey({
    input: x,
    from: [x0, y0],
    to: [x1, y1],
    straight,
    firstKnot: firstKnotAt(keys, k - 1, x),
    kochanek,
  });
  return kochanek;
}

/**
 * pymods's reading of span `i` (keys `i`, `i + 1`) at `x`: the curve through the keys as points
 * `(x, y)`, with Kochanek–Bartels tangents of key `i`'s tension, continuity and bias (0 where not
 * written) at both ends, an end key standing in for its missing neighbour, evaluated at the span's
 * fraction with no spacing adjustment. Kept for the warning only.
 */
function firstKnotAt(keys: readonly number[][], i: number, x: number): number {
  const before = keys[Math.max(0, i - 1)], p0 = keys[i], p1 = keys[i + 1];
  const after = keys[Math.min(keys.length - 1, i + 2)];
  const [t, c, b] = [2, 3, 4].map((n) => (Number.isFinite(p0[n]) ? p0[n] : 0));
  const out0 = ((1 - t) * (1 + c) * (1 + b)) / 2, out1 = ((1 - t) * (1 - c) * (1 - b)) / 2;
  const in0 = ((1 - t) * (1 - c) * (1 + b)) / 2, in1 = ((1 - t) * (1 + c) * (1 - b)) / 2;
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
 * A {@link TcbSpan} in a warning's words: the input, the keys either side, the reading used (the
 * spec's Kochanek–Bartels), pymods's and Diffeomorphic's, and how far the others lie from it.
 *
 * @example
 * ```ts
 * describeSpan({ input: -90, from: [-135, 1], to: [0, 0], straight: 0.6667, firstKnot: 0.7037, kochanek: 0.6667 });
 * // "input -90 lies between keys (-135, 1) and (0, 0): read as the DSON spec's Kochanek–Bartels spline (…) 0.6667, used; …"
 * ```
 */
export function describeSpan(span: TcbSpan): string {
  const n = roundForText;
  const [x0, y0] = span.from, [x1, y1] = span.to;
  const off = Math.max(Math.abs(span.firstKnot - span.kochanek), Math.abs(span.straight - span.kochanek));
  return `input ${n(span.input)} lies between keys (${n(x0)}, ${n(y0)}) and (${n(x1)}, ${n(y1)}): ` +
    `read as the DSON spec's Kochanek–Bartels spline (each knot's own tension, continuity and bias, as ` +
    `Daz's keyed channels) it gives ${n(span.kochanek)}, used; pymods reads ${n(span.firstKnot)}, ` +
    `Diffeomorphic (straight) ${n(span.straight)}; up to ${n(off)} apart (Daz's end tangents are not ` +
    "published)";
}
