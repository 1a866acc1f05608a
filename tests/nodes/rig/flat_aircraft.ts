/**
 * Low-poly aircraft drawn as game and hobby models draw them: a lofted polygon fuselage with a
 * tapered nose and tail, and every surface a flat plate of no thickness (wing, tailplane, fin and
 * their control surfaces) or, every so often, a thin box; sometimes a canopy bump and a propeller.
 * Aircraft coordinates (aft, up, left), nose at aft 0. Deterministic from a seed.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import type { ClassMesh, ClassPanel, ClassSample } from "./surface_classes.ts";

/**
 * A flat plate between four corners (root LE, root TE, tip TE, tip LE), both faces drawn; with a
 * `thickness`, two such sheets that far apart along up (a thin box without its edges).
 */
export function plate(c: [Vec3, Vec3, Vec3, Vec3], along = 3, across = 2, thickness = 0): ClassMesh {
  const positions: number[] = [], triangles: number[] = [];
  const at = (u: number, v: number): Vec3 => {
    const a = c[0].map((x, k) => x + (c[1][k] - x) * v), b = c[3].map((x, k) => x + (c[2][k] - x) * v);
    return a.map((x, k) => x + (b[k] - x) * u) as Vec3;
  };
  const layers = thickness > 0 ? [-thickness / 2, thickness / 2] : [0];
  for (const dy of layers) {
    for (let i = 0; i <= along; i++) {
      for (let j = 0; j <= across; j++) {
        const p = at(i / along, j / across);
        positions.push(p[0], p[1] + dy, p[2]);
      }
    }
  }
  const W = across + 1, per = (along + 1) * W;
  for (let l = 0; l < layers.length; l++) {
    for (let i = 0; i < along; i++) {
      for (let j = 0; j < across; j++) {
        const a = l * per + i * W + j, b = a + 1, d = a + W, e = d + 1;
        triangles.push(a, b, e, a, e, d);
        if (layers.length === 1) triangles.push(a, e, b, a, d, e); // the back face
      }
    }
  }
  return { positions, triangles };
}

/** A loft of `sides`-gon sections: each station (aft, centre up, half-width, half-height). */
export function loft(stations: [number, number, number, number][], sides: number): ClassMesh {
  const positions: number[] = [], triangles: number[] = [];
  for (const [x, y, w, h] of stations) {
    for (let k = 0; k < sides; k++) {
      const a = (k + 0.5) / sides * 2 * Math.PI;
      positions.push(x, y + h * Math.cos(a), w * Math.sin(a));
    }
  }
  for (let s = 0; s + 1 < stations.length; s++) {
    for (let k = 0; k < sides; k++) {
      const a = s * sides + k, b = s * sides + (k + 1) % sides;
      triangles.push(a, b, b + sides, a, b + sides, a + sides);
    }
  }
  // end caps as fans from the first and last section's first vertex
  const last = (stations.length - 1) * sides;
  for (let k = 1; k + 1 < sides; k++) triangles.push(0, k + 1, k, last, last + k, last + k + 1);
  return { positions, triangles };
}

const mirror = (m: ClassMesh): ClassMesh => {
  const p = Array.from(m.positions);
  for (let i = 2; i < p.length; i += 3) p[i] = -p[i];
  return { positions: p, triangles: m.triangles };
};

/** What a flat-plate aircraft's objects are named. */
export interface FlatOptions {
  /** "all": every object named; "panels": panels named, the rest Object_n; "none": all Object_n. */
  readonly names?: "all" | "panels" | "none";
}

/**
 * A flat-plate aircraft; see the module doc. Names cycle through `all`, `panels` and `none` with
 * `index` unless `options.names` says.
 */
