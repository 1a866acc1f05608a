/**
 * Flat-plate aircraft (`flat_aircraft.ts`) dressed as real models come: whip and blade antennas on
 * the spine and belly, pitot probes at the nose, a nose boom and a pitot under one wing, pylons with
 * drop tanks or bombs under the wings (symmetric pairs, or one tank on one side), and landing gear.
 * Aircraft coordinates (aft, up, left), nose at aft 0. Deterministic from a seed.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { flatAircraft, loft, plate } from "./flat_aircraft.ts";
import { boxMesh, type ClassMesh, type ClassSample } from "./surface_classes.ts";

/** What an aircraft is dressed with. */
export type Dressing = "whips" | "blades" | "pitots" | "stores" | "one_tank" | "gear" | "all";

/** Every dressing, in the order the tests tally them. */
export const DRESSINGS: readonly Dressing[] = [
  "whips",
  "blades",
  "pitots",
  "stores",
  "one_tank",
  "gear",
  "all",
];

/** A square rod of half-width `r` from `a` to `b` (a whip antenna, a probe, a gear leg). */
export function rod(a: Vec3, b: Vec3, r: number): ClassMesh {
  const d = [0, 1, 2].map((k) => b[k] - a[k]);
  const length = Math.hypot(...d);
  const u = d.map((x) => x / length);
  // Two directions square to the rod: from the axis least along it.
  const k = [0, 1, 2].reduce((m, j) => Math.abs(u[j]) < Math.abs(u[m]) ? j : m, 0);
  const e = [0, 0, 0];
  e[k] = 1;
  const dot = u[k];
  const p = normalized([e[0] - dot * u[0], e[1] - dot * u[1], e[2] - dot * u[2]]);
  const q: Vec3 = [u[1] * p[2] - u[2] * p[1], u[2] * p[0] - u[0] * p[2], u[0] * p[1] - u[1] * p[0]];
  const positions: number[] = [];
  for (const end of [a, b]) {
    for (const [sp, sq] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      positions.push(...[0, 1, 2].map((j) => end[j] + r * (sp * p[j] + sq * q[j])));
    }
  }
  const triangles: number[] = [];
  for (let s = 0; s < 4; s++) {
    const t = (s + 1) % 4;
    triangles.push(s, t, t + 4, s, t + 4, s + 4);
  }
  triangles.push(0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7);
  return { positions, triangles };
}

function normalized(v: number[]): Vec3 {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
}

const shifted = (m: ClassMesh, d: Vec3): ClassMesh => ({
  positions: Array.from(m.positions, (x, i) => x + d[i % 3]),
  triangles: m.triangles,
});

/** The fuselage's length and radius, and the span's half, from the sample's meshes. */
function measure(s: ClassSample): { L: number; R: number; half: number } {
  const p = s.fixed[0].mesh.positions;
  let L = 0, R = 0, half = 0;
  for (let i = 0; i < p.length; i += 3) L = Math.max(L, p[i]), R = Math.max(R, Math.abs(p[i + 2]));
  for (const o of [...s.fixed, ...s.panels]) {
    for (let i = 2; i < o.mesh.positions.length; i += 3) half = Math.max(half, Math.abs(o.mesh.positions[i]));
  }
  return { L, R, half };
}

/**
 * The wing's leading edge, trailing edge and height at `z` to the left of the plane (the wing plates'
 * points within an eighth of the half-span of it, either side mirrored).
 */
function wingAt(s: ClassSample, z: number): { le: number; te: number; y: number } {
  const { L, R, half } = measure(s);
  let le = Infinity, te = -Infinity, y = 0, n = 0;
  for (const o of [...s.fixed.slice(1), ...s.panels]) {
    const p = o.mesh.positions;
    for (let i = 0; i < p.length; i += 3) {
      if (p[i] < 0.15 * L || p[i] > 0.75 * L || Math.abs(p[i + 2]) < R) continue;
      if (Math.abs(Math.abs(p[i + 2]) - z) > half / 8) continue;
      le = Math.min(le, p[i]), te = Math.max(te, p[i]), y += p[i + 1], n++;
    }
  }
  if (!n) throw new Error(`no wing points ${z} to the left of the plane`);
  return { le, te, y: y / n };
}

