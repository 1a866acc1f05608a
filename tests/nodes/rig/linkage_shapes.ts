/**
 * Control linkages as hobbyists and sim modellers draw them, for `rough_surfaces.ts`: a control horn
 * (a triangular plate, or a box) standing off the surface's skin at its hinge line, and the pushrod
 * it drives (a square bar, or a cylinder of 6–12 sides, capped or open) running 1–3 chords forward and
 * a little inboard toward the servo in the body. Half the time the horn and rod are merged into the
 * surface's mesh (separate islands of one primitive, as a joined object exports), otherwise each is
 * a child node of the surface, named as modellers name them — or not named at all.
 *
 * @module
 */
import { cross, normalize, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import type { ClassMesh } from "./surface_classes.ts";

/** Where a horn stands: aircraft point at `c` chords aft of the hinge, `d` below, `w` chords along the span. */
export type HornFrame = (c: number, d: number, w?: number) => Vec3;

/** A linkage as meshes: the horn and the rod (absent for a horn alone), and how they are delivered. */
export interface Linkage {
  readonly horn: ClassMesh;
  readonly rod?: ClassMesh;
  /** True when they are child nodes of the surface, false when merged into its mesh. */
  readonly children: boolean;
  readonly hornName: string;
  readonly rodName: string;
}

const HORN_NAMES = ["Horn", "horn_L", "ControlHorn", "Elevator_horn", "Cube.004", "Object012", "arm"];
const ROD_NAMES = ["Pushrod", "pushrod.001", "Rod", "Cylinder.003", "Object013", "linkage", "rod_servo"];

/**
 * One linkage at a span station (`at` gives points around it). `side` 1 hangs below, −1 stands above;
 * `deep` is the horn's depth off the skin and `reach` the rod's length forward (chords; 0: no rod);
 * `inboard` (±1) the span direction toward the body. `chunky`: game-model boxes, thick in span.
 */
export function linkage(
  at: HornFrame,
  side: number,
  deep: number,
  reach: number,
  inboard: number,
  next: () => number,
  chunky = false,
): Linkage {
  const p = (c: number, d: number, w: number) => at(c, side * d, w);
  let horn: ClassMesh;
  const plate = !chunky && next() < 0.5;
  const w = chunky ? 0.05 + 0.05 * next() : 0.008 + 0.012 * next();
  if (plate) {
    // A triangular plate: its base along the skin from the hinge aft, its tip `deep` off it.
    const base = 0.2 + 0.2 * next();
    const corners = [
      p(0, 0, -w),
      p(base, 0, -w),
      p(0.05, deep, -w),
      p(0, 0, w),
      p(base, 0, w),
      p(0.05, deep, w),
    ];
    const triangles = [0, 1, 2, 3, 5, 4, 0, 3, 4, 0, 4, 1, 1, 4, 5, 1, 5, 2, 2, 5, 3, 2, 3, 0];
    horn = { positions: corners.flat(), triangles };
  } else {
    horn = box(p, [0, chunky ? 0.3 : 0.12 + 0.15 * next()], [0, deep + 0.02], [-w, w]);
  }
  const hornName = HORN_NAMES[Math.floor(next() * HORN_NAMES.length)];
  const rodName = ROD_NAMES[Math.floor(next() * ROD_NAMES.length)];
  const children = next() < 0.5;
  if (reach <= 0) return { horn, children, hornName, rodName };
  // The rod from the horn's tip forward, turned toward the body by up to 25° and sloped up to ±8°.
  const turn = (25 * next() * Math.PI) / 180, slope = ((next() - 0.5) * 16 * Math.PI) / 180;
  const aftEnd = p(0.05, deep, 0);
  const fwd = reach * Math.cos(turn);
  const foreEnd = p(0.05 - fwd, deep + side * reach * Math.sin(slope), inboard * reach * Math.sin(turn));
  const radius = chunky ? 0.05 : 0.006 + 0.012 * next();
  const round = !chunky && next() < 0.6;
  const rod = round ? cylinder(aftEnd, foreEnd, radius, 6 + Math.floor(7 * next()), next() < 0.5, at) : box(
    (c, d, s) => at(c, side * d, s + (inboard * (0.05 - c) * Math.tan(turn))),
    [0.05 - fwd, 0.05],
    [deep - radius, deep + radius],
    [-radius, radius],
  );
  return { horn, rod, children, hornName, rodName };
}

/** A box over `c` aft, `d` down and `w` along the span through `p`. */
function box(
  p: (c: number, d: number, w: number) => Vec3,
  c: readonly [number, number],
  d: readonly [number, number],
  w: readonly [number, number],
): ClassMesh {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) positions.push(...p(c[i & 1], d[(i >> 1) & 1], w[(i >> 2) & 1]));
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  return { positions, triangles: faces.flatMap(([a, b, cc, e]) => [a, b, cc, a, cc, e]) };
}

/** A cylinder of `sides` from `a` to `b`, capped by fans or left open; `at` gives the span direction. */
function cylinder(a: Vec3, b: Vec3, r: number, sides: number, capped: boolean, at: HornFrame): ClassMesh {
  // Lengths in `at`'s chords: its unit along the span, measured, scales the radius.
  const o = at(0, 0, 0), spanUnit = sub(at(0, 0, 1), o), chordLen = Math.hypot(...spanUnit);
  const dir = normalize(sub(b, a));
  let u = cross(dir, spanUnit);
  if (Math.hypot(...u) < 1e-9) u = cross(dir, [0, 1, 0]);
  u = normalize(u);
  const v = cross(dir, u);
  const positions: number[] = [], triangles: number[] = [];
  for (const end of [a, b]) {
    for (let k = 0; k < sides; k++) {
      const t = (2 * Math.PI * k) / sides, cu = Math.cos(t) * r * chordLen, sv = Math.sin(t) * r * chordLen;
      positions.push(
        end[0] + u[0] * cu + v[0] * sv,
        end[1] + u[1] * cu + v[1] * sv,
        end[2] + u[2] * cu + v[2] * sv,
      );
    }
  }
  for (let k = 0; k < sides; k++) {
    const k1 = (k + 1) % sides;
    triangles.push(k, k1, sides + k1, k, sides + k1, sides + k);
  }
  if (capped) {
    for (let k = 1; k + 1 < sides; k++) triangles.push(0, k + 1, k, sides, sides + k, sides + k + 1);
  }
  return { positions, triangles };
}
