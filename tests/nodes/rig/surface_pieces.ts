/**
 * Control surfaces exported in pieces, as files from modelling tools and game and flight-sim rips
 * have them: one surface as several objects that each read as the panel — split by material (a
 * leading-edge strip or trailing-edge strip of bare metal, end caps), or into upper and lower skins —
 * named `Aileron_L` / `Aileron_L.001` (Blender's separate by material), `aileron_l_0` / `aileron_l_1`
 * (a game rip's submeshes), `Aileron_L_Upper` / `_Lower`, `AileronUpperSkin_L`. And the same surface
 * drawn again at one place: level-of-detail copies (`Aileron_L_LOD0`…`_LOD2`, coarser each time, or
 * under `LOD0`…`LOD2` groups) and damage states (IL-2's `AroneL_D0`…`_D2`, `aileron_l_dmg`,
 * `_destroyed`). Aircraft: a fuselage box, a fin, ailerons and elevators behind their fixed surfaces
 * (airfoil sections, `airfoil_panels.ts`). Aircraft coordinates; deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { unwelded } from "./split_rudders.ts";
import {
  type ClassMesh,
  type ClassPanel,
  type ClassSample,
  FUSELAGE,
  mirroredPair,
} from "./surface_classes.ts";

/** How a surface is cut into pieces. */
export type Split = "skins" | "nose_strip" | "trailing_strip" | "end_caps";
/** Every split, in the order the tests tally them. */
export const SPLITS: readonly Split[] = ["skins", "nose_strip", "trailing_strip", "end_caps"];

/** How copies of one surface at one place are named. */
export type Copies = "lod_suffix" | "lod_groups" | "il2_damage" | "dmg" | "destroyed";
/** Every naming of copies. */
export const COPIES: readonly Copies[] = ["lod_suffix", "lod_groups", "il2_damage", "dmg", "destroyed"];

/** An object of a scene: where it hangs (a group's name) and its mesh. */
export interface SceneObject {
  readonly name: string;
  readonly mesh: ClassMesh;
  readonly group?: string;
  /** The material its mesh is drawn with (a Sketchfab mesh node's name ends `_<material>_<n>`). */
  readonly material?: string;
}

/** A panel and what the rig should make of it; a rudder on the centre line is a centre panel. */
export type PiecesPanel = Omit<ClassPanel, "side"> & { readonly side: "left" | "right" | "centre" };

/** An aircraft's fixed objects and panels. */
export interface PiecesAircraft {
  readonly panels: PiecesPanel[];
  readonly fixed: ClassSample["fixed"];
  readonly description: string;
}

/** A scene's objects and the panels it should rig (each with its surface's hinge). */
export interface PiecesSample {
  readonly objects: SceneObject[];
  readonly panels: PiecesPanel[];
  readonly description: string;
}

const shift = (d: Vec3) => (p: Vec3): Vec3 => [p[0] + d[0], p[1] + d[1], p[2] + d[2]];

function least(mesh: ClassMesh, k: number): number {
  let out = Infinity;
  for (let i = k; i < mesh.positions.length; i += 3) out = Math.min(out, mesh.positions[i]);
  return out;
}

/**
 * A conventional aircraft from `seed`: ailerons on a wing whose root is at 1.5 left and right,
 * elevators on a tailplane at aft 9, a rudder on a fin above it. `around` sets the vertices around each section (a
 * coarser level of detail draws the same surfaces with fewer); the shapes depend on the seed alone.
 */
