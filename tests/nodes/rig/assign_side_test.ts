/** `rig.assign_side`: geometry side with an absolute and a relative centre band. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { setSourceInfo } from "../../../runtime/scene/source.ts";
import { addPanel, newScene, type PanelSpec } from "./fixtures.ts";
import { AFT, UP } from "./cases.ts";
import { rig, type RigResult } from "./pipeline.ts";

Deno.test("side from geometry: 5 cm centre band in metres, relative band when the unit is unknown", async () => {
  const spoiler = (name: string, x: number): PanelSpec => ({
    name,
    root: [x - 0.3, 0.5, 1],
    tip: [x + 0.3, 0.5, 1],
    aft: AFT,
    normal: UP,
    chordRoot: 0.3,
    chordTip: 0.3,
    thickness: 0.01,
  });
  const build = () => {
    const doc = newScene();
    addPanel(doc, undefined, spoiler("Spoiler", 0.03));
    addPanel(doc, undefined, spoiler("Spoiler.001", 0.08));
    addPanel(doc, undefined, spoiler("Spoiler.002", -0.2));
    // A long fuselage makes the model 10 m long for the relative band.
    addPanel(doc, undefined, {
      ...spoiler("Hull", 0),
      root: [-0.5, 0, -5],
      tip: [0.5, 0, -5],
      chordRoot: 10,
    });
    return doc;
  };
  const sides = (r: RigResult) => Object.fromEntries(r.report.parts.map((p) => [p.panel, p.side]));
  assertEquals(sides(await rig(build())), {
    Spoiler: "centre",
    "Spoiler.001": "right",
    "Spoiler.002": "left",
  });
  const unknownUnit = build();
  setSourceInfo(unknownUnit, { format: "test", forward: "-Z", up: "+Y", metresPerUnit: null });
  // Band = 1 % of 10 m = 0.1: the panel 8 cm off the centre line is now centre.
  assertEquals(sides(await rig(unknownUnit)), {
    Spoiler: "centre",
    "Spoiler.001": "centre",
    "Spoiler.002": "left",
  });
});