/** A drop tank (or a bomb): a pointed 8-sided loft along the length, centred at (x, y, z). */
function tank(x: number, y: number, z: number, length: number, r: number): ClassMesh {
  const body = loft([
    [-length / 2, 0, 0.1 * r, 0.1 * r],
    [-0.3 * length, 0, r, r],
    [0.3 * length, 0, r, r],
    [length / 2, 0, 0.1 * r, 0.1 * r],
  ], 8);
  return shifted(body, [x, y, z]);
}

/** A wheel: an 8-sided disc of radius `r` about (x, y, z) in the (aft, up) plane, `w` wide. */
function wheelMesh(x: number, y: number, z: number, r: number, w: number): ClassMesh {
  const positions: number[] = [], triangles: number[] = [];
  for (const dz of [-w / 2, w / 2]) {
    for (let k = 0; k < 8; k++) {
      const a = k / 8 * 2 * Math.PI;
      positions.push(x + r * Math.cos(a), y + r * Math.sin(a), z + dz);
    }
  }
  for (let k = 0; k < 8; k++) {
    const a = k, b = (k + 1) % 8;
    triangles.push(a, b, b + 8, a, b + 8, a + 8);
  }
  for (let k = 1; k < 7; k++) triangles.push(0, k, k + 1, 8, 8 + k + 1, 8 + k);
  return { positions, triangles };
}

/**
 * A flat-plate aircraft (`flatAircraft(next, index)`) with `dressing` added as fixed objects, named
 * as its other fixed objects are (real names for every third index, else `Object_n`).
 */
