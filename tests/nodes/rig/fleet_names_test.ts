/**
 * Different aircraft each in levels of detail (`Spitfire_Aileron_L_LOD1` beside `Bf109_Aileron_L_LOD1`)
 * and names run together in camel case (`F16AileronLeft`, `Mig29RudderLOD1`, `spitfireElevatorR`), as
 * `fleet_names.ts` makes them: every level of every aircraft is a copy of its own, sided and hinged about
 * its own centre line, right and good.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { findCopies } from "../../../nodes/rig/copies.ts";
import { copyMark, namePrefix } from "../../../nodes/rig/copy_names.ts";
import { matchPanelName, sideFromName } from "../../../nodes/rig/vocabulary.ts";
import { HANGAR_FRAMES, HANGAR_LAYOUTS, judgeHangar } from "./hangar_scenes.ts";
import { FLEET_NAMINGS, fleetSample } from "./fleet_names.ts";

Deno.test("camel-case names: a glued level mark and a glued type are read", () => {
  const isPanelOrSide = (w: string) => !!matchPanelName(w) || !!sideFromName(w);
  assertEquals(copyMark("Mig29RudderLOD1")?.level, 1);
  assertEquals(copyMark("mig29AileronLLOD0")?.level, 0);
  assertEquals(copyMark("RudderLod2")?.level, 2);
  // Glued to a word in lower case it is part of the word, as before.
  assertEquals(copyMark("Clod1"), undefined);
  assertEquals(namePrefix("F16AileronLeft", isPanelOrSide), "f16");
  assertEquals(namePrefix("spitfireElevatorR", isPanelOrSide), "spitfire");
  assertEquals(namePrefix("AileronLeft", isPanelOrSide), undefined);
  assertEquals(namePrefix("LeftAileron", isPanelOrSide), undefined);
});

Deno.test("levels of detail of different aircraft are each a copy of their own aircraft", () => {
  const sample = fleetSample(44, "prefix_lod", "left");
  const copies = findCopies(sample.doc)!;
  const types = new Set(sample.panels.map((p) => p.name.split("_")[0].toLowerCase()));
  assertEquals(copies.length, types.size * 2);
  for (const copy of copies) {
    const names = [...copy.nodes].map((n) => n.getName());
    assertEquals(new Set(names.map((n) => n.split("_")[0])).size, 1, copy.label);
    assertEquals(new Set(names.map((n) => /LOD\d/.exec(n)?.[0])).size, 1, copy.label);
  }
});

Deno.test("fleets named with levels or in camel case: every panel right, on the right side and good", async () => {
  // Before (rig.assign_side v14; held-out seeds 21–22, every naming and layout, both frames): of 600
  // panels 272 wrong (104 judged good) — prefixed levels were read one copy per level, every aircraft in
  // it; camel-case levels (`Mig29RudderLOD1`) were no copies, their type no prefix. Now none.
  const wrong: string[] = [];
  let panels = 0;
  for (const naming of FLEET_NAMINGS) {
    for (const layout of HANGAR_LAYOUTS) {
      for (const frame of HANGAR_FRAMES) {
        const { judged } = await judgeHangar(fleetSample(45, naming, layout), frame);
        panels += judged.length;
        for (const { fault } of judged) if (fault) wrong.push(fault);
      }
    }
  }
  assertEquals(wrong, []);
  assertEquals(panels > 150, true);
});
