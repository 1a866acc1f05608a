/**
 * Propellers glued into one mesh (`glued_twins.ts`: a rip's `PROPS` merging `LPROP` and `RPROP`, two
 * engines on one wing, twin contra-rotating pairs, four engines, two engines' spinners, one engine's
 * propeller copied to the other) are split sideways into a part per rotor (`spin_twins.ts`), each
 * rigged about its own shaft with its side; a contra-rotating pair on one shaft and a hubless two-blade
 * propeller are not split sideways. Before (rig.fit_hinge v50) every glued twin was rigged as one part
 * on the centre line — its shaft fit failed, but glued spinners fitted as a good two-blade rotor
 * (held-out seeds 101-170: 50 of 70 scenes wrong, 10 of them judged good; after: 0). One engine's two-blade propeller copied across to the other (moved,
 * not mirrored: the same hand, shaft and blade angle) turns onto itself by a half turn about the centre
 * line as one two-blade rotor would; before rig.fit_hinge v54 it stayed whole, judged good, and until
 * v58 four engines' copies were split two to a part (held-out seeds 201-360, 8 families: 16 of 160
 * scenes wrong, all silent; after: 0).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { GLUED_FAMILIES, gluedSample } from "./glued_twins.ts";
import { judgeGlued } from "./glued_tally.ts";
import { rig } from "./pipeline.ts";

Deno.test("propellers glued into one mesh: each disc rigged as its own part, never wrong and good", async () => {
  const wrong: string[] = [], silent: string[] = [];
  for (let seed = 1; seed <= 2 * GLUED_FAMILIES.length; seed++) {
    const verdict = await judgeGlued(seed);
    if (verdict.wrong) wrong.push(`${verdict.description}: ${verdict.parts.join(" ")}`);
    if (verdict.silent.length) silent.push(`${verdict.description}: ${verdict.silent.join(", ")}`);
  }
  assertEquals(silent, []);
  assertEquals(wrong, []);
});

Deno.test("glued twin propellers: split into '<name>_L' and '<name>_R', said in a warning", async () => {
  const sample = gluedSample(GLUED_FAMILIES.indexOf("twin"));
  const { report, ctx } = await rig(sample.doc);
  const props = report.parts.filter((p) => p.kind === "propeller").map((p) => [p.panel, p.side]).sort();
  assertEquals(props, [[`${sample.name}_L`, "left"], [`${sample.name}_R`, "right"]]);
  assertEquals(ctx.warnings.some((w) => w.message.includes("rotors side by side drawn as one object")), true);
});

Deno.test("glued twin propellers that cannot be split (an object under them) stay whole, never judged good", async () => {
  const sample = gluedSample(GLUED_FAMILIES.indexOf("twin") + GLUED_FAMILIES.length);
  const props = sample.doc.getRoot().listNodes().find((n) => n.getName() === sample.name)!;
  props.addChild(sample.doc.createNode("Empty_Marker"));
  const { report } = await rig(sample.doc);
  const parts = report.parts.filter((p) => p.kind === "propeller");
  assertEquals(parts.map((p) => p.panel), [sample.name]);
  const fit = parts[0].fit as unknown as { confidence: string; reasons: string[] };
  assertEquals(fit.confidence === "good", false);
  assertEquals(fit.reasons.some((r) => r.includes("rotors side by side") && r.includes("child nodes")), true);
});

Deno.test("old games' rip names with the side glued on (LPROPS, RPROP, Spinners) are spinning parts too", async () => {
  // Before (rig.detect_panels v29): `LPROP`, `RPROP`, `LPROPS`, `PROPL` and `Spinners` named nothing the
  // rig knew, so such meshes were not rigged at all, silently.
  for (
    const [family, name, sides] of [
      ["one_wing", "LPROPS", ["left", "left"]],
      ["spinners", "Spinners", ["left", "right"]],
      ["twin", "PROPL", ["left", "right"]],
    ] as const
  ) {
    const sample = gluedSample(GLUED_FAMILIES.indexOf(family));
    sample.doc.getRoot().listNodes().find((n) => n.getName() === sample.name)!.setName(name);
    const { report } = await rig(sample.doc);
    const props = report.parts.filter((p) => p.kind === "propeller");
    assertEquals(props.map((p) => p.side).sort(), [...sides], `${family} '${name}'`);
    assertEquals(props.every((p) => p.panel?.startsWith(`${name}_`)), true, props.map((p) => p.panel).join());
  }
  // Each engine's own propeller named as the rip names it.
  const sample = gluedSample(GLUED_FAMILIES.indexOf("twin"));
  const glued = sample.doc.getRoot().listNodes().find((n) => n.getName() === sample.name)!;
  glued.setName("LPROP");
  const { report } = await rig(sample.doc);
  assertEquals(report.parts.filter((p) => p.kind === "propeller").length, 2);
});

Deno.test("plank propellers (one flat box each) copied to the other engines: each rigged as its own part", async () => {
  // Before rig.fit_hinge v59 each of these stayed whole on the centre line, judged good.
  for (const seed of [71, 127, 175]) {
    const verdict = await judgeGlued(seed);
    assertEquals(verdict.description.includes("plank"), true, verdict.description);
    assertEquals(
      [verdict.wrong, verdict.silent],
      [false, []],
      `${verdict.description}: ${verdict.parts.join(" ")}`,
    );
  }
});
