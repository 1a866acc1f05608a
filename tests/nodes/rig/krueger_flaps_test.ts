/**
 * Krueger flaps (`krueger_flaps.ts`): a plate in the wing's lower skin behind its nose, hinged at its
 * own forward edge. Before, every one was rigged as a droop flap about its aft edge — a whole chord
 * off (94–113 % of its chord, 1–4°), judged good, without a word.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { cross, length, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";
import { kruegerAircraft, type KruegerSample } from "./krueger_flaps.ts";

type Tally = Record<string, number>;

/** Rigs `count` aircraft and tallies each Krueger: right or wrong, confidence, warned or silent. */
async function measure(seed: number, count: number, generic: boolean) {
  const next = prng(seed);
  const tally: Tally = {}, misses: string[] = [];
  let worstDegrees = 0, worstOffset = 0, droopsTaken = 0, droops = 0;
  for (let i = 0; i < count; i++) {
    const sample: KruegerSample = kruegerAircraft(next, i, { generic });
    const { report, ctx } = await rig(sample.scene);
    for (const panel of sample.panels) {
      const part = report.parts.find((p) => p.panel === panel.name);
      assert(part?.hinge, `#${i} ${panel.name} not rigged`);
      const warned = ctx.warnings.some((w) => w.message.includes(`'${panel.name}'`));
      const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
      const right = degrees <= 2 && offset <= 0.05 * panel.truth.chord;
      const confidence = (part.fit as unknown as { confidence: string }).confidence;
      const key = `${right ? "right" : "wrong"} ${confidence} ${warned ? "warned" : "silent"}`;
      tally[key] = (tally[key] ?? 0) + 1;
      if (!right) misses.push(`#${i} ${panel.name} ${sample.description}: ${degrees.toFixed(2)}°, ${offset}`);
      worstDegrees = Math.max(worstDegrees, degrees);
      worstOffset = Math.max(worstOffset, offset / panel.truth.chord);
      // A positive angle swings its aft edge down (then forward), within a Krueger's travel.
      const { origin, axis } = part.hinge.aircraft;
      const aft: Vec3 = [
        panel.truth.origin[0] + panel.truth.chord,
        panel.truth.origin[1],
        panel.truth.origin[2],
      ];
      assert(
        cross(axis, sub(aft, origin))[1] < 0,
        `#${i} ${panel.name}: a positive angle lifts its aft edge`,
      );
      assertEquals([part.kind, part.side, part.positive, part.min, part.max], [
        "leading_edge_flap",
        panel.side,
        "trailing_edge_down",
        0,
        130,
      ]);
    }
    // Droop noses named as the Krueger's are (generic names) stay hinged at their aft edge, unwarned of it.
    for (const part of report.parts.filter((p) => p.panel?.startsWith("LE_Flap_Outbd"))) {
      droops++;
      const rule = (part.fit as unknown as { rule: string }).rule;
      if (
        rule !== "aft_edge" ||
        ctx.warnings.some((w) => w.message.includes(`'${part.panel}'`) && /Krueger/.test(w.message))
      ) {
        droopsTaken++;
      }
    }
  }
  return { tally, misses, worstDegrees, worstOffset, droops, droopsTaken };
}

Deno.test("Krueger flaps named so hinge at their forward edge: right and good, trailing edge down, 0–130°", async () => {
  // Before: 48 of 48 wrong, good and silent (aft edge, 94–113 % of chord off).
  const result = await measure(1, 24, false);
  assertEquals(result.misses, []);
  assertEquals(result.tally, { "right good silent": 48 });
  assert(result.worstDegrees < 0.1 && result.worstOffset < 0.01, JSON.stringify(result));
});

Deno.test("a Krueger flap drawn in two objects (split by material) turns about the whole flap's forward edge, every piece a Krueger", async () => {
  // Pieces of one surface are fitted again as one, about their kind's edge: before, a Krueger's two
  // pieces took the whole flap's aft edge (96 of 96 wrong, seed 5, named or not). Then (v89) the piece
  // its place did not show — a sliver, the plate's forward face — kept a droop flap's sense with
  // generic names (leading_edge_down, −3..25, its aft edge lifted) and, named or not, its own hinge a
  // plate's thickness off the whole flap's. Droop noses drawn in pieces beside them stay droops.
  const wrong: string[] = [];
  let droops = 0;
  for (const generic of [false, true]) {
    const next = prng(5);
    for (let i = 0; i < 24; i++) {
      const sample = kruegerAircraft(next, i, { generic, pieces: true, droopPieces: generic });
      const { report, ctx } = await rig(sample.scene);
      for (const panel of sample.panels) {
        for (const name of [panel.name, `${panel.name}.001`]) {
          const part = report.parts.find((p) => p.panel === name);
          assert(part?.hinge, `#${i} ${name} not rigged`);
          const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
          assert(degrees <= 2 && offset <= 0.05 * panel.truth.chord, `#${i} ${name}: ${degrees}°, ${offset}`);
          const { origin, axis } = part.hinge.aircraft;
          const aft: Vec3 = [
            panel.truth.origin[0] + panel.truth.chord,
            panel.truth.origin[1],
            panel.truth.origin[2],
          ];
          const down = cross(axis, sub(aft, origin))[1] < 0;
          const sense = [
            part.kind,
            part.positive,
            part.min,
            part.max,
            down ? "aft edge down" : "aft edge up",
          ];
          if (
            JSON.stringify(sense) !==
              JSON.stringify(["leading_edge_flap", "trailing_edge_down", 0, 130, "aft edge down"])
          ) {
            wrong.push(`#${i} ${name}: ${sense.join(" ")}`);
          }
        }
      }
      // The two pieces of one flap are one plate: one line, not each its own.
      for (const panel of sample.panels) {
        const [a, b] = [panel.name, `${panel.name}.001`].map((n) =>
          report.parts.find((p) => p.panel === n)!.hinge!.aircraft
        );
        const off = length(cross(sub(b.origin, a.origin), a.axis)), turn = length(cross(a.axis, b.axis));
        if (!(off <= 1e-6 * panel.truth.chord && turn <= 1e-6)) {
          wrong.push(
            `#${i} ${panel.name}: its pieces' hinges ${(off / panel.truth.chord).toFixed(4)} of chord apart`,
          );
        }
      }
      for (const part of report.parts.filter((p) => p.panel?.startsWith("LE_Flap_Outbd"))) {
        droops++;
        const rule = (part.fit as unknown as { rule: string }).rule;
        const krueger = ctx.warnings.some((w) =>
          w.message.includes(`'${part.panel}'`) && /Krueger/.test(w.message)
        );
        if (rule !== "aft_edge" || part.positive !== "leading_edge_down" || krueger) {
          wrong.push(
            `#${i} droop ${part.panel}: ${rule} ${part.positive}${krueger ? ", called a Krueger" : ""}`,
          );
        }
      }
    }
  }
  assertEquals(wrong, []);
  assert(droops >= 24, `${droops} droop pieces`);
});

Deno.test("Krueger flaps named as leading-edge flaps are told by their place in the lower skin, warned; droop noses are not", async () => {
  // Before: 48 of 48 wrong, good and silent. The outboard droop noses (`LE_Flap_Outbd`) keep their
  // aft-edge hinge and no Krueger word.
  const result = await measure(1, 24, true);
  assertEquals(result.misses, []);
  assertEquals(result.tally, { "right good warned": 48 });
  assert(result.droops > 0);
  assertEquals(result.droopsTaken, 0);
});
