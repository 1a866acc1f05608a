/**
 * Which nodes are spinning parts: names read as tokens in the languages the vocabulary covers, the
 * outermost match taking its blades and spinner along, structure named after a rotor left still, and
 * nothing that is, holds or sits under a declared part; a single blade and a part named against its
 * shaft are warned, not rigged silently.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { matchSpinningName } from "../../../nodes/rig/spinning_names.ts";
import { fitSpinAxis } from "../../../nodes/rig/spin_fit.ts";
import { gatherPositions } from "../../../nodes/rig/geometry.ts";
import { axisErrorDegrees, distanceToLine, IDENTITY } from "./fixtures.ts";
import { prng } from "../../support/prng.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { propellerSample } from "./propellers.ts";

Deno.test("spinning-part names: kinds, bare names whose shaft decides, structure left out", () => {
  const cases: [string, string | undefined][] = [
    ["Propeller", "bare"],
    ["Prop_L", "bare"],
    ["Airscrew", "bare"],
    ["Spinner", "bare"],
    ["Luftschraube", "bare"],
    ["Hélice_avant", "bare"],
    ["Elica", "bare"],
    ["Винт", "bare"],
    ["rotor", "bare"],
    ["Proprotor_L", "bare"],
    ["Blades", "bare"],
    ["MainRotor", "main_rotor"],
    ["Rotor_Main", "main_rotor"],
    ["Hauptrotor", "main_rotor"],
    ["rotor principal", "main_rotor"],
    ["несущий винт", "main_rotor"],
    ["TailRotor", "tail_rotor"],
    ["Heckrotor", "tail_rotor"],
    ["Fenestron", "tail_rotor"],
    ["rotor de cola", "tail_rotor"],
    ["рулевой винт", "tail_rotor"],
    ["Prop_Guard", undefined],
    ["RotorMast", undefined],
    ["Swashplate", undefined],
    ["RotorBrake", undefined],
    ["PropellerShaft", undefined],
    ["Propeller_Mount", undefined],
    ["HINGE_auto_Propeller", undefined],
    ["CTRL_Rotor", undefined],
    ["Blade_1", undefined],
    ["Counterweight", undefined],
    ["Proportion", undefined],
    ["Aileron_L", undefined],
  ];
  assertEquals(cases.map(([name]) => [name, matchSpinningName(name)]), cases);
});

Deno.test("the outermost match is the part: blades and spinner under it turn with it, the guard stays", async () => {
  // Index 6: wing engines (config 1) with blades as objects of their own (indices 5–9), no parent.
  const sample = propellerSample(prng(1), 6);
  assert(sample.description.includes("per_blade"), sample.description);
  const result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
  const panels = result.report.parts.map((p) => p.panel).sort();
  assertEquals(panels, sample.parts.map((p) => p.name).sort());
  for (const part of result.report.parts) {
    assertEquals(part.group, "propellers");
    assertEquals(part.positive, "clockwise_from_behind");
    assertEquals([part.min, part.max], [null, null]);
  }
  assert(!result.report.parts.some((p) => p.panel === "Prop_Guard"));
  const blades = result.scene.getRoot().listNodes().filter((n) => /^Blade_/.test(n.getName()));
  assert(blades.length > 0);
  for (const blade of blades) assert(blade.getParentNode()!.getName().startsWith("Prop_"), blade.getName());
});

Deno.test("a propeller that is, holds or sits under a declared part is left to it", async () => {
  for (const where of ["is", "holds", "under"] as const) {
    const sample = propellerSample(prng(2), 0); // a tractor, one mesh
    const prop = nodeNamed(sample.doc, sample.parts[0].name);
    const declared = where === "is"
      ? prop
      : where === "holds"
      ? prop.listChildren()[0] ?? sample.doc.createNode("CTRL_Pitch")
      : sample.doc.createNode("CTRL_Engine");
    if (where === "holds" && !declared.getParentNode()) prop.addChild(declared);
    if (where === "under") {
      sample.doc.getRoot().getDefaultScene()!.addChild(declared);
      declared.addChild(prop);
    }
    declared.setExtras({ ctrl_type: "rotation" });
    const result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
    assert(!result.report.parts.some((p) => p.panel === sample.parts[0].name), where);
  }
});

Deno.test("a rotor left with one blade turns about its hub's axis, without it is failed as one blade; a main rotor turning about forward is warned", async () => {
  const sample = propellerSample(prng(3), 9); // a helicopter, a blade per object
  assert(sample.description.includes("helicopter") && sample.description.includes("per_blade"));
  const main = nodeNamed(sample.doc, sample.parts[0].name);
  const one = propellerSample(prng(3), 0);
  // The tractor's propeller, renamed a main rotor: its shaft runs forward, not up.
  const prop = nodeNamed(one.doc, one.parts[0].name).setName("MainRotor");
  let result = await rig(one.doc, { forward: "-Z", up: "+Y" });
  const part = result.report.parts.find((p) => p.panel === "MainRotor")!;
  assertEquals(part.kind, "main_rotor");
  assert(
    result.ctx.warnings.some((w) =>
      /'MainRotor' \(main_rotor\): shaft fit is weak .*forward axis/.test(w.message)
    ),
  );
  assert(prop);
  // A rotor group holding one blade and its hub: the shaft is the axis the hub is round about.
  const blades = main.listChildren().filter((n) => n.getName().startsWith("Blade_"));
  assert(blades.length > 1);
  for (const blade of blades.slice(1)) blade.dispose();
  const truth = sample.parts[0];
  result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
  const single = result.report.parts.find((p) => p.panel === truth.name)!;
  const fit = single.fit as unknown as { confidence: string; spin: { axis_from: string } };
  assertEquals([fit.confidence, fit.spin.axis_from], ["good", "hub"]);
  assert(axisErrorDegrees(single.hinge!.world.axis, truth.axis) < 0.5);
  assert(
    distanceToLine(truth.centre, single.hinge!.world.origin, single.hinge!.world.axis) < 0.01 * truth.radius,
  );
  // Without its hub, one blade shows no shaft: failed, said to be one blade, and what to do.
  main.listChildren().find((n) => n.getName() === "Hub")!.dispose();
  result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
  assert(
    result.ctx.warnings.some((w) =>
      w.message.includes(`'${truth.name}'`) &&
      /shaft fit is failed — one blade only \(its one blade object is 'Blade_1'\)/.test(w.message) &&
      w.message.includes("`Hub`, `Spinner`")
    ),
    result.ctx.warnings.map((w) => w.message).join("\n"),
  );
});

Deno.test("a propeller drawn as points only (no triangles): its vertices weigh in, the shaft still found", () => {
  const sample = propellerSample(prng(4), 0); // a tractor, one mesh
  const truth = sample.parts[0];
  const { positions, count } = gatherPositions(nodeNamed(sample.doc, truth.name), IDENTITY);
  const fit = fitSpinAxis({ positions, count }, {
    frameAxes: [{ name: "forward", direction: [0, 0, -1] }, { name: "up", direction: [0, 1, 0] }],
  });
  assert(fit.reasons.includes("no triangles: vertices weighed instead of surface area"), fit.reasons.join());
  assert(axisErrorDegrees(fit.axis, truth.axis) < 0.01, `${axisErrorDegrees(fit.axis, truth.axis)}°`);
  assert(distanceToLine(truth.centre, fit.centre, fit.axis) < 1e-4 * truth.radius);
  assertEquals(fit.blades, truth.blades);
});
