/**
 * Panels several of which are called alike (rig.insert_pivot v7, rig.report v10, rig.parts v11): a
 * SketchUp model's `Component#n` instances of one definition (`Aileron`), nodes a tool named alike
 * (both ailerons `Aileron`), unnamed nodes of one mesh. Each pivot says the side the rig gave its panel
 * (`HINGE_auto_Aileron_L`, `…_R`, `HINGE_auto_Flap_L_1` for a second left flap); before, none did
 * (`HINGE_auto_Aileron`, `HINGE_auto_Aileron_1`: 96 of 96 sided pivots on 12 generated aircraft, seed
 * 9201, and 16 pivots in the scene sharing a name). Written back without extras, the pivots find their
 * panels again. A report made before `rig.insert_pivot` names each fitted panel (was `panel: null`).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { sideFromName } from "../../../nodes/rig/vocabulary.ts";
import { rigParts } from "../../../nodes/rig/parts.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigAssignSide } from "../../../nodes/rig/assign_side.ts";
import { rigReport } from "../../../nodes/rig/report.ts";
import { runNode, testContext } from "../../support/context.ts";
import { prng } from "../../support/prng.ts";
import { pivotNames, rig, withoutExtras } from "./pipeline.ts";
import { type ClassSample, classScene } from "./surface_classes.ts";
import { airlinerWing } from "./segmented_wings.ts";
import { posedAircraft } from "./posed_aircraft.ts";

/** How a tool names panels alike. */
type Style = "component" | "same" | "unnamed";

/** A panel's name without the side it states (`Flap_Inboard_L` → `Flap_Inboard`, `FlapR2` → `Flap2`). */
const unsided = (name: string) => name.replace(/[_.]?(L|R|Left|Right)(?=\d*$)/, "").replace(/_$/, "");

/** The sample's scene, its panels named alike in `style`. */
function alikeScene(sample: ClassSample, style: Style): Document {
  const doc = classScene(sample);
  let k = 3;
  for (const node of doc.getRoot().listNodes()) {
    const panel = sample.panels.find((p) => p.name === node.getName());
    if (!panel) continue;
    const called = unsided(panel.name);
    if (style === "same") node.setName(called);
    else {
      node.setName(style === "component" ? `Component#${k++}` : "");
      node.getMesh()!.setName(called);
    }
  }
  return doc;
}

Deno.test("panels called alike: every pivot says its side, names unique, found again without extras", async () => {
  const next = prng(9202);
  const tally = { sided: 0, sayNoSide: 0, sayWrongSide: 0, sharedNames: 0, lostOnRoundTrip: 0, nested: 0 };
  const styles: Style[] = ["component", "same", "unnamed"];
  for (let i = 0; i < 6; i++) {
    const sample = i % 2 ? airlinerWing(next, i) : posedAircraft(next, i);
    const { report, scene } = await rig(alikeScene(sample, styles[i % 3]));
    const names = pivotNames(scene).names.filter((n) => !/_(rest|unscale|rescale)$/.test(n));
    tally.sharedNames += names.length - new Set(names).size;
    for (const part of report.parts) {
      if (part.side !== "left" && part.side !== "right") continue;
      tally.sided++;
      const said = sideFromName(part.name.replace(/^HINGE_auto_/, ""));
      if (!said) tally.sayNoSide++;
      else if (said !== part.side) tally.sayWrongSide++;
    }
    const again = await rig(await withoutExtras(scene));
    const [before, after] = [pivotNames(scene), pivotNames(again.scene)];
    tally.lostOnRoundTrip += before.names.filter((n) => !after.names.includes(n)).length +
      after.names.length - before.names.length;
    tally.nested += after.nested;
    assertEquals(
      again.report.parts.map((p) => [p.name, p.side]).sort(),
      report.parts.map((p) => [p.name, p.side]).sort(),
    );
  }
  assert(tally.sided >= 40, JSON.stringify(tally));
  assertEquals(tally, {
    ...tally,
    sayNoSide: 0,
    sayWrongSide: 0,
    sharedNames: 0,
    lostOnRoundTrip: 0,
    nested: 0,
  });
});

Deno.test("a report made before rig.insert_pivot names each fitted panel, its path and what named it", async () => {
  const sample = posedAircraft(prng(9203), 1);
  const ctx = testContext();
  let scene = classScene(sample);
  for (const node of [rigParts, rigDetectPanels, rigFitHinge, rigAssignSide]) {
    scene = (await runNode(node, { scene }, {}, ctx)).scene;
  }
  const { report } = await runNode(rigReport, { scene }, {}, ctx);
  const parts = report.parts as unknown as {
    name: string;
    panel: string | null;
    panel_path: string | null;
    panel_named_by: string | null;
    hinge: unknown;
  }[];
  assertEquals(
    parts.map((p) => [p.panel, p.panel_path, p.panel_named_by, p.hinge !== null]),
    parts.map((p) => [p.name, p.name, "node", true]),
  );
  assertEquals(parts.map((p) => p.name).sort(), sample.panels.map((p) => p.name).sort());
});
