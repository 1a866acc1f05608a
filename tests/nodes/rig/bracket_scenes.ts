/**
 * Hinge brackets modelled as objects of their own, as Blender exports them (`bracket_objects_test.ts`):
 * a wing and its flap on a dropped hinge (`airfoil_panels.ts`) with the flap's brackets as separate
 * low-poly boxes, each object's origin at its centre (transforms not applied), placed at the scene's
 * root, under the wing, under an empty, under the flap, or the wing's own brackets; named as hinge
 * hardware or with a modelling tool's defaults.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { type AircraftMesh, type AirfoilSurface, airfoilSurface } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { addGroup, newScene } from "./fixtures.ts";

/** Where the bracket objects hang. */
export const PLACEMENTS = ["root", "wing", "empty", "flap", "wing brackets"] as const;
export type Placement = typeof PLACEMENTS[number];
/** Object names: hinge hardware's, or a modelling tool's defaults. */
export interface Naming {
  readonly label: string;
  readonly wing: string;
  readonly brackets: readonly string[];
  /** Bracket `i` under the empty of brackets. */
  readonly inEmpty: (i: number) => string;
  readonly empty: string;
  readonly fittings: readonly [string, string, string];
  readonly hingesEmpty: string;
  readonly pylon: string;
  readonly gear: string;
  /** A wing tip block against the flap's outer end, as thick as a fifth of its chord. */
  readonly tip?: string;
}
export const HARDWARE: Naming = {
  label: "hardware names",
  wing: "Wing_L",
  brackets: ["Flap_Bracket_1", "Flap_Bracket.001", "FlapHingeFitting", "flap_mount_2", "Hinge_Bracket_L"],
  inEmpty: (i) => `Cube.00${i + 1}`,
  empty: "Flap_Brackets",
  fittings: ["Flap_Hinge_1", "FlapHingeFitting.002", "flap_hinge_bracket_3"],
  hingesEmpty: "Flap_Hinges",
  pylon: "Pylon_Mount_L",
  gear: "Gear_Mount_L",
};
export const DEFAULTS: Naming = {
  label: "default names",
  wing: "Cube",
  brackets: ["Cube.012", "Cylinder.003", "Object_7", "Box001", "pCube3"],
  inEmpty: (i) => ["Cube.004", "", "Mesh.002"][i % 3],
  empty: "Empty.002",
  fittings: ["Cube.021", "Cylinder.004", "Object_12"],
  hingesEmpty: "Empty",
  pylon: "Cube.030",
  gear: "Cylinder.007",
  tip: "Cube.007",
};

/**
 * Adds a mesh given in aircraft coordinates as Blender writes an object whose transform was not
 * applied: its origin at its centre (the node's translation), its vertices relative to it. Parents
 * carry translations only.
 */
export function addObject(doc: Document, name: string, mesh: AircraftMesh, parent?: Node): Node {
  const p = mesh.positions, n = p.length / 3;
  const centre: Vec3 = [0, 0, 0];
  for (let i = 0; i < p.length; i++) centre[i % 3] += p[i] / n;
  const local = p.map((x, i) => x - centre[i % 3]);
  const node = addAircraftMesh(doc, name, local, mesh.triangles, parent);
  // Aircraft (aft, up, left) to the scene's default frame (−Z forward, +Y up).
  const world: Vec3 = [-centre[2], centre[1], centre[0]];
  const at = parent ? parent.getWorldMatrix().slice(12, 15) : [0, 0, 0];
  node.setTranslation([world[0] - at[0], world[1] - at[1], world[2] - at[2]]);
  return node;
}

/** A box (8 vertices, 12 triangles) between two corners, aircraft coordinates. */
export function box(min: Vec3, max: Vec3): AircraftMesh {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    positions.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  }
  const triangles = [
    0,
    1,
    3,
    0,
    3,
    2,
    4,
    6,
    7,
    4,
    7,
    5,
    0,
    4,
    5,
    0,
    5,
    1,
    2,
    3,
    7,
    2,
    7,
    6,
    0,
    2,
    6,
    0,
    6,
    4,
  ];
  triangles.push(1, 5, 7, 1, 7, 3);
  return { positions: new Float32Array(positions), triangles: new Uint32Array(triangles) };
}

/**
 * A box along a hinge: span fractions `f` (along its axis, however swept), chord shares `aft` behind
 * and `up` above the hinge point at each.
 */
export function prism(
  along: (f: number, aft: number, up: number) => Vec3,
  f: readonly [number, number],
  aft: readonly [number, number],
  up: readonly [number, number],
): AircraftMesh {
  const positions = Array.from({ length: 8 }, (_, i) => along(f[i >> 2], aft[i & 1], up[(i >> 1) & 1]))
    .flat();
  return { positions: new Float32Array(positions), triangles: box([0, 0, 0], [1, 1, 1]).triangles };
}

/**
 * Round `round` of the bracket scenes: its placement (cycled), a surface from `next` on a hinge
 * dropped 8–25 % (cycled) and turned 0, 15 or 30°, its brackets apart from the flap, and the scene
 * with the objects named by `naming`.
 */
export function bracketRound(next: () => number, round: number, naming: Naming) {
  const placement = PLACEMENTS[round % PLACEMENTS.length];
  const surface = airfoilSurface(next, {
    drop: 0.08 + 0.17 * ((round % 4) / 3),
    deflection: [0, 15, 30][round % 3],
    bracketsApart: true,
    wingBrackets: placement === "wing brackets",
  });
  return { placement, surface, ...bracketedScene(surface, placement, round, naming) };
}

/** A wing with its flap and the flap's bracket objects placed as `placement` says. */
export function bracketedScene(surface: AirfoilSurface, placement: Placement, round: number, naming: Naming) {
  const doc = newScene();
  const wing = addObject(doc, naming.wing, surface.wing);
  const flap = addObject(doc, "Flap_L", surface);
  const names: string[] = [];
  if (placement === "wing brackets") {
    surface.wingBrackets.forEach((mesh, i) => {
      const name = naming.brackets[(round + i) % naming.brackets.length];
      names.push(name);
      addObject(doc, name, mesh, i % 2 ? wing : undefined);
    });
  } else {
    const empty = placement === "empty" ? addGroup(doc, undefined, naming.empty) : undefined;
    surface.brackets.forEach((mesh, i) => {
      const name = placement === "empty"
        ? naming.inEmpty(i)
        : naming.brackets[(round + i) % naming.brackets.length];
      names.push(name);
      const parent = placement === "wing" ? wing : placement === "flap" ? flap : empty;
      addObject(doc, name, mesh, parent);
    });
  }
  return { doc, names };
}
