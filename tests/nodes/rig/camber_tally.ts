/**
 * What the frame's camber vote says of generated airfoil wings (`real_airfoil_wings.ts`), shared by the
 * real-airfoil and low-poly camber tests.
 *
 * @module
 */
import { detectFrame } from "../../../nodes/rig/frame_detect.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { airfoilWing } from "./real_airfoil_wings.ts";

/** What the camber said for each wing of `seeds`: a tally, and the wings it set upside down. */
export function tallyUps(seeds: number[]): { tally: Record<string, number>; wrong: string[] } {
  const tally: Record<string, number> = {}, wrong: string[] = [];
  for (const seed of seeds) {
    const wing = airfoilWing(seed);
    const doc = newScene();
    // Odd seeds face the other way along their length (up kept).
    const positions = seed % 2 ? wing.positions.map((v, i) => i % 3 === 1 ? v : -v) : wing.positions;
    addAircraftMesh(doc, "Body", positions, wing.triangles);
    const found = detectFrame(doc);
    const camber = found?.reasons.find((r) => /camber/.test(r));
    const says = !camber ? "nothing" : found!.up === "+Y" ? "up" : "down";
    const key = `${wing.kind.bows ? "lifting" : "symmetric"} ${says}`;
    tally[key] = (tally[key] ?? 0) + 1;
    if (says === "down" || (says === "up" && !wing.kind.bows)) wrong.push(`${wing.description}: ${camber}`);
  }
  return { tally, wrong };
}
