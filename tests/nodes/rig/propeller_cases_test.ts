/**
 * Spinning parts as real files draw them beyond straight shafts (`propeller_cases.ts`): canted tail
 * rotors and tilt-rotor nacelles come out right and good, whether a nacelle node carries the shaft or
 * it is baked into the vertices; a blade retopologised apart or given an extra loop is still
 * symmetric; rotors broken on purpose are never good; a single blade is said to be one and takes its
 * hub's axis where it has a round hub; and the side of a spinning part follows its own size, not a
 * fixed band, in scenes from 1 cm to 100 m.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { rig } from "./pipeline.ts";
import { cantedCase, oneBladeCase, sideCase, type SpinCase } from "./propeller_cases.ts";
import { judge } from "./propellers.ts";
import { turn } from "./turned.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { heldOutCount } from "../../support/heldout.ts";

// cantedCase cycles blade counts every 4, tail rotor or tilt-rotor every 2, hubs every 3, storage every
// 6, nacelle or not every 8, the way a rotor is broken every 12: the suite draws the first 12 of each
// variant (every one of those once), `deno task heldout` all 24 (every combination).
const CASES = heldOutCount(24, 12);

/** Tallies of right/wrong × confidence over generated cases, and the worst good fit. */
async function tally(cases: SpinCase[], frame?: [string, string]) {
  const counts: Record<string, number> = {};
  const worst = { degrees: 0, offset: 0 };
  const goodButOff: string[] = [];
  for (const sample of cases) {
    let world = (v: Vec3) => v;
    if (frame) {
      turn(sample.doc, frame[0] as "-Z", frame[1] as "+Y");
      const m = sample.doc.getRoot().listNodes().find((x) => x.getName() === "Turned")!.getWorldMatrix();
      world = (v) => [0, 1, 2].map((r) => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2]) as Vec3;
    }
    const result = await rig(sample.doc, { forward: frame?.[0] ?? "-Z", up: frame?.[1] ?? "+Y" });
    for (const [n, truth] of sample.parts.entries()) {
      const { degrees, offset, confidence, right } = judge(sample, result, truth, world);
      // A broken rotor is the first part of its case; the others are drawn clean.
      const group = sample.broken && n === 0 ? "broken" : truth.unvouched ? "unvouched" : "clean";
      const key = `${group} ${right ? "right" : "wrong"} ${confidence}`;
      counts[key] = (counts[key] ?? 0) + 1;
      if (confidence === "good" && !right) goodButOff.push(`${sample.description} ${truth.name}`);
      if (confidence === "good") {
        worst.degrees = Math.max(worst.degrees, degrees), worst.offset = Math.max(worst.offset, offset);
      }
    }
  }
  return { counts, worst, goodButOff };
}

const only = (counts: Record<string, number>, prefix: string) =>
  Object.entries(counts).filter(([k]) => k.startsWith(prefix));

Deno.test("canted tail rotors (10–25°) and tilt-rotor nacelles (0–90°): right and good, nacelle node or baked", async () => {
  const next = prng(41);
  const cases = Array.from({ length: CASES }, (_, i) => cantedCase(next, i, "clean"));
  const { counts, worst, goodButOff } = await tally(cases);
  console.log("  ", counts, `worst good ${worst.degrees.toFixed(4)}°, ${(worst.offset * 100).toFixed(4)} %`);
  assertEquals(goodButOff, []);
  assertEquals(only(counts, "clean").filter(([k]) => k !== "clean right good"), []);
  // Two blades on a leaning shaft baked into the vertices: right, and weak, nothing vouching for it.
  assertEquals(only(counts, "unvouched").filter(([k]) => k !== "unvouched right weak"), []);
  assert(worst.degrees <= 0.05 && worst.offset <= 1e-3);
});

