/**
 * Helicopters as real models of them are built: a cabin and a tail boom, a main rotor of two to four
 * blades on a mast above the cabin (about as wide as the aircraft is long), a tail rotor turning in a
 * vertical disc at the end of the boom, a fin, and a horizontal stabiliser across the boom — fixed on
 * a Bell 206 or an AS350 (`HorizontalStabilizer`, `H_Stab`, `Tailplane`, or a pair of halves), a true
 * all-moving `Stabilator` on a UH-60. The rotors are named as modellers name them (`MainRotor` with
 * `MainRotor_Blade_1`…, `Rotor_Main`, German `Hauptrotor`, or a bare `Rotor`/`Rotor.001` or
 * `Blades`/`Tail_Prop` told only by its size). Also the airplane that must stay an airplane: a
 * propeller named `Rotor` (as the Sketchbook airplane's is) and a `Tailplane` as its only pitch
 * surface. Aircraft coordinates (aft, up, left); deterministic from the generator.
 *
 * @module
 */
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { boxMesh, type ClassMesh, type ClassSample, FUSELAGE, joined } from "./surface_classes.ts";

/** A box about `centre` with half-extent vectors `u`, `v`, `w` (any orientation). */
export function orientedBox(centre: Vec3, u: Vec3, v: Vec3, w: Vec3): ClassMesh {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    const a = i & 1 ? 1 : -1, b = i & 2 ? 1 : -1, c = i & 4 ? 1 : -1;
    for (let k = 0; k < 3; k++) positions.push(centre[k] + a * u[k] + b * v[k] + c * w[k]);
  }
  return { positions, triangles: boxMesh([0, 0, 0], [1, 1, 1]).triangles };
}

/** Blades of a rotor: `count` thin boxes from `hub` out to `radius` in the plane square to `spin`. */
function blades(
  hub: Vec3,
  spin: Vec3,
  count: number,
  radius: number,
  chord: number,
  phase: number,
): ClassMesh[] {
  const n = normalize(spin);
  const seed: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = normalize(cross(n, seed)), e2 = cross(n, e1);
  const out: ClassMesh[] = [];
  for (let b = 0; b < count; b++) {
    const a = phase + (2 * Math.PI * b) / count;
    const dir = [0, 1, 2].map((k) => Math.cos(a) * e1[k] + Math.sin(a) * e2[k]) as Vec3;
    const side = cross(n, dir);
    const centre = [0, 1, 2].map((k) => hub[k] + dir[k] * (radius / 2 + 0.1)) as Vec3;
    const half = (v: Vec3, s: number) => v.map((x) => x * s) as Vec3;
    out.push(orientedBox(centre, half(dir, radius / 2 - 0.1), half(side, chord / 2), half(n, chord * 0.06)));
  }
  return out;
}

/** How each style names the rotors: a main-rotor object, its blade word, the tail rotor. */
const ROTOR_NAMES = [
  { main: "MainRotor", blade: "MainRotor_Blade_", tail: "TailRotor" },
  { main: "Rotor_Main", blade: "", tail: "Rotor_Tail" },
  { main: "Hauptrotor", blade: "", tail: "Heckrotor" },
  { main: "main_rotor_blade_", blade: "each", tail: "tail_rotor" },
  { main: "Rotor", blade: "", tail: "Rotor.001" },
  { main: "Blades", blade: "", tail: "Tail_Prop" },
] as const;

/** How each fixed stabiliser is named: one object across the boom, or a pair of halves. */
const STAB_NAMES: readonly (readonly string[])[] = [
  ["HorizontalStabilizer"],
  ["H_Stab"],
  ["Tailplane"],
  ["Stabilizer_L", "Stabilizer_R"],
  ["HStab"],
  ["Tailplane_L", "Tailplane_R"],
];

/** One helicopter and what it holds. */
export interface HelicopterSample extends ClassSample {
  /** The stabiliser's objects (all of them panels on a UH-60, none on the others). */
  readonly stabiliser: readonly string[];
  /** The rotors' objects. */
  readonly rotors: readonly string[];
  /** True for a UH-60-like helicopter whose stabiliser is a true, named stabilator. */
  readonly stabilator: boolean;
}

/**
 * A helicopter: every fourth a UH-60 (four blades, `Stabilator` at the foot of the fin, 1.5× the
 * size), the rest Bell 206/AS350-like (two or three blades, a fixed stabiliser mid-boom).
 */
