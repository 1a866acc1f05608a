/**
 * Different aircraft in one file named the way users' tools name them when each type also comes in
 * levels of detail, or names run together in camel case: a showcase's `Spitfire_Aileron_L_LOD1` beside
 * `Bf109_Aileron_L_LOD1` (every type in two levels, each level behind its first), or a game rip's
 * `F16AileronLeft`, `mig29RudderLOD1`, `spitfireElevatorR` (the type glued to the panel, the side spelt
 * `Left` or `R`, the type's first letter lower-case in some exporters). Every aircraft is `piecesAircraft`
 * of its own seed, its levels the same aircraft; they stand side by side, or in a grid narrower than the
 * span. Every panel's true side is about its own aircraft's centre line. Deterministic from a seed.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { piecesAircraft } from "./surface_pieces.ts";
import type { HangarLayout, HangarSample } from "./hangar_scenes.ts";

/** How a fleet's names are made. */
export type FleetNaming = "prefix_lod" | "camel_prefix" | "camel_lod";
/** Every fleet naming. */
export const FLEET_NAMINGS: readonly FleetNaming[] = ["prefix_lod", "camel_prefix", "camel_lod"];

const TYPES = ["Spitfire", "Bf109", "F16", "Mig29", "P51", "Hurricane", "Yak3"];

/** Aircraft (aft, up, left) to the default frame's scene axes (−Z forward, +Y up, −X left). */
const toScene = (p: Vec3): Vec3 => [-p[2], p[1], p[0]];

/** `Aileron_L` in camel case: `AileronLeft` (`long`) or `AileronL`. */
function camel(name: string, long: boolean): string {
  return name.split("_").map((w) =>
    w === "L" ? (long ? "Left" : "L") : w === "R" ? (long ? "Right" : "R") : w[0].toUpperCase() + w.slice(1)
  ).join("");
}

/**
 * Two or three different aircraft of `seed` named by `naming` (the LOD namings draw each in two levels,
 * the second 18–24 behind its first), standing as `layout` says.
 */
export function fleetSample(seed: number, naming: FleetNaming, layout: HangarLayout): HangarSample {
  const next = prng(seed * 13 + 7);
  const count = 2 + Math.floor(next() * 2);
  const first = Math.floor(next() * TYPES.length);
  const types = Array.from({ length: count }, (_, i) => TYPES[(first + 2 * i) % TYPES.length]);
  const across = 14 + 6 * next(), behind = 18 + 6 * next(), skew = 3 + 3 * next();
  const levels = naming === "camel_prefix" ? 1 : 2;
  const doc = newScene();
  const panels: HangarSample["panels"] = [];
  for (let i = 0; i < count; i++) {
    const aircraft = piecesAircraft(seed * 37 + i * 911);
    const long = next() < 0.5, lower = next() < 0.5;
    const type = lower ? types[i][0].toLowerCase() + types[i].slice(1) : types[i];
    for (let level = 0; level < levels; level++) {
      const at: Vec3 = layout === "grid_overlap"
        ? [i * behind * levels, 0, (i % 2 ? 1 : -1) * skew * Math.min(i, 1)]
        : [0, 0, (layout === "right" ? -1 : 1) * across * i];
      const offset: Vec3 = [at[0] + level * behind, at[1], at[2]];
      // Levels of detail: Sketchfab's `_LOD1` after the name, a game rip's `LOD1` glued to it.
      const name = (n: string) =>
        naming === "prefix_lod"
          ? `${types[i]}_${n}_LOD${level}`
          : `${type}${camel(n, long)}${naming === "camel_lod" ? `LOD${level}` : ""}`;
      for (const { name: n, mesh } of aircraft.fixed) {
        addAircraftMesh(doc, name(n), mesh.positions, mesh.triangles).setTranslation(toScene(offset));
      }
      for (const panel of aircraft.panels) {
        addAircraftMesh(doc, name(panel.name), panel.mesh.positions, panel.mesh.triangles)
          .setTranslation(toScene(offset));
        const origin = panel.truth!.origin.map((v, k) => v + offset[k]) as Vec3;
        panels.push({
          ...panel,
          name: name(panel.name),
          copy: i * levels + level,
          occurrence: 0,
          groups: [],
          truth: { ...panel.truth!, origin },
        });
      }
    }
  }
  return {
    doc,
    panels,
    description: `${naming}, ${types.join("+")} ${layout} (${across.toFixed(1)} across, ${
      behind.toFixed(1)
    } behind ${skew.toFixed(1)} across), seed ${seed}`,
  };
}