Deno.test("canted and tilted rotors in other file frames, and a two-blade rotor whose gearbox node leans apart: the same judgements", async () => {
  // Four cases (a tail rotor of three blades on its gearbox, one baked; tilt-rotors on nacelles and
  // baked) in four frames: every axis a file may take as forward or up.
  const frames: [string, string][] = [["+Z", "+Y"], ["+X", "+Z"], ["-Y", "-X"], ["-X", "-Z"]];
  for (const frame of frames) {
    const next = prng(41);
    const cases = Array.from({ length: 8 }, (_, i) => cantedCase(next, i, "clean")).filter((_, i) =>
      [1, 2, 5, 6].includes(i)
    );
    const { counts } = await tally(cases, frame);
    assertEquals(counts, { "clean right good": 8 }, frame.join(" "));
  }
  // A gearbox node 5–15° apart from a two-blade tail rotor's canted shaft, with no hub of its own
  // (index ≡ 4 mod 12: two blades, a tail rotor, no hub), vouches for nothing: weak.
  const next = prng(46);
  const leaning = [4, 16, 28].map((i, k) => cantedCase(next, i, "clean", 5 + 5 * k));
  const { counts } = await tally(leaning);
  assertEquals(counts["unvouched right weak"], 3, JSON.stringify(counts));
});

Deno.test("a blade retopologised apart from the others, or given an extra loop: still symmetric, right and good", async () => {
  const next = prng(42);
  const cases = Array.from({ length: CASES }, (_, i) => cantedCase(next, i, "retopo"));
  const { counts, worst, goodButOff } = await tally(cases);
  console.log("  ", counts, `worst good ${worst.degrees.toFixed(4)}°, ${(worst.offset * 100).toFixed(4)} %`);
  assertEquals(goodButOff, []);
  assertEquals(only(counts, "clean").filter(([k]) => k !== "clean right good"), []);
});

Deno.test("rotors broken on purpose (asymmetric box; a blade off its spacing, pitched or coned apart): never good", async () => {
  const next = prng(43);
  const cases = Array.from({ length: CASES }, (_, i) => cantedCase(next, i, "broken"));
  const { counts, goodButOff } = await tally(cases);
  console.log("  ", counts);
  assertEquals(goodButOff, []);
  assertEquals(only(counts, "broken").filter(([k]) => k.endsWith("good")), []);
  assert(only(counts, "broken").reduce((sum, [, n]) => sum + n, 0) === CASES);
  // The rotors drawn clean beside them are untouched by the broken one.
  assertEquals(only(counts, "clean").filter(([k]) => k !== "clean right good"), []);
});

Deno.test("one blade: said to be one (not 'not symmetric'); with a round hub or spinner, the hub's axis, right and good", async () => {
  const next = prng(44);
  let fromHub = 0, said = 0;
  for (let i = 0; i < 15; i++) {
    const sample = oneBladeCase(next, i);
    const result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
    const truth = sample.parts[0];
    const { part, confidence, right } = judge(sample, result, truth, (v) => v);
    const fit = part.fit as unknown as { spin: { axis_from: string }; reasons: string[] };
    if (sample.shaftFromHub) {
      assert(right && confidence === "good", `${sample.description}: ${confidence}, ${fit.reasons}`);
      assertEquals(fit.spin.axis_from, "hub");
      fromHub++;
    } else {
      assertEquals(confidence, "failed", sample.description);
      const warning = result.ctx.warnings.find((w) => w.message.includes("'Propeller'"))?.message ?? "";
      assert(/one blade only/.test(warning) && /`Hub`, `Spinner`/.test(warning), warning);
      assert(!/not rotationally symmetric/.test(warning), warning);
      said++;
    }
  }
  console.log(`   ${fromHub} shafts from the hub, right and good; ${said} lone blades said to be one`);
  assert(fromHub >= 5 && said >= 8);
});

Deno.test("the side of a spinning part follows its size: centre-line propellers and tail rotors centre, wing ones sided, at any scale", async () => {
  const wrong: string[] = [];
  let parts = 0;
  for (const scale of [0.01, 0.1, 1, 10, 100]) {
    const next = prng(45);
    for (let i = 0; i < 8; i++) {
      const sample = sideCase(next, i, scale);
      const result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
      for (const truth of sample.parts) {
        const part = result.report.parts.find((p) => p.panel === truth.name)!;
        parts++;
        if (part.side !== truth.side) wrong.push(`${sample.description} ${truth.name}: ${part.side}`);
      }
    }
  }
  console.log(`   ${parts - wrong.length} of ${parts} sides right`);
  assertEquals(wrong, []);
});
