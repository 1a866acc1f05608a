/**
 * Reference sets that measure no stretch where their `scale_modes` ask for one: an earring on one
 * vertex of a lobe (no extent at all) or a strap's centre line (no extent across it), on a region a
 * body shape grows or shrinks by 3 to 25 % (or only shifts), with the mesh around them
 * (`line_surface_habits.ts`). The part hangs 3 to 30 mm off, so the region's stretch moves it by up to
 * several millimetres; the reference vertices record none of that stretch across the line or about the
 * one vertex, and `scale_modes` (primary on every axis for one vertex; primary along the strap,
 * secondary across it) read a ratio of no extent, 0/0. Judged against the region's motion, within
 * 1 mm (`follower_line_judge.ts`).
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import { cross, type LineCase, unit } from "./follower_line_habits.ts";
import { surroundOf } from "./line_surface_habits.ts";

type V3 = [number, number, number];

/** Metres written as centimetres to 4 decimals, as Daz writes vertices. */
const written = (m: number) => Math.round(m * 1e6) / 1e6;

/** The case of `seed`. Habits: shape (`earring-1`, `strap`), `stretch` or `shift`, and the fitter. */
export function stretchCase(seed: number): LineCase {
  const r = prng(seed * 7507 + 3);
  const shape = r() < 0.5 ? "earring-1" : "strap";
  const count = shape === "strap" ? 4 + Math.floor(r() * 9) : 1;
  const length = 0.02 + r() * 0.06;
  const line = unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
  const side = unit(cross(line, unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1])));
  const normal = unit(cross(line, side));
  const origin: V3 = [r() * 0.4 - 0.2, 1.2 + r() * 0.5, r() * 0.2 - 0.1];
  const points: V3[] = [];
  for (let k = 0; k < count; k++) {
    const t = count === 1 ? 0 : (k / (count - 1) - 0.5) * length;
    points.push([0, 1, 2].map((a) => origin[a] + t * line[a]) as V3);
  }
  const stretched = r() < 0.7;
  // A body shape grows or shrinks the region evenly about its middle, and shifts it.
  const factor = stretched ? (r() < 0.6 ? 1.03 + r() * 0.22 : 0.75 + r() * 0.22) : 1;
  const shift: V3 = [r() * 0.02 - 0.01, r() * 0.02 - 0.01, r() * 0.02 - 0.01];
  const pivot = points[Math.floor(count / 2)];
  const move = (p: V3): V3 => [0, 1, 2].map((a) => pivot[a] + shift[a] + factor * (p[a] - pivot[a])) as V3;
  const off = 0.003 + r() * 0.027;
  const part = [0, 1, 2].map((a) => pivot[a] + off * (r() < 0.5 ? side[a] : normal[a])) as V3;
  const fitter = r() < 0.5 ? "follower" : "group";
  const surround = surroundOf(
    seed,
    shape === "strap" ? "strap" : "patch",
    points,
    { line, side, normal },
    move,
    written,
  );
  return {
    seed,
    habits: [shape, stretched ? "stretch" : "shift", fitter],
    fitter,
    before: Float64Array.from(points.flatMap((p) => p.map(written))),
    after: Float64Array.from(points.flatMap((p) => move(p).map(written))),
    part,
    truth: move(part),
    swing: 0,
    surround,
    scaleModes: shape === "strap" ? ["primary", "secondary", "secondary"] : ["primary", "primary", "primary"],
  };
}
