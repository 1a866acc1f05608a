/**
 * Surfaces exported in pieces whose sides only the file's own letters tell: a left and a right surface
 * of one kind meeting at the centre line — a butterfly tail's ruddervators canted 50–65° up from a tail
 * cone, or an inverted V's canted as far down (a Predator's) — each exported
 * as two objects (Blender's `.001`, a rip's `_0`/`_1`, upper and lower skins) and sided by letters
 * that read otherwise alone: Polish `L`/`P` (lewy/prawy: `Ster_wysokosci_P` is the right one) or `P`/`S`
 * (port/starboard: `Ruddervator_P` is the left one). Their boxes touch across the centre line and share
 * their extent along the span's largest axis (up), so only the
 * sides keep the right surface's pieces from joining the left's as pieces of one surface. The fixed
 * surfaces carry the same letters (`VTail_L`/`VTail_P`). Aircraft coordinates (aft, up, left);
 * deterministic from a seed.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { boxMesh, type ClassMesh, mirroredPair } from "./surface_classes.ts";
import {
  cutInTwo,
  type PiecesPanel,
  type PiecesSample,
  type SceneObject,
  type Split,
} from "./surface_pieces.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";

/** Where the two surfaces meet at the centre line. */
export type Layout = "butterfly" | "inverted";
/** A file's side letters: the left surface's, then the right's. */
export type Letters = "L/P" | "P/S";
/** Every side habit, in the order the tests tally them. */
export const LETTERS: readonly Letters[] = ["L/P", "P/S"];

/** The word a file names each layout's surfaces with, and the kind it reads as. */
const WORDS: Readonly<Record<Layout, readonly (readonly [string, string])[]>> = {
  butterfly: [["Ruddervator", "ruddervator"], ["Ster_wysokosci", "elevator"], ["Elevator", "elevator"]],
  inverted: [["Ruddervator", "ruddervator"], ["Elevator", "elevator"], ["Ster_wysokosci", "elevator"]],
};

/** How a surface's two pieces are named, from the surface's name. */
const PIECE_NAMES: readonly ((name: string) => [string, string])[] = [
  (name) => [name, `${name}.001`],
  (name) => [`${name.toLowerCase()}_0`, `${name.toLowerCase()}_1`],
  (name) => [`${name}_Upper`, `${name}_Lower`],
];
const SPLIT_OF: readonly Split[] = ["nose_strip", "trailing_strip", "skins"];

const extent = (mesh: ClassMesh, k: number, f: (a: number, b: number) => number, from: number) => {
  let out = from;
  for (let i = k; i < mesh.positions.length; i += 3) out = f(out, mesh.positions[i]);
  return out;
};

/**
 * One scene from `seed`: `layout`'s two surfaces meeting at the centre line, sided by `letters`, each
 * in two pieces; a fuselage box ahead and a tail cone the tail stands on or hangs from.
 */
export function letteredSample(seed: number, layout: Layout, letters: Letters): PiecesSample {
  const next = prng(seed);
  const butterfly = layout === "butterfly";
  const around = seed % 3 === 0 ? [12, 20] as const : [30, 80] as const;
  const surface = airfoilSurface(next, { sweep: [0, 30], around });
  // Rolled about the aft axis to a 50–65° cant, up or down (its dihedral taken out).
  const dihedral = Math.atan2(surface.axis[1], surface.axis[2]);
  const cant = (butterfly ? 1 : -1) * (50 + 15 * next()) * Math.PI / 180;
  const a = cant - dihedral, c = Math.cos(a), s = Math.sin(a);
  const roll = (p: Vec3): Vec3 => [p[0], p[1] * c + p[2] * s, -p[1] * s + p[2] * c];
  const rolled = [surface, surface.wing].map((m) => {
    const positions: number[] = [];
    for (let i = 0; i < m.positions.length; i += 3) {
      positions.push(...roll([m.positions[i], m.positions[i + 1], m.positions[i + 2]]));
    }
    return { positions, triangles: m.triangles };
  });
  // The control surface's root on the centre line (its fixed surface's root a little past it, as a
  // tail's roots overlap inside the cone), the front at aft 10.3, on top of or under the cone.
  const inner = extent(rolled[0], 2, Math.min, Infinity);
  const front = Math.min(...rolled.map((m) => extent(m, 0, Math.min, Infinity)));
  const low = Math.min(...rolled.map((m) => extent(m, 1, Math.min, Infinity)));
  const high = Math.max(...rolled.map((m) => extent(m, 1, Math.max, -Infinity)));
  const place = (p: Vec3): Vec3 => {
    const q = roll(p);
    return [q[0] - front + 10.3, butterfly ? q[1] - low + 0.15 : q[1] - high - 0.3, q[2] - inner];
  };
  const [word, kind] = WORDS[layout][seed % WORDS[layout].length];
  const [left, right] = letters === "L/P" ? ["L", "P"] : ["P", "S"];
  const pair = mirroredPair(surface, place, [`${word}_${left}`, `${word}_${right}`], kind, "Fixed");
  const fixedWord = butterfly ? "VTail" : "Tail";
  const objects: SceneObject[] = [
    { name: "Fuselage", mesh: boxMesh([-4, -0.5, -0.5], [10, 0.5, 0.5]) },
    ...pair.fixed.map(({ name, mesh }) => ({
      name: `${fixedWord}_${name.endsWith("_L") ? left : right}`,
      mesh,
    })),
  ];
  objects.push({ name: "Tail_cone", mesh: boxMesh([10, -0.3, -0.12], [12.5, 0.15, 0.12]) });
  const naming = seed % PIECE_NAMES.length, split = SPLIT_OF[naming];
  const panels: PiecesPanel[] = [];
  for (const panel of pair.panels) {
    const names = PIECE_NAMES[naming](panel.name);
    cutInTwo(panel, split).forEach((mesh, k) => {
      if (mesh.triangles.length === 0) return;
      objects.push({ name: names[k], mesh });
      panels.push({ ...panel, name: names[k], mesh });
    });
  }
  const degrees = (cant * 180 / Math.PI).toFixed(0);
  return {
    objects,
    panels,
    description: `seed ${seed}, ${layout} ${degrees}°, ${letters}, ${
      panels[0]?.name
    }: ${surface.description}`,
  };
}
