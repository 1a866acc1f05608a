/**
 * Whole scenes of one class of control surface, as real aircraft models have them, with each
 * panel's truth: generated airfoil surfaces (`airfoil_panels.ts`) placed by a rigid map in aircraft
 * coordinates beside a fuselage box, mirrored to the right, with the fixed surface ahead of each.
 * Deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { type AirfoilOptions, type AirfoilSurface, airfoilSurface } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";

/** A mesh in aircraft coordinates (aft, up, left). */
export interface ClassMesh {
  readonly positions: ArrayLike<number>;
  readonly triangles: ArrayLike<number>;
}

/** A hinge line: mid-span point, unit axis, span and chord (for tolerances). */
export interface ClassTruth {
  readonly origin: Vec3;
  readonly axis: Vec3;
  readonly span: number;
  readonly chord: number;
}

/** A panel the scene holds and what the rig should make of it. */
export interface ClassPanel {
  readonly name: string;
  readonly kind: string;
  readonly side: "left" | "right";
  /** The hinge, or undefined where it is a convention (an all-moving surface's quarter chord). */
  readonly truth?: ClassTruth;
  readonly mesh: ClassMesh;
}

/** One scene's content: its panels and fixed objects, and a description. */
export interface ClassSample {
  readonly panels: ClassPanel[];
  readonly fixed: { readonly name: string; readonly mesh: ClassMesh }[];
  readonly description: string;
}

/** Moves a point (a turn, a shift) into a layout's place. */
export type Place = (p: Vec3) => Vec3;

/** `mesh` with every vertex moved by `f`. */
export const mapMesh = (mesh: ClassMesh, f: Place): ClassMesh => {
  const positions: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    positions.push(...f([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]));
  }
  return { positions, triangles: mesh.triangles };
};

/** The hinge truth of `s` moved by `f`. */
export const mapTruth = (s: AirfoilSurface, f: Place): ClassTruth => {
  const o = f(s.origin), e = f([0, 1, 2].map((k) => s.origin[k] + s.axis[k]) as Vec3);
  return { origin: o, axis: normalize([0, 1, 2].map((k) => e[k] - o[k])), span: s.span, chord: s.chord };
};

const mirror: Place = (p) => [p[0], p[1], -p[2]];
const shift = (d: Vec3): Place => (p) => [p[0] + d[0], p[1] + d[1], p[2] + d[2]];

/** A closed box, aircraft coordinates. */
export function boxMesh(min: Vec3, max: Vec3): ClassMesh {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    positions.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  }
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  return { positions, triangles: faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]) };
}

/** Several meshes as one object (a rotor's blades, a part drawn in pieces). */
export function joined(meshes: readonly ClassMesh[]): ClassMesh {
  const positions: number[] = [], triangles: number[] = [];
  for (const m of meshes) {
    const base = positions.length / 3;
    positions.push(...Array.from(m.positions));
    triangles.push(...Array.from(m.triangles, (t) => t + base));
  }
  return { positions, triangles };
}

/** A fuselage box 14 long, 1 wide and high, its nose at aft −4. */
export const FUSELAGE = { name: "Fuselage", mesh: boxMesh([-4, -0.5, -0.5], [10, 0.5, 0.5]) };

/**
 * One airfoil surface placed by `place` on the left and its mirror image on the right, named
 * `names`, each with its fixed surface ahead named `<fixed>_L`/`<fixed>_R`.
 */
export function mirroredPair(
  surface: AirfoilSurface,
  place: Place,
  names: readonly [string, string],
  kind: string,
  fixed: string,
): Pick<ClassSample, "panels" | "fixed"> {
  const panels: ClassPanel[] = [], fixedOut: ClassSample["fixed"] = [];
  for (const side of ["left", "right"] as const) {
    const f: Place = side === "left" ? place : (p) => mirror(place(p));
    const name = side === "left" ? names[0] : names[1];
    panels.push({ name, kind, side, truth: mapTruth(surface, f), mesh: mapMesh(surface, f) });
    fixedOut.push({ name: `${fixed}_${side === "left" ? "L" : "R"}`, mesh: mapMesh(surface.wing, f) });
  }
  return { panels, fixed: fixedOut };
}