export function piecesAircraft(seed: number, around: readonly [number, number] = [30, 80]): PiecesAircraft {
  const wing = airfoilSurface(prng(seed), { around });
  const tail = airfoilSurface(prng(seed + 1), { sweep: [0, 30], around });
  const fin = airfoilSurface(prng(seed + 2), { sweep: [0, 40], around });
  const inner = (s: typeof wing) => Math.min(least(s, 2), least(s.wing, 2));
  const ailerons = mirroredPair(
    wing,
    shift([4 - wing.origin[0], -wing.origin[1], 1.5 - inner(wing)]),
    ["Aileron_L", "Aileron_R"],
    "aileron",
    "Wing",
  );
  const elevators = mirroredPair(
    tail,
    shift([9 - tail.origin[0], 0.3 - tail.origin[1], 0.6 - inner(tail)]),
    ["Elevator_L", "Elevator_R"],
    "elevator",
    "Stabilizer",
  );
  // The fin stood up on the centre line: its span (its dihedral taken out) turned to up, its up to right.
  const span = normalize([0, fin.axis[1], fin.axis[2]]), up: Vec3 = [0, span[2], -span[1]];
  const rel = (p: Vec3, d: Vec3) => [0, 1, 2].reduce((sum, k) => sum + (p[k] - fin.origin[k]) * d[k], 0);
  let low = Infinity;
  for (const m of [fin, fin.wing]) {
    for (let i = 0; i < m.positions.length; i += 3) {
      low = Math.min(low, rel([m.positions[i], m.positions[i + 1], m.positions[i + 2]], span));
    }
  }
  const stand = (p: Vec3): Vec3 => [p[0] + 9.2 - fin.origin[0], rel(p, span) - low + 0.5, -rel(p, up)];
  const o = stand(fin.origin), e = stand([0, 1, 2].map((k) => fin.origin[k] + fin.axis[k]) as Vec3);
  const rudder: PiecesPanel = {
    name: "Rudder",
    kind: "rudder",
    side: "centre",
    mesh: standMesh(fin, stand),
    truth: {
      origin: o,
      axis: normalize([0, 1, 2].map((k) => e[k] - o[k]) as Vec3),
      span: fin.span,
      chord: fin.chord,
    },
  };
  return {
    panels: [...ailerons.panels, ...elevators.panels, rudder],
    fixed: [FUSELAGE, ...ailerons.fixed, ...elevators.fixed, {
      name: "Fin",
      mesh: standMesh(fin.wing, stand),
    }],
    description: `wing: ${wing.description}; tail: ${tail.description}; fin: ${fin.description}`,
  };
}

function standMesh(mesh: ClassMesh, stand: (p: Vec3) => Vec3): ClassMesh {
  const positions: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    positions.push(...stand([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]));
  }
  return { positions, triangles: mesh.triangles };
}

/** Where a triangle's centroid lies: along the chord from the hinge (0) to the trailing edge (1), above the hinge, and along the span (0 mid, 1 at an end). */
function place(panel: PiecesPanel, t: number): { chord: number; height: number; span: number } {
  const truth = panel.truth!, { positions: p, triangles } = panel.mesh;
  const aft = normalize(cross(cross(truth.axis, [1, 0, 0]), truth.axis));
  let up = normalize(cross(truth.axis, [1, 0, 0]));
  if (up[1] < 0) up = [-up[0], -up[1], -up[2]];
  const out = { chord: 0, height: 0, span: 0 };
  for (let c = 0; c < 3; c++) {
    const v = triangles[t + c];
    const d = [0, 1, 2].map((k) => p[3 * v + k] - truth.origin[k]);
    const along = (u: Vec3) => d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
    out.chord += along(aft) / truth.chord / 3;
    out.height += along(up) / 3;
    out.span += along(truth.axis) / (truth.span / 2) / 3;
  }
  out.span = Math.abs(out.span);
  return out;
}

/** The panel's mesh cut in two by `split`: the piece named first, then the rest. */
export function cutInTwo(panel: PiecesPanel, split: Split): [ClassMesh, ClassMesh] {
  const first: number[] = [], second: number[] = [], triangles = panel.mesh.triangles;
  for (let t = 0; t < triangles.length; t += 3) {
    const at = place(panel, t);
    const inFirst = split === "skins"
      ? at.height >= 0
      : split === "nose_strip"
      ? at.chord > 0.2
      : split === "trailing_strip"
      ? at.chord < 0.8
      : at.span < 0.98;
    (inFirst ? first : second).push(triangles[t], triangles[t + 1], triangles[t + 2]);
  }
  const { positions } = panel.mesh;
  return [{ positions, triangles: first }, { positions, triangles: second }];
}

const PIECE_NAMES: readonly ((name: string, split: Split) => [string, string])[] = [
  (name) => [name, `${name}.001`],
  (name) => [`${name.toLowerCase()}_0`, `${name.toLowerCase()}_1`],
  (name, split) =>
    split === "skins" ? [`${name}_Upper`, `${name}_Lower`] : [`${name}_Paint_0`, `${name}_Metal_0`],
  (name, split) => {
    const [word, side] = name.split("_"), sided = side ? `_${side}` : "";
    return split === "skins"
      ? [`${word}UpperSkin${sided}`, `${word}LowerSkin${sided}`]
      : [name, `${name}_mat1`];
  },
];

