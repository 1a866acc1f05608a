/**
 * The aircraft `gltf_converters.ts` writes as each converter would: a fuselage, a wing with ailerons and
 * a tailplane with elevators, their sections real airfoils (`airfoil_panels.ts`) so each control
 * surface has a true hinge, each object its own colour (some textured). Objects are given in glTF's
 * frame (metres, +Y up, −Z forward) and the hinges in the aircraft's (aft, up, left), as the rig
 * report gives them. Deterministic from a seed.
 *
 * @module
 */
import { type mat4, vec3 } from "gl-matrix";
import { type ClassPanel, FUSELAGE, mirroredPair } from "../rig/surface_classes.ts";
import { airfoilSurface } from "../rig/airfoil_panels.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { bounds, type PartTruth, type Rgba } from "./gltf_exporter_parts.ts";

/** One object of the model in glTF's frame, about the world origin. */
export interface ModelObject {
  readonly name: string;
  /** World positions, metres, glTF frame. */
  readonly positions: Float32Array;
  readonly triangles: Uint32Array;
  readonly factor: Rgba;
  /** The solid colour of its texture, when textured. */
  readonly texture?: Rgba;
}

/** A control surface and its hinge in aircraft coordinates. */
export type ModelPanel = Pick<ClassPanel, "name" | "kind" | "side" | "truth">;

/** The aircraft: its objects and its panels' hinges. */
export interface ConverterModel {
  readonly objects: ModelObject[];
  readonly panels: ModelPanel[];
}

/** Aircraft (aft, up, left) to glTF (−Z forward: aft is +Z, left is −X). */
const toGltf = (p: ArrayLike<number>, i: number): Vec3 => [-p[i + 2], p[i + 1], p[i]];

/** The model for `next`: fuselage, wing and ailerons, tailplane and elevators. */
export function converterModel(next: () => number): ConverterModel {
  const wing = airfoilSurface(next);
  const tail = airfoilSurface(next, { sweep: [0, 35] });
  const shift = (d: Vec3) => (p: Vec3): Vec3 => [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
  const ailerons = mirroredPair(
    wing,
    shift([2 - wing.origin[0], -wing.origin[1], 0.5]),
    ["Aileron_L", "Aileron_R"],
    "aileron",
    "Wing",
  );
  const elevators = mirroredPair(
    tail,
    shift([9 - tail.origin[0], 0.3 - tail.origin[1], 0.5]),
    ["Elevator_L", "Elevator_R"],
    "elevator",
    "Stabilizer",
  );
  const round = (v: number) => Math.round(v * 255) / 255;
  const meshes = [FUSELAGE, ...ailerons.fixed, ...elevators.fixed, ...ailerons.panels, ...elevators.panels];
  const objects = meshes.map(({ name, mesh }, i): ModelObject => {
    const positions = new Float32Array(mesh.positions.length);
    for (let k = 0; k < positions.length; k += 3) positions.set(toGltf(mesh.positions, k), k);
    return {
      name,
      positions,
      triangles: new Uint32Array(mesh.triangles),
      factor: next() < 0.4 ? [1, 1, 1, 1] : [round(next()), round(next()), round(next()), 1],
      texture: next() < 0.5 ? [16 + 20 * i, Math.floor(next() * 256), 128, 255] : undefined,
    };
  });
  const panels = [...ailerons.panels, ...elevators.panels].map(({ name, kind, side, truth }) => ({
    name,
    kind,
    side,
    truth,
  }));
  return { objects, panels };
}

/** The colour a viewer draws: factor × the texture's solid colour. */
export function drawnColour(object: Pick<ModelObject, "factor" | "texture">): Rgba {
  const t = object.texture ?? [255, 255, 255, 255];
  return object.factor.map((f, k) => f * t[k] / 255) as Rgba;
}

/** Box-projected texture coordinates in [0, 1] over the object's own bounds. */
export function planarUvs(positions: Float32Array): Float32Array {
  const { min, max } = bounds(positions);
  const uv = new Float32Array(positions.length / 3 * 2);
  for (let i = 0, j = 0; i < positions.length; i += 3, j += 2) {
    uv[j] = (positions[i] - min[0]) / ((max[0] - min[0]) || 1);
    uv[j + 1] = (positions[i + 2] - min[2]) / ((max[2] - min[2]) || 1);
  }
  return uv;
}

/** The positions mapped by `m`. */
export function mapped(positions: Float32Array, m: mat4): Float32Array {
  const out = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    out.set(vec3.transformMat4(vec3.create(), [positions[i], positions[i + 1], positions[i + 2]], m), i);
  }
  return out;
}

/** The vertices `triangles` draw, and the triangles renumbered onto them. */
export function compacted(
  positions: Float32Array,
  triangles: ArrayLike<number>,
): { positions: Float32Array; triangles: Uint32Array } {
  const map = new Map<number, number>();
  const out: number[] = [];
  const tris = Array.from(triangles, (v) => {
    if (!map.has(v)) {
      map.set(v, map.size), out.push(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
    }
    return map.get(v)!;
  });
  return { positions: new Float32Array(out), triangles: new Uint32Array(tris) };
}

/** What a viewer draws of a primitive of world `positions` (the ones its triangles use). */
export function pieceTruth(
  name: string,
  world: Float32Array,
  object: Pick<ModelObject, "factor" | "texture">,
  options: { unlit?: boolean; uv?: string } = {},
): PartTruth {
  const { min, max } = bounds(world);
  return {
    name,
    min,
    max,
    colour: drawnColour(object),
    unlit: options.unlit ?? false,
    emissive: [0, 0, 0],
    uv: object.texture ? options.uv ?? "0" : "",
  };
}
