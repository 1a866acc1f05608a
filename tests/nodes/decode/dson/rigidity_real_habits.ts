/**
 * Reference sets as real Daz files hold them, not as our other generators draw them: coordinates
 * written to 7 significant digits of a centimetre (`151.4788`, `3.976269` in the corpus's figures), so
 * a small set far from the origin is rounded by a sizeable share of its width; figures scaled down
 * (a doll or a miniature at 0.01, the rounding then as coarse for its size); seams welded or not, so
 * one place is two or three vertices, and an index listed twice; participants that are their own
 * reference vertices (a strap made rigid on itself); skin patches of a thousand to three thousand
 * vertices under a morph not quite rigid; a prop ring squashed flat along one axis. Each case is a
 * `LineCase` (`follower_line_habits.ts`): the part's place after a rigid motion of the region, or
 * Daz's slide where the set's line does not turn (or it is one place), judged within 1 mm of the
 * figure's scale.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import { cross, type LineCase, rotation, unit } from "./follower_line_habits.ts";
import { surroundOf } from "./line_surface_habits.ts";

type V3 = [number, number, number];

/** Metres written as Daz writes them: centimetres to 7 significant digits. */
const written = (m: number) => m === 0 ? 0 : Number((m * 100).toPrecision(7)) / 100;

/** The shapes drawn: which a set spans (`plane`, `line` or one `point`) decides what Daz's fit holds. */
const SHAPES = {
  button: "plane",
  hook: "line",
  seam: "point",
  "seam-line": "line",
  patch: "plane",
  squashed: "plane",
} as const;

/** The case of `seed`. Habits: shape, `scale S`, motion, fitter, `shared` (part is a reference vertex). */
export function realRigidityCase(seed: number): LineCase {
  const r = prng(seed * 4099 + 17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const shape = pick(Object.keys(SHAPES) as (keyof typeof SHAPES)[]);
  const scale = pick([1, 1, 0.01]);
  const habits: string[] = [shape, `scale ${scale}`];
  const line = unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
  const side = unit(cross(line, unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1])));
  const normal = unit(cross(line, side));
  // Where on the figure: up to 1.7 m from the origin, as a head or a hand is.
  const origin: V3 = [r() * 0.4 - 0.2, 1.0 + r() * 0.7, r() * 0.2 - 0.1];
  const at = (u: number, v: number, w: number): V3 =>
    [0, 1, 2].map((a) => origin[a] + u * line[a] + v * side[a] + w * normal[a]) as V3;
  let points: V3[] = [];
  if (shape === "button") {
    const n = 4 + Math.floor(r() * 6), radius = 0.0015 + r() * 0.0015;
    for (let k = 0; k < n; k++) {
      const a = 2 * Math.PI * k / n;
      points.push(at(radius * Math.cos(a), radius * Math.sin(a), 0));
    }
  } else if (shape === "hook") {
    const n = 3 + Math.floor(r() * 3), length = 0.0003 + r() * 0.0027;
    for (let k = 0; k < n; k++) points.push(at((k / (n - 1) - 0.5) * length, 0, 0));
  } else if (shape === "seam") {
    points = Array.from({ length: 2 + Math.floor(r() * 2) }, () => at(0, 0, 0));
  } else if (shape === "seam-line") {
    const n = 2 + Math.floor(r() * 3), length = 0.002 + r() * 0.02;
    for (let k = 0; k < n; k++) {
      const p = at((k / (n - 1) - 0.5) * length, 0, 0);
      points.push(p, p); // both sides of an unwelded seam
    }
    points.push(points[0]); // and an index listed twice
  } else if (shape === "patch") {
    const n = 1000 + Math.floor(r() * 2000), size = 0.02 + r() * 0.04, bulge = 0.05 + r() * 0.1;
    for (let k = 0; k < n; k++) {
      const u = (r() - 0.5) * size, v = (r() - 0.5) * size;
      points.push(at(u, v, -(u * u + v * v) / (2 * bulge)));
    }
  } else {
    const n = 8 + Math.floor(r() * 9), radius = 0.002 + r() * 0.003, squash = pick([0.03, 0.01]);
    habits.push(`squash ${squash}`);
    for (let k = 0; k < n; k++) {
      const a = 2 * Math.PI * k / n;
      points.push(at(radius * Math.cos(a), squash * radius * Math.sin(a), 0));
    }
  }
  const motion = pick(["shift", "twist", "swing", "turn"] as const);
  habits.push(motion);
  const angle = (5 + r() * 25) * Math.PI / 180;
  const axis: V3 = motion === "twist"
    ? line
    : motion === "swing"
    ? side
    : unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
  const turn = motion === "shift" ? rotation([1, 0, 0], 0) : rotation(axis, angle);
  const shift: V3 = [r() * 0.02 - 0.01, r() * 0.02 - 0.01, r() * 0.02 - 0.01];
  const pivot = at(0, 0, 0);
  const move = (p: V3): V3 =>
    [0, 1, 2].map((row) =>
      pivot[row] + shift[row] + turn[row * 3] * (p[0] - pivot[0]) + turn[row * 3 + 1] * (p[1] - pivot[1]) +
      turn[row * 3 + 2] * (p[2] - pivot[2])
    ) as V3;
  const fitter = pick(["follower", "group", "group"] as const);
  const shared = fitter === "group" && r() < 0.5;
  habits.push(shared ? "group-shared" : fitter);
  const off = 0.003 + r() * 0.017;
  const part: V3 = shared ? points[Math.floor(r() * points.length)] : at(0, off * (r() < 0.5 ? 1 : 0), off);
  // A projected morph is never exactly rigid: up to 0.01 mm off on a patch (smooth), none elsewhere
  // beyond the file's rounding.
  const wobble = shape === "patch" ? 1e-5 : 0;
  const after = points.map((p) => {
    const q = move(p);
    const s = Math.sin(37 * p[0] + 53 * p[1] + 71 * p[2]);
    return q.map((x, a) => x + wobble * s * (a === 0 ? 1 : 0.5));
  });
  const kind = SHAPES[shape];
  // The set's line turns unless the motion only shifts it or twists it about itself.
  const fixed = kind === "point" || (kind === "line" && (motion === "shift" || motion === "twist"));
  habits.push(kind === "plane" ? "plane" : fixed ? "line fixed" : "line turns");
  // A figure scaled down is written smaller: its coordinates, and so its rounding, shrink with it.
  const s = (p: readonly number[]) => p.map((x) => written(x * scale));
  const scaled = (p: readonly number[]) => p.map((x) => x * scale) as V3;
  const truth = scaled(move(part));
  // The mesh around a hook, a seam or a seam's line: what records a twist about it.
  const surround = kind === "plane" ? undefined : surroundOf(
    seed,
    shape === "seam-line" ? "strap" : "patch",
    points,
    { line, side, normal },
    move,
    written,
    scale,
  );
  return {
    seed,
    habits,
    fitter: shared ? "group" : fitter,
    before: Float64Array.from(points.flatMap(s)),
    after: Float64Array.from(after.flatMap(s)),
    part: scaled(part),
    truth,
    swing: fixed ? 0 : 1,
    ...(fixed ? { slide: scaled(part.map((x, a) => x + shift[a])) } : {}),
    ...(shared ? { shared: points.indexOf(part) } : {}),
    scale,
    ...(surround ? { surround } : {}),
  };
}