/**
 * The aircraft of `seed` with every surface cut by `split` into two objects, named by the `index`th
 * naming; every third one coarse (12–20 vertices around), every other one unwelded.
 */
export function piecesSample(seed: number, split: Split, index: number): PiecesSample {
  const aircraft = piecesAircraft(seed, index % 3 === 0 ? [12, 20] : [30, 80]);
  const store = (mesh: ClassMesh) => index % 2 === 1 ? unwelded(mesh) : mesh;
  const objects: SceneObject[] = aircraft.fixed.map(({ name, mesh }) => ({ name, mesh }));
  const panels: PiecesPanel[] = [];
  for (const panel of aircraft.panels) {
    const names = PIECE_NAMES[index % PIECE_NAMES.length](panel.name, split);
    cutInTwo(panel, split).forEach((mesh, k) => {
      if (mesh.triangles.length === 0) return;
      // Sketchfab's converter names a mesh node `<object>_<material>_<n>`: its material is drawn with it.
      const material = names[k].match(/_(Paint|Metal)_0$/)?.[1];
      objects.push({ name: names[k], mesh: store(mesh), material });
      panels.push({ ...panel, name: names[k], mesh });
    });
  }
  return { objects, panels, description: `${split}, ${names(index)}: ${aircraft.description}` };
}

const names = (index: number) =>
  ["Blender .001", "rip _0/_1", "Upper, Sketchfab _Paint_0", "Skin, _mat1"][index % 4];

const IL2: Readonly<Record<string, string>> = {
  Aileron: "Arone",
  Elevator: "Vator",
  Wing: "WingOut",
  Stabilizer: "Stab",
  Fuselage: "CF",
  Fin: "Keel1",
};

/** An object's name in copy `level` (0 the model as drawn) of `copies`, and its group. */
function copyName(name: string, level: number, copies: Copies): { name: string; group?: string } {
  const [word, side = ""] = name.split("_");
  switch (copies) {
    case "lod_suffix":
      return { name: `${name}_LOD${level}` };
    case "lod_groups":
      return { name: level ? `${name}.00${level}` : name, group: `LOD${level}` };
    case "il2_damage":
      return { name: `${IL2[word] ?? word}${side}_D${level}` };
    case "dmg":
      return { name: level ? `${name.toLowerCase()}_dmg` : name.toLowerCase() };
    case "destroyed":
      return { name: level ? `${name}_destroyed` : name };
  }
}

/**
 * The aircraft of `seed` drawn three times at one place (twice for `dmg` and `destroyed`), named as
 * `copies` names them; level-of-detail copies coarser each time (30–80, 14–20, 8–10 vertices around).
 */
export function copiesSample(seed: number, copies: Copies): PiecesSample {
  const lod = copies === "lod_suffix" || copies === "lod_groups";
  const levels = copies === "dmg" || copies === "destroyed" ? 2 : 3;
  const objects: SceneObject[] = [], panels: PiecesPanel[] = [];
  for (let level = 0; level < levels; level++) {
    const around = !lod ? [30, 80] as const : ([[30, 80], [14, 20], [8, 10]] as const)[level];
    const aircraft = piecesAircraft(seed, around);
    for (const { name, mesh } of aircraft.fixed) objects.push({ ...copyName(name, level, copies), mesh });
    for (const panel of aircraft.panels) {
      const named = copyName(panel.name, level, copies);
      objects.push({ ...named, mesh: panel.mesh });
      panels.push({ ...panel, name: named.name });
    }
  }
  return { objects, panels, description: `${copies}, seed ${seed}` };
}

/** The sample as a scene in the default frame (−Z forward, +Y up); grouped objects under their group. */
export function piecesScene(sample: PiecesSample): Document {
  const doc = newScene();
  const groups = new Map<string, Node>();
  for (const { name, mesh, group, material } of sample.objects) {
    let parent: Node | undefined;
    if (group) {
      parent = groups.get(group);
      if (!parent) {
        parent = doc.createNode(group);
        doc.getRoot().getDefaultScene()!.addChild(parent);
        groups.set(group, parent);
      }
    }
    const node = addAircraftMesh(doc, name, mesh.positions, mesh.triangles, parent);
    if (material) {
      for (const primitive of node.getMesh()!.listPrimitives()) {
        primitive.setMaterial(doc.createMaterial(material));
      }
    }
  }
  return doc;
}
