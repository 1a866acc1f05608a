/**
 * Two rotors drawn as one object, for `spin_fit.ts`: a contra-rotating propeller pair or a coaxial
 * helicopter's two rotors joined into one mesh have one shaft, and their surface is as symmetric
 * about it as either's, so the fit alone would be good — but one pivot turns both one way, where they
 * turn opposite ways. Their blades lie in two discs apart along the shaft, each with blades of its
 * own; a single rotor's blades (pitched, coned, or one coned apart) span one band with no gap.
 *
 * @module
 */
import { countBlades, type SpinGeometry } from "./spin_symmetry.ts";
import { cross, dot, length, sub, type Vec3 } from "./transform.ts";

/** Two bladed discs along the shaft: their blade counts and the gap between them (/ radius). */
export interface TwoDiscs {
  readonly blades: [number, number];
  readonly gap: number;
  /** Where the plane between the discs crosses the shaft: its distance from `centre` along `axis`. */
  readonly middle: number;
}

/**
 * Two discs of blades apart along the shaft, or undefined: the outer surface (beyond half the radius:
 * hubs and spinners lie inside) split at the widest gap along the shaft (2 % of the radius at least)
 * into two layers (of 8 vertices or more: one may be drawn far more coarsely), joined by no triangle out there (a single
 * blade's skin, a spinner's or a hub's wall, spans any gap between its vertices), each reaching from
 * within 85 % of the radius to beyond 90 % (blades do; a ring or a disc's rim does not), with two
 * blades or more.
 */
export function twoDiscs(g: SpinGeometry, centre: Vec3, axis: Vec3, radius: number): TwoDiscs | undefined {
  const t = g.triangles;
  if (!t || t.length < 6 || !(radius > 0)) return undefined;
  const p = g.positions;
  const at = (i: number): Vec3 => [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
  const out = (q: Vec3) => length(cross(sub(q, centre), axis));
  const along: number[] = [];
  for (let i = 0; i < g.count; i++) {
    if (out(at(i)) >= 0.5 * radius) along.push(dot(sub(at(i), centre), axis));
  }
  if (along.length < 8) return undefined;
  along.sort((a, b) => a - b);
  let split = -1, gap = 0;
  for (let i = 1; i < along.length; i++) {
    if (along[i] - along[i - 1] > gap) gap = along[i] - along[i - 1], split = i;
  }
  if (Math.min(split, along.length - split) < 8 || !(gap > 0.02 * radius)) return undefined;
  const middle = (along[split - 1] + along[split]) / 2;
  const kept: [number[], number[]] = [[], []];
  const reach = [[Infinity, 0], [Infinity, 0]];
  for (let i = 0; i + 2 < t.length; i += 3) {
    const corners = [at(t[i]), at(t[i + 1]), at(t[i + 2])];
    const sides = corners.map((q) => dot(sub(q, centre), axis) > middle ? 1 : 0);
    for (const [k, q] of corners.entries()) {
      const r = out(q), span = reach[sides[k]];
      if (r >= 0.5 * radius) span[0] = Math.min(span[0], r), span[1] = Math.max(span[1], r);
    }
    if (sides[0] === sides[1] && sides[1] === sides[2]) kept[sides[0]].push(t[i], t[i + 1], t[i + 2]);
    else if (corners.some((q) => out(q) >= 0.5 * radius)) return undefined;
  }
  if (reach.some(([low, high]) => low > 0.85 * radius || high < 0.9 * radius)) return undefined;
  const layer = (side: 0 | 1) =>
    countBlades(
      { positions: p, count: g.count, triangles: new Uint32Array(kept[side]) },
      centre,
      axis,
      radius,
    );
  const blades: [number, number] = [layer(0), layer(1)];
  if (blades.some((b) => b < 2)) return undefined;
  return { blades, gap: gap / radius, middle };
}
