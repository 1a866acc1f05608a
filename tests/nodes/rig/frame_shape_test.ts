/**
 * The section-end measure of frame detection on points a damaged file holds: a non-finite coordinate
 * (Draco-decoded NaN) falls in no span bin rather than failing the rig (found by the draco fuzz).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { sectionEnds } from "../../../nodes/rig/frame_sections.ts";

Deno.test("section ends skip non-finite points", () => {
  // x along the span, z along the length, y up: one wing section at x = 0.6 and a NaN point.
  const points = new Float64Array([0.6, 0, 0, 0.6, 0.02, 0.1, 0.6, 0, 1, NaN, 0, 0.5, 0.6, NaN, 0.5]);
  const ends = sectionEnds({ points, min: [-1, -0.1, 0], extent: [2, 0.2, 1], long: 2, span: 0, up: 1 });
  assertEquals(Number.isFinite(ends.low) && Number.isFinite(ends.high), true);
});