export function flatAircraft(next: () => number, index: number, options: FlatOptions = {}): ClassSample {
  const between = (a: number, b: number) => a + (b - a) * next();
  const names = options.names ?? (["all", "panels", "none"] as const)[index % 3];
  let n = 0;
  const fixedName = (real: string) => names === "all" ? real : `Object_${n++}`;
  const panelName = (real: string) => names === "none" ? `Object_${n++}` : real;
  const L = between(6, 14), R = between(0.05, 0.08) * L;
  const sides = [4, 6, 8][Math.floor(next() * 3)];
  const pointed = next() < 0.5, prop = !pointed && next() < 0.6;
  const rise = next() < 0.5 ? between(0.2, 0.6) * R : 0;
  const tailR = between(0.15, 0.35) * R;
  const stations: [number, number, number, number][] = [
    [0, 0, pointed ? 0.05 * R : 0.5 * R, pointed ? 0.05 * R : 0.5 * R],
    [0.06 * L, 0, pointed ? 0.45 * R : 0.85 * R, pointed ? 0.45 * R : 0.85 * R],
    [0.18 * L, 0, R, R],
    [0.5 * L, 0, R, R],
    [0.8 * L, rise * 0.6, 0.5 * (R + tailR), 0.5 * (R + tailR)],
    [L, rise, tailR, tailR],
  ];
  const fixed: ClassSample["fixed"] = [{ name: fixedName("Fuselage"), mesh: loft(stations, sides) }];
  if (next() < 0.6) {
    const c0 = between(0.12, 0.22) * L, c1 = c0 + between(0.1, 0.18) * L;
    fixed.push({
      name: fixedName("Canopy"),
      mesh: loft([[c0, 0.8 * R, 0.1 * R, 0.1 * R], [c0 + 0.3 * (c1 - c0), 1.05 * R, 0.55 * R, 0.4 * R], [
        c1,
        0.9 * R,
        0.3 * R,
        0.2 * R,
      ]], sides),
    });
  }
  if (prop) {
    const r = between(1.2, 2.2) * R, blades = 2 + Math.floor(next() * 2);
    for (let b = 0; b < blades; b++) {
      const a = b / blades * 2 * Math.PI + 0.3, ca = Math.cos(a), sa = Math.sin(a), w = 0.12 * r;
      const pts: Vec3[] = [[-0.02 * L, -sa * w, ca * w], [-0.02 * L, sa * w, -ca * w], [
        -0.02 * L,
        sa * w + ca * r,
        -ca * w + sa * r,
      ], [-0.02 * L, -sa * w + ca * r, ca * w + sa * r]];
      fixed.push({ name: fixedName(`Propeller_${b}`), mesh: plate(pts as [Vec3, Vec3, Vec3, Vec3], 2, 1) });
    }
  }
  const panels: ClassPanel[] = [];
  const thickness = next() < 0.3 ? 0.01 * L * 0.2 : 0;
  // Wing: leading edge at 28–42 % of the length, low, mid or high.
  const wx = between(0.28, 0.42) * L, wc = between(0.14, 0.22) * L, wb = between(0.45, 0.7) * L;
  const taper = between(0.45, 1), sweep = Math.tan(between(0, 15) * Math.PI / 180) * wb;
  const dihedral = Math.tan(between(0, 6) * Math.PI / 180) * wb;
  const wy = [-0.7, 0, 0.8][Math.floor(next() * 3)] * R;
  const wingAt = (s: number, c: number): Vec3 => [
    wx + s * sweep + c * wc * (1 - s * (1 - taper)),
    wy + s * dihedral,
    R * 0.9 + s * (wb - R * 0.9),
  ];
  const hingeC = 0.75, a0 = 0.5, a1 = 0.92;
  const wingIn = plate([wingAt(0, 0), wingAt(0, 1), wingAt(a0, 1), wingAt(a0, 0)], 3, 2, thickness);
  const wingOut = plate(
    [wingAt(a0, 0), wingAt(a0, hingeC), wingAt(1, hingeC), wingAt(1, 0)],
    3,
    2,
    thickness,
  );
  const aileron = plate(
    [wingAt(a0, hingeC), wingAt(a0, 1), wingAt(a1, 1), wingAt(a1, hingeC)],
    3,
    1,
    thickness,
  );
  // Tail: tailplane at the aft end on the fuselage's raised centre line, a fin on top.
  const tc = between(0.1, 0.14) * L, tx = L - tc * between(0.9, 1.1), tb = between(0.3, 0.45) * wb;
  const ty = rise, tt = Math.tan(between(5, 25) * Math.PI / 180) * tb;
  const tailAt = (
    s: number,
    c: number,
  ): Vec3 => [tx + s * tt + c * tc * (1 - 0.4 * s), ty, tailR + s * (tb - tailR)];
  const stab = plate([tailAt(0, 0), tailAt(0, 0.62), tailAt(1, 0.62), tailAt(1, 0)], 2, 1, thickness);
  const elevator = plate([tailAt(0, 0.62), tailAt(0, 1), tailAt(1, 1), tailAt(1, 0.62)], 2, 1, thickness);
  const fh = between(1.2, 2.5) * R,
    fc = tc * between(1, 1.3),
    fs = Math.tan(between(15, 40) * Math.PI / 180) * fh;
  const fx = L - fc;
  const finAt = (
    h: number,
    c: number,
  ): Vec3 => [fx + h * fs + c * fc * (1 - 0.4 * h), rise + tailR * 0.8 + h * fh, 0];
  const fin = plate([finAt(0, 0), finAt(0, 0.65), finAt(1, 0.65), finAt(1, 0)], 2, 1, thickness);
  const rudder = plate([finAt(0, 0.65), finAt(0, 1), finAt(1, 1), finAt(1, 0.65)], 2, 1, thickness);
  for (const [side, place] of [["L", (m: ClassMesh) => m], ["R", mirror]] as const) {
    fixed.push({ name: fixedName(`Wing_${side}`), mesh: place(wingIn) }, {
      name: fixedName(`WingTip_${side}`),
      mesh: place(wingOut),
    });
    fixed.push({ name: fixedName(`Stabilizer_${side}`), mesh: place(stab) });
    panels.push({
      name: panelName(`Aileron_${side}`),
      kind: "aileron",
      side: side === "L" ? "left" : "right",
      mesh: place(aileron),
    });
    panels.push({
      name: panelName(`Elevator_${side}`),
      kind: "elevator",
      side: side === "L" ? "left" : "right",
      mesh: place(elevator),
    });
  }
  fixed.push({ name: fixedName("Fin"), mesh: fin });
  panels.push({ name: panelName("Rudder"), kind: "rudder", side: "left", mesh: rudder });
  return {
    panels,
    fixed,
    description: `${names} names, ${sides}-gon, ${
      pointed ? "pointed" : prop ? "prop" : "rounded"
    } nose, rise ${(rise / R).toFixed(2)}R, wing y ${(wy / R).toFixed(1)}R${thickness ? ", thin boxes" : ""}`,
  };
}
