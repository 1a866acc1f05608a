/**
 * Several surfaces of one kind per side (`segmented_wings.ts`): airliner wings with flap segments
 * and inboard and outboard ailerons, and biplanes with ailerons on both wings. Each surface must be
 * found once, on its side, with its own hinge — not its neighbour's, nor its mirror partner's taken
 * from the wrong segment — and judged good; stored clean, unwelded, mirrored by a −1 scale, or both.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { cross, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";
import { detectFrame } from "../../../nodes/rig/frame_detect.ts";
import { FILE_FRAMES, turn } from "./turned.ts";
import { airlinerWing, biplane, type SegmentedSample, segmentedScene } from "./segmented_wings.ts";
import { HELD_OUT } from "../../support/heldout.ts";

/** Per panel: right (kind, side, hinge within 2° and 5 % of chord, trailing edge down) or not, and the judgement. */
async function tally(count: number, make: (next: () => number, index: number) => SegmentedSample) {
  const next = prng(7001);
  const out: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const sample = make(next, i);
    const { report } = await rig(segmentedScene(sample));
    assertEquals(report.parts.map((p) => p.panel).sort(), sample.panels.map((p) => p.name).sort());
    for (const panel of sample.panels) {
      const part = report.parts.find((p) => p.panel === panel.name)!;
      const { origin, axis } = part.hinge!.aircraft;
      const { degrees, offset } = hingeError(panel.truth!, { origin, axis });
      const centroid = [0, 1, 2].map((k) => {
        let sum = 0;
        for (let v = k; v < panel.mesh.positions.length; v += 3) sum += panel.mesh.positions[v];
        return sum / (panel.mesh.positions.length / 3);
      }) as Vec3;
      const down = cross(axis, sub(centroid, origin))[1] < 0;
      const right = part.kind === panel.kind && part.side === panel.side && down && degrees <= 2 &&
        offset <= 0.05 * panel.truth!.chord;
      const confidence = (part.fit as unknown as { confidence: string }).confidence;
      const key = `${right ? "right" : "wrong"} ${confidence}`;
      out[key] = (out[key] ?? 0) + 1;
    }
  }
  return out;
}

Deno.test("airliner wings: every flap segment and inboard/outboard aileron on its own hinge and side", async () => {
  // 40 wings, 10 in each storage, 360 surfaces (first measured so: no change was needed).
  assertEquals(await tally(40, airlinerWing), { "right good": 360 });
});

Deno.test("biplanes: ailerons on both wings, each on its own hinge and side", async () => {
  // 150 ailerons (every seventh biplane has them on its upper wing only).
  assertEquals(await tally(40, biplane), { "right good": 150 });
});

Deno.test('"auto" frames of airliner wings on a box fuselage: the wing root is no centre line', () => {
  // The box fuselage has no vertices between its ends, so the middle of its length held only the
  // wing's root, 0.2–0.3 above the centre line: the bare nose end then read as lopsided about it (a
  // fin) and reaching down — reversed and rolled over, judged good (#89: 31° sweep with dihedral
  // tips reaching the fuselage's end). 300 in the default frame: 260 right and good, 22 right and
  // weak, 17 wrong and weak, 1 wrong and good before; in the eight file frames 2,080, 176, 136 and 8.
  // Now the slimmer end gives the centre line where the middle is thinner than half of it: 298, 1, 1
  // and 0 (2,384, 8, 8 and 0 in the eight frames).
  // The suite reads every third wing and #89 (all made, as each draws on the one generator); `deno task
  // heldout` all 300.
  const next = prng(7001);
  const tally: Record<string, number> = {};
  for (let i = 0; i < 300; i++) {
    const sample = airlinerWing(next, i);
    if (!HELD_OUT && i % 3 !== 0 && i !== 89) continue;
    const frames = i === 89 ? FILE_FRAMES : [["-Z", "+Y"] as const];
    for (const [forward, up] of frames) {
      const frame = detectFrame(turn(segmentedScene(sample), forward, up))!;
      const right = frame.forward === forward && frame.up === up;
      assert(
        right || frame.confidence === "weak",
        `#${i} ${forward}/${up}: ${frame.forward}/${frame.up} judged good`,
      );
      if (i === 89) {
        assert(right && frame.confidence === "good", `#89 ${forward}/${up}: ${frame.forward}/${frame.up}`);
      } else {tally[`${right ? "right" : "wrong"} ${frame.confidence}`] =
          (tally[`${right ? "right" : "wrong"} ${frame.confidence}`] ?? 0) + 1;}
    }
  }
  assertEquals(
    tally,
    HELD_OUT
      ? { "right good": 297, "right weak": 1, "wrong weak": 1 }
      : { "right good": 98, "right weak": 1, "wrong weak": 1 },
  );
});
