/**
 * Frame detection (`"auto"`) on models of one side only — a half aircraft, as kit, CFD and
 * work-in-progress models come: no axis is mirror-symmetric, so the span cannot be told, and the
 * frame must come out weak, never wrong and judged good.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { detectFrame } from "../../../nodes/rig/frame_detect.ts";
import { type ClassMesh, type ClassSample, classScene } from "./surface_classes.ts";
import { flatAircraft } from "./flat_aircraft.ts";
import { FILE_FRAMES, turn } from "./turned.ts";

/** True when the mesh lies on the left (aircraft coordinates: left is the third axis) or the centre. */
function leftOrCentre(mesh: ClassMesh): boolean {
  let sum = 0;
  for (let k = 2; k < mesh.positions.length; k += 3) sum += mesh.positions[k];
  return sum >= 0;
}

/** The sample with its right-side objects left out (the fuselage, fin and rudder stay whole). */
function leftHalf(sample: ClassSample): ClassSample {
  return {
    panels: sample.panels.filter((p) => leftOrCentre(p.mesh)),
    fixed: sample.fixed.filter((f) => leftOrCentre(f.mesh)),
    description: `left half: ${sample.description}`,
  };
}

Deno.test("half aircraft (left side only) in every file frame: weak, the span unsure, never wrong and good", () => {
  // Before: the best mirror symmetry of a half model (0.15–0.57) still led the next axis by 0.1 and
  // was taken as clear — often along the fuselage, the half wing then read as the fuselage — and the
  // names confirmed the rest: of these 240, 24 wrong and judged good, 192 wrong and weak, 16 right
  // and good, 8 right and weak.
  const next = prng(31);
  const tally: Record<string, number> = {};
  for (let i = 0; i < 30; i++) {
    const sample = leftHalf(flatAircraft(next, i));
    for (const [forward, up] of FILE_FRAMES) {
      const frame = detectFrame(turn(classScene(sample), forward, up))!;
      const key = `${frame.forward === forward && frame.up === up ? "right" : "wrong"} ${frame.confidence}`;
      tally[key] = (tally[key] ?? 0) + 1;
      assert(
        frame.reasons.some((r) => /^unsure: span: no axis is mirror-symmetric \(best 0\.[0-6]\d/.test(r)),
        frame.reasons.join("\n"),
      );
    }
  }
  assertEquals(tally, { "right weak": 24, "wrong weak": 216 });
});

Deno.test("whole aircraft in every file frame: the mirror symmetry stays clear", () => {
  // The same aircraft whole: the span's symmetry is 0.82 or more, above the 0.7 a half model never reaches.
  const next = prng(31);
  const tally: Record<string, number> = {};
  for (let i = 0; i < 30; i++) {
    const sample = flatAircraft(next, i);
    for (const [forward, up] of FILE_FRAMES) {
      const frame = detectFrame(turn(classScene(sample), forward, up))!;
      const key = `${frame.forward === forward && frame.up === up ? "right" : "wrong"} ${frame.confidence}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
  }
  assertEquals(tally, { "right good": 240 });
});