/**
 * A canard aircraft: a foreplane at the nose and a wing with ailerons aft. Even samples are fixed
 * foreplanes carrying elevators (`Elevator_L`/`_R`), the foreplane named `Canard_L`/`_R` (every
 * fourth sample) or `ForeWing_L`/`_R`; odd ones all-moving canards (`Canard_L`/`_R`, whose quarter
 * chord hinge is a convention: no truth).
 */
export function canardAircraft(next: () => number, index: number, options: AirfoilOptions = {}): ClassSample {
  const fore = airfoilSurface(next, { sweep: [-5, 30], ...options });
  const wing = airfoilSurface(next, options);
  const elevators = index % 2 === 0;
  const front = mirroredPair(
    fore,
    shift([-2.5 - fore.origin[0], 0.2 - fore.origin[1], 0]),
    elevators ? ["Elevator_L", "Elevator_R"] : ["Canard_L", "Canard_R"],
    elevators ? "elevator" : "canard",
    elevators && index % 4 === 0 ? "Canard" : "ForeWing",
  );
  const aft = mirroredPair(
    wing,
    shift([6 - wing.origin[0], -wing.origin[1], 0]),
    ["Aileron_L", "Aileron_R"],
    "aileron",
    "Wing",
  );
  const panels = elevators ? front.panels : front.panels.map(({ truth: _, ...panel }) => panel);
  return {
    panels: [...panels, ...aft.panels],
    fixed: [FUSELAGE, ...front.fixed, ...aft.fixed],
    description: `${elevators ? "elevators on a foreplane" : "all-moving canards"}: ${fore.description}`,
  };
}

/** The sample as a scene in the default frame (−Z forward, +Y up), every object at the root. */
export function classScene(sample: ClassSample): Document {
  const doc = newScene();
  for (const { name, mesh } of [...sample.fixed, ...sample.panels]) {
    addAircraftMesh(doc, name, mesh.positions, mesh.triangles);
  }
  return doc;
}

/** Turns about the aft axis by `degrees`, the left tip rising. */
const roll = (degrees: number): Place => {
  const a = degrees * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
  return (p) => [p[0], p[1] * c + p[2] * s, -p[1] * s + p[2] * c];
};

/** Ailerons on a wing swept 25–45°, at aft 4 beside {@link FUSELAGE}: no tail surfaces at all. */
export function sweptWingAircraft(next: () => number): ClassSample {
  const wing = airfoilSurface(next, { sweep: [25, 45] });
  const pair = mirroredPair(
    wing,
    shift([4 - wing.origin[0], -wing.origin[1], 0]),
    ["Aileron_L", "Aileron_R"],
    "aileron",
    "Wing",
  );
  return { panels: pair.panels, fixed: [FUSELAGE, ...pair.fixed], description: wing.description };
}

/**
 * A V-tail aircraft: {@link FUSELAGE} with two tail surfaces at aft 9 canted 30–50° from the span
 * (every fourth one an inverted V, canted down as a Predator's), and no wing. Named
 * `Ruddervator_L`/`_R`, `Elevator_L`/`_R`, `Ruddervator`/`Ruddervator.001` (no side) or
 * `VTail_Ruddervator_Left`/`_Right` in turn; the fixed surfaces `VTail_L`/`_R`.
 */
export function vTailAircraft(next: () => number, index: number): ClassSample {
  const surface = airfoilSurface(next);
  const cant = (index % 4 === 3 ? -1 : 1) * (30 + 20 * next());
  const dihedral = Math.atan2(surface.axis[1], surface.axis[2]) * 180 / Math.PI;
  const turn = roll(cant - dihedral), centre = shift([-surface.origin[0], -surface.origin[1], 0]);
  const place: Place = (p) => shift([9, 0.5, 0])(turn(centre(p)));
  const names: [readonly [string, string], string][] = [
    [["Ruddervator_L", "Ruddervator_R"], "ruddervator"],
    [["Elevator_L", "Elevator_R"], "elevator"],
    [["Ruddervator", "Ruddervator.001"], "ruddervator"],
    [["VTail_Ruddervator_Left", "VTail_Ruddervator_Right"], "ruddervator"],
  ];
  const [pairNames, kind] = names[index % names.length];
  const pair = mirroredPair(surface, place, pairNames, kind, "VTail");
  return {
    panels: pair.panels,
    fixed: [FUSELAGE, ...pair.fixed],
    description: `cant ${cant.toFixed(0)}°: ${surface.description}`,
  };
}