export function helicopter(next: () => number, index: number): HelicopterSample {
  const uh60 = index % 4 === 3;
  const s = (uh60 ? 1.5 : 1) * (0.9 + 0.2 * next());
  const jitter = () => 0.9 + 0.2 * next();
  const names = ROTOR_NAMES[index % ROTOR_NAMES.length];
  const fixed: { name: string; mesh: ClassMesh }[] = [];
  const panels: ClassSample["panels"] = [];
  const rotors: string[] = [];
  // Cabin from the nose (aft −1.5) to 2.5, boom to 8 (times the scale).
  fixed.push({
    name: "Fuselage",
    mesh: boxMesh([-1.5 * s, -0.8 * s, -0.65 * s], [2.5 * s, 0.8 * s, 0.65 * s]),
  });
  fixed.push({ name: "TailBoom", mesh: boxMesh([2.5 * s, 0, -0.2 * s], [8 * s, 0.45 * s, 0.2 * s]) });
  fixed.push({ name: "Mast", mesh: boxMesh([0.7 * s, 0.8 * s, -0.1 * s], [0.9 * s, 1.5 * s, 0.1 * s]) });
  fixed.push({
    name: "Fin",
    mesh: boxMesh([7.4 * s, 0.2 * s, -0.05 * s], [8.3 * s, 1.6 * s * jitter(), 0.05 * s]),
  });
  const count = uh60 ? 4 : index % 2 ? 3 : 2;
  const radius = 5.1 * s * jitter(), phase = next() * Math.PI;
  const main = blades([0.8 * s, 1.55 * s, 0], [0, 1, 0], count, radius, 0.33 * s, phase);
  if (names.blade === "each") {
    main.forEach((mesh, b) => fixed.push({ name: `${names.main}${b + 1}`, mesh }));
    rotors.push(...main.map((_, b) => `${names.main}${b + 1}`));
  } else if (names.blade) {
    main.forEach((mesh, b) => fixed.push({ name: `${names.blade}${b + 1}`, mesh }));
    fixed.push({ name: names.main, mesh: boxMesh([0.6 * s, 1.5 * s, -0.2 * s], [1 * s, 1.6 * s, 0.2 * s]) });
    rotors.push(names.main, ...main.map((_, b) => `${names.blade}${b + 1}`));
  } else {
    fixed.push({ name: names.main, mesh: joined(main) });
    rotors.push(names.main);
  }
  // The tail rotor turns about the span (a vertical disc) on the left of the fin; a UH-60's is canted 20°.
  const cant = uh60 ? 20 * Math.PI / 180 : 0;
  const tail = blades(
    [8 * s, 1.2 * s, 0.25 * s],
    [0, Math.sin(cant), Math.cos(cant)],
    2,
    0.8 * s,
    0.15 * s,
    next(),
  );
  fixed.push({ name: names.tail, mesh: joined(tail) });
  rotors.push(names.tail);
  // The stabiliser: mid-boom on the Bell and the AS350, at the foot of the fin on the UH-60.
  const half = (uh60 ? 2.2 : 1.0) * s * jitter(), chord = (uh60 ? 0.75 : 0.5) * s * jitter();
  const at = (uh60 ? 7.2 : 5.5) * s, high = (uh60 ? 0.3 : 0.25) * s, thick = 0.04 * s;
  const stabNames = uh60
    ? (index % 8 === 3 ? ["Stabilator"] : ["Stabilator_L", "Stabilator_R"])
    : STAB_NAMES[index % STAB_NAMES.length];
  const pieces = stabNames.length === 1
    ? [boxMesh([at, high - thick, -half], [at + chord, high + thick, half])]
    : [
      boxMesh([at, high - thick, 0.2 * s], [at + chord, high + thick, half]),
      boxMesh([at, high - thick, -half], [at + chord, high + thick, -0.2 * s]),
    ];
  stabNames.forEach((name, i) => {
    if (uh60) panels.push({ name, kind: "stabilator", side: i === 1 ? "right" : "left", mesh: pieces[i] });
    else fixed.push({ name, mesh: pieces[i] });
  });
  return {
    panels,
    fixed,
    stabiliser: stabNames,
    rotors,
    stabilator: uh60,
    description:
      `${uh60 ? "UH-60" : count === 3 ? "AS350" : "Bell 206"}-like, rotors ${names.main}/${names.tail}, ` +
      `stabiliser ${stabNames.join("+")}`,
  };
}

/**
 * An airplane whose propeller is named `Rotor` (as the Sketchbook airplane's is) or `Propeller`, and
 * whose only pitch surface is a `Tailplane` (or `Stab_L`/`Stab_R`): the tailplane is its stabilator.
 */
export function proppedAirplane(next: () => number, index: number): ClassSample & { stabiliser: string[] } {
  const span = 5 + 2 * next(), chord = 1.2;
  const names = index % 2 ? ["Stab_L", "Stab_R"] : ["Tailplane"];
  const prop = joined(blades([-4.1, 0, 0], [1, 0, 0], 2 + (index % 2), 0.9 + 0.3 * next(), 0.15, next()));
  const pieces = names.length === 1
    ? [boxMesh([8.5, -0.04, -2], [9.3, 0.04, 2])]
    : [boxMesh([8.5, -0.04, 0.5], [9.3, 0.04, 2]), boxMesh([8.5, -0.04, -2], [9.3, 0.04, -0.5])];
  return {
    panels: names.map((name, i) => ({
      name,
      kind: "stabilator",
      side: i === 1 ? "right" : "left",
      mesh: pieces[i],
    })),
    fixed: [
      FUSELAGE,
      { name: "Wing", mesh: boxMesh([1, -0.06, -span], [1 + chord, 0.06, span]) },
      { name: ["rotor", "Rotor", "Propeller"][index % 3], mesh: prop },
    ],
    stabiliser: names,
    description: `propeller 'Rotor', ${names.join("+")}`,
  };
}