/**
 * A belt or strap modelled with many vertices — 200 to 3,000, a zigzag 0.1 % to 3 % as wide as its 3 to
 * 8 cm length, on a figure 1 to 1.7 m up, written to 7 significant digits — under a morph rigid up to a
 * smooth 0.02 mm wave along it (a projected morph's unevenness is smooth, not noise: it does not average
 * away over more vertices). Habits: `ratio R`, `many` (over 1,000 vertices) or `some`, and the fitter.
 */
export function beltCase(seed: number): LineCase {
  const r = prng(seed * 6151 + 29);
  const n = 200 + Math.floor(r() * 2800), length = 0.03 + r() * 0.05;
  const ratio = [1e-3, 3e-3, 1e-2, 3e-2][Math.floor(r() * 4)];
  const line = unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
  const side = unit(cross(line, unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1])));
  const normal = unit(cross(line, side));
  const origin: V3 = [r() * 0.4 - 0.2, 1.0 + r() * 0.7, r() * 0.2 - 0.1];
  const points: V3[] = [];
  for (let k = 0; k < n; k++) {
    const t = (k / (n - 1) - 0.5) * length, w = (k % 2 ? 0.5 : -0.5) * ratio * length;
    points.push([0, 1, 2].map((a) => origin[a] + t * line[a] + w * side[a]) as V3);
  }
  const turn = rotation(unit([r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]), (5 + r() * 25) * Math.PI / 180);
  const move = (p: V3): V3 =>
    [0, 1, 2].map((row) =>
      origin[row] + 0.005 + turn[row * 3] * (p[0] - origin[0]) + turn[row * 3 + 1] * (p[1] - origin[1]) +
      turn[row * 3 + 2] * (p[2] - origin[2])
    ) as V3;
  const off = 0.003 + r() * 0.027, phase = r() * 6.3, waves = 1 + r() * 3;
  const part = [0, 1, 2].map((a) => origin[a] + off * normal[a]) as V3;
  const fitter = (["follower", "group"] as const)[Math.floor(r() * 2)];
  const after = points.map((p, k) => {
    // The wave lifts the strap's two edges unevenly: a twist the surface does not make.
    const lift = 2e-5 * Math.sin(phase + waves * 2 * Math.PI * k / n) * (k % 2 ? 1 : -1);
    return move(p).map((x, a) => x + lift * normal[a]);
  });
  return {
    seed,
    habits: [`ratio ${ratio}`, n > 1000 ? "many" : "some", fitter],
    fitter,
    before: Float64Array.from(points.flatMap((p) => p.map(written))),
    after: Float64Array.from(after.flatMap((p) => p.map(written))),
    part,
    truth: move(part),
    swing: 1,
  };
}