export function dressedAircraft(next: () => number, index: number, dressing: Dressing): ClassSample {
  const between = (a: number, b: number) => a + (b - a) * next();
  const base = flatAircraft(next, index);
  const s: ClassSample = { panels: [...base.panels], fixed: [...base.fixed], description: base.description };
  const { L, R, half } = measure(s);
  let n = 100;
  const add = (name: string, mesh: ClassMesh) =>
    s.fixed.push({ name: index % 3 === 0 ? name : `Object_${n++}`, mesh });
  const all = dressing === "all";
  if (dressing === "whips" || all) {
    // A whip on the spine (a VHF or ADF aerial), often raked aft, and a shorter one under the belly.
    const x = between(0.25, 0.65) * L, h = between(0.5, 1.5) * R, rake = between(0, 0.5) * h;
    add("Antenna_VHF", rod([x, 0.9 * R, 0], [x + rake, 0.9 * R + h, 0], between(0.01, 0.025) * R));
    if (next() < 0.7) {
      const xb = between(0.2, 0.75) * L, hb = between(0.3, 1) * R;
      add("Antenna_Belly", rod([xb, -0.9 * R, 0], [xb + between(0, 0.3) * hb, -0.9 * R - hb, 0], 0.02 * R));
    }
  }
  if (dressing === "blades" || all) {
    // Blade antennas (transponder, DME, TCAS, GPS), swept plates on the centre line or just off it.
    const count = 2 + Math.floor(next() * 4);
    for (let k = 0; k < count; k++) {
      const x = between(0.12, 0.8) * L, h = between(0.15, 0.5) * R, c = between(0.3, 0.7) * h;
      const sign = next() < 0.5 ? 1 : -1, z = next() < 0.7 ? 0 : between(-0.3, 0.3) * R;
      const root = sign * 0.9 * R, tip = root + sign * h, sweep = between(0.2, 0.8) * h;
      add(
        `Antenna_Blade_${k}`,
        plate([[x, root, z], [x + c, root, z], [x + sweep + 0.6 * c, tip, z], [x + sweep, tip, z]], 1, 1),
      );
    }
  }
  if (dressing === "pitots" || all) {
    // Probes either side of the nose, sometimes a boom ahead of it, sometimes a pitot under one wing.
    const x = between(0.04, 0.12) * L, y = between(-0.3, 0.3) * R, len = between(0.15, 0.35) * R;
    for (const side of [1, -1]) {
      add(
        `Pitot_${side > 0 ? "L" : "R"}`,
        rod([x, y, side * 0.6 * R], [x - 0.5 * len, y, side * (0.6 * R + len)], 0.02 * R),
      );
    }
    if (next() < 0.4) add("Nose_Boom", rod([0.02 * L, 0, 0], [-between(0.04, 0.12) * L, 0, 0], 0.03 * R));
    if (next() < 0.5) {
      const z = between(0.5, 0.75) * half, wing = wingAt(s, z), side = next() < 0.5 ? 1 : -1;
      add(
        "Pitot_Wing",
        rod([wing.le + 0.1 * R, wing.y - 0.15 * R, side * z], [
          wing.le - between(0.3, 0.6) * R,
          wing.y - 0.15 * R,
          side * z,
        ], 0.03 * R),
      );
    }
  }
  // A pylon and a drop tank under the wing at `z` on each of `sides` (+1 left, −1 right), alike.
  const stores = (z: number, sides: number[], what: string) => {
    const wing = wingAt(s, z), chord = wing.te - wing.le;
    const length = between(0.5, 1.1) * chord, r = between(0.2, 0.45) * R;
    const drop = between(0.1, 0.3) * R, x = wing.le + 0.45 * chord;
    for (const side of sides) {
      const named = `${what}_${side > 0 ? "L" : "R"}`;
      add(
        `Pylon_${named}`,
        boxMesh([x - 0.25 * length, wing.y - drop, side * z - 0.03 * R], [
          x + 0.2 * length,
          wing.y,
          side * z + 0.03 * R,
        ]),
      );
      add(`DropTank_${named}`, tank(x, wing.y - drop - r, side * z, length, r));
    }
  };
  if (dressing === "stores" || all) {
    // One or two pairs under the wings, sometimes a centre-line tank under the fuselage.
    const pairs = 1 + Math.floor(next() * 2);
    for (let k = 0; k < pairs; k++) {
      const z = between(0.3 + 0.25 * k, 0.5 + 0.2 * k) * half;
      stores(z, [1, -1], `${k}`);
    }
    if (next() < 0.4) {
      const length = between(0.15, 0.3) * L, r = between(0.3, 0.5) * R, x = between(0.35, 0.5) * L;
      add(
        "Pylon_Centre",
        boxMesh([x - 0.2 * length, -1.2 * R, -0.03 * R], [x + 0.2 * length, -0.9 * R, 0.03 * R]),
      );
      add("DropTank_Centre", tank(x, -1.2 * R - r, 0, length, r));
    }
  }
  if (dressing === "one_tank") {
    // An asymmetric load: one drop tank under one wing (the other pylon empty half the time).
    const z = between(0.3, 0.6) * half, side = next() < 0.5 ? 1 : -1;
    stores(z, [side], "Wing");
    if (next() < 0.5) {
      const wing = wingAt(s, z), chord = wing.te - wing.le, x = wing.le + 0.45 * chord;
      add(
        `Pylon_${side > 0 ? "R" : "L"}`,
        boxMesh([x - 0.2 * chord, wing.y - 0.2 * R, -side * z - 0.03 * R], [
          x + 0.2 * chord,
          wing.y,
          -side * z + 0.03 * R,
        ]),
      );
    }
  }
  if (dressing === "gear" || all) {
    // Legs and wheels down to one ground line: a nose wheel or a tail wheel.
    const ground = -R - between(0.6, 1.4) * R, wheel = between(0.3, 0.5) * R, track = between(0.5, 1.8) * R;
    const leg = (x: number, z: number, name: string) => {
      add(`${name}_Leg`, rod([x, -0.5 * R, z], [x, ground + wheel, z], 0.05 * R));
      add(`${name}_Wheel`, wheelMesh(x, ground + wheel, z, wheel, 0.5 * wheel));
    };
    const wx = wingAt(s, Math.min(Math.max(track, R + half / 8), 0.9 * half)).le;
    if (next() < 0.6) {
      leg(0.12 * L, 0, "NoseGear"),
        leg(wx + 0.1 * L, track, "MainGear_L"),
        leg(wx + 0.1 * L, -track, "MainGear_R");
    } else {
      leg(wx - 0.05 * L, track, "MainGear_L"), leg(wx - 0.05 * L, -track, "MainGear_R");
      add("TailWheel", rod([0.93 * L, -0.2 * R, 0], [0.96 * L, -0.6 * R, 0], 0.06 * R));
    }
  }
  return { ...s, description: `${dressing}: ${base.description}` };
}
