/**
 * Kit-bashed tails: a stabiliser pair assembled from parts of different kits, each side named its own
 * way — `Elevator_S` beside `HStab_Port`, `Elev_Left` beside `HorizStab_Right`, `Elevator.L` beside
 * `Stabilizer_R.001`, `HStab_P` beside `Elevator-Stbd` (one side named as the fixed stabiliser), and
 * pairs both named as elevators in different styles (`LeftElevator`/`elevator.R`,
 * `Elevator_L`/`Hoehenruder_R`, `Elevator_L`/`Elevator_R.001`) as controls. The right side is the left
 * mirrored exactly (a mirror modifier) or, from another kit, scaled 0.98–1.02 and moved up to 1 % of
 * its span. Elevators on a canard foreplane (`surface_classes.ts`), each with its fixed surface ahead.
 * Deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { canardAircraft, type ClassMesh } from "./surface_classes.ts";

/** Left and right names, and whether one of them names the fixed stabiliser. */
export const KIT_NAMES: readonly { names: readonly [string, string]; stray: boolean }[] = [
  { names: ["HStab_P", "Elevator-Stbd"], stray: true },
  { names: ["Elevator_L", "Elevator_R.001"], stray: false },
  { names: ["Elev_Left", "HorizStab_Right"], stray: true },
  { names: ["HStab_Port", "Elevator_S"], stray: true },
  { names: ["LeftElevator", "elevator.R"], stray: false },
  { names: ["Elevator_L", "Hoehenruder_R"], stray: false },
  { names: ["Elevator.L", "Stabilizer_R.001"], stray: true },
];

/** A kit-bashed scene: the elevator pair's names, and whether one side is named as fixed. */
export interface KitSample {
  readonly doc: Document;
  readonly names: readonly [string, string];
  readonly stray: boolean;
  readonly description: string;
}

/** The sample of `seed`: names cycled by seed, the rest drawn from it. */
export function kitBashedSample(seed: number): KitSample {
  const next = prng(seed * 4099 + 11);
  const { names, stray } = KIT_NAMES[seed % KIT_NAMES.length];
  // Even indices carry elevators on a fixed foreplane.
  const sample = canardAircraft(next, 2 * seed);
  const otherKit = next() < 0.4;
  const scale = otherKit ? 0.98 + 0.04 * next() : 1;
  const doc = newScene();
  for (const f of sample.fixed) addAircraftMesh(doc, f.name, f.mesh.positions, f.mesh.triangles);
  for (const p of sample.panels) {
    const left = p.name === "Elevator_L", right = p.name === "Elevator_R";
    let mesh: ClassMesh = p.mesh;
    if (right && otherKit) {
      const span = p.truth?.span ?? 1, shift = [0, 1, 2].map(() => (next() - 0.5) * 0.02 * span);
      mesh = { positions: moved(p.mesh.positions, scale, shift), triangles: p.mesh.triangles };
    }
    addAircraftMesh(doc, left ? names[0] : right ? names[1] : p.name, mesh.positions, mesh.triangles);
  }
  return {
    doc,
    names,
    stray,
    description: `seed ${seed}: ${names.join(" / ")}${otherKit ? `, other kit (×${scale.toFixed(3)})` : ""}`,
  };
}

/** Positions scaled about their centre by `scale` and moved by `shift`. */
function moved(positions: ArrayLike<number>, scale: number, shift: readonly number[]): number[] {
  const n = positions.length / 3,
    centre = [0, 1, 2].map((k) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += positions[i * 3 + k];
      return s / n;
    });
  return Array.from(positions, (v, i) => centre[i % 3] + (v - centre[i % 3]) * scale + shift[i % 3]);
}
