/**
 * Surface names as exporters, modellers in their own language and abbreviating hands write them
 * (`wild_names.ts`): read by name alone, rigged whole on an aircraft whose fixed parts carry a
 * modelling tool's placeholder names, and never found in scenes that are no aircraft.
 *
 * Before (rig.detect_panels v20, rig.assign_side v20; 200 names a family a seed, 6 aircraft a family a
 * seed; held-out seeds 7–9, the fixes made on 1–4): by name, exporter 39–47 of 200 wrong (a glued `LLOD`
 * hid the side, `pCube10_splR` missed), language 119–123 (`zakrylok`, `rul_vysoty`, `eruron` missed;
 * `aileron_droit`, `Querruder_li` no side), abbreviation 118–120 (`spl`, `slt`, `ailrn`, `elvtr`,
 * `rddr`, `lflap`, `LAIL` missed); no name read as the wrong kind. Whole aircraft: exporter 0–5,
 * language 11–18, abbreviation 14–28 of 30 panels not rigged (none judged good); 26 of 54 decoys
 * rigged as panels (`Volet_G` shutters, `Mud_Flap_L`, `Bed_Slat_01`, `Elevator_Shaft`). After: 0 misread
 * but `RAIL`'s side (the geometry's; it names none), 0 of 90 panels wrong, 0 false panels.
 *
 * The `tool` family (3ds Max, Maya, MSFS, FS, X-Plane, DCS, Arma, JSBSim; rig.detect_panels v26): before,
 * held-out seeds 7–9, 21, 16, 32 of 200 names misread, every one a side lost to FS's `c_` control prefix
 * (`c_aileron_left` read as centre and left, so no side); 0 of 20 panels a seed rigged wrong (the
 * geometry gave the side). After: 0 misread, 0 wrong.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Node } from "@gltf-transform/core";
import { matchPanelName, partneredWords, sideFromName, tokenize } from "../../../nodes/rig/vocabulary.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import { runNode, testContext } from "../../support/context.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { boxMesh } from "./surface_classes.ts";
import { WILD_FAMILIES } from "./wild_names.ts";
import { judgeAircraft, judgeDecoys, judgeNames, wildNames } from "./wild_names_judge.ts";
import { judgeWrapped, type Wrapping } from "./wrapped_names.ts";

/** Held out: the fixes were made on seeds 1–3. */
const SEED = 7;

Deno.test("a side letter glued to a level mark or to an abbreviation is read", () => {
  assertEquals(tokenize("AileronLLOD1"), ["aileron", "l", "lod"]);
  assertEquals(tokenize("ElevRLOD0"), ["elev", "r", "lod"]);
  assertEquals(tokenize("RUDLOD1"), ["rud", "lod"]);
  assertEquals(tokenize("lflap"), ["l", "flap"]);
  assertEquals(sideFromName("Rudder_LLOD2"), "left");
  assertEquals(sideFromName("LAIL"), "left");
  assertEquals(sideFromName("aileronlft"), "left");
  assertEquals(sideFromName("Rddr_RGT"), "right");
  // Ordinary words stay words: no right aileron in a rail, nothing in `Clod1`.
  for (const word of ["rail", "RAIL", "Guard_Rail", "trail", "detail", "flipper", "Clod1", "Rudimentary"]) {
    assertEquals(matchPanelName(word), undefined, word);
  }
});

Deno.test("tools' words: FS's `c_` prefix is no centre, `ailevon` is an elevon, `TEF` a flap", () => {
  assertEquals(sideFromName("c_aileron_left"), "left");
  assertEquals(sideFromName("c_flap_right_inner"), "right");
  assertEquals(sideFromName("c_elevator"), undefined);
  assertEquals(sideFromName("Rudder_C"), "centre");
  assertEquals(sideFromName("Rudder C"), "centre");
  assertEquals(matchPanelName("ailevon L")?.kind, "elevon");
  assertEquals(sideFromName("ailevon L"), "left");
  assertEquals(matchPanelName("TEF_R")?.kind, "flap");
  assertEquals(matchPanelName("l_aileron_percent_key_AN_Cover_65")?.kind, "aileron");
  assertEquals(matchPanelName("|group1|aileron_L")?.kind, "aileron");
});

Deno.test("`RAIL` is a right aileron only beside `LAIL`", () => {
  assertEquals(matchPanelName("RAIL", partneredWords(["LAIL", "RAIL", "LELEV"]))?.kind, "aileron");
  assertEquals(matchPanelName("rail", partneredWords(["lail.001", "rail.001"]))?.kind, "aileron");
  assertEquals([...partneredWords(["Guard_Rail", "RAIL_STBD", "Handrail", "LH_Rail"])], []);
  assertEquals(matchPanelName("Guard_Rail", partneredWords(["Guard_Rail", "Rail_L"])), undefined);
});

Deno.test("short side words count beside a surface word of their language only", () => {
  assertEquals(sideFromName("Querruder_li"), "left");
  assertEquals(sideFromName("Aileron droit"), "right");
  assertEquals(sideFromName("Elevador_Der"), "right");
  assertEquals(sideFromName("FuYi_you"), "right");
  assertEquals(sideFromName("Bec_de_bord_d_attaque_G"), "left");
  assertEquals(sideFromName("Door_re"), undefined);
  assertEquals(sideFromName("Thank_you"), undefined);
});

for (const family of WILD_FAMILIES) {
  Deno.test(`${family} names are read by name: kind and side`, async () => {
    const faults = await judgeNames(wildNames(SEED, family, 200));
    // Left: `RAIL` states no side by its name (it is found beside `LAIL`; its side is the geometry's).
    assertEquals(faults.filter((f) => !/'r(ail|AIL)'|'RAIL'/.test(f)), []);
    assertEquals(faults.length <= 4, true, faults.join("\n"));
  });
}

Deno.test("aircraft named in every family rig every panel right and good", async () => {
  let panels = 0, wrongGood = 0;
  const wrong: string[] = [];
  for (const family of WILD_FAMILIES) {
    for (let k = 0; k < 4; k++) {
      const judged = await judgeAircraft(SEED * 100 + k, family);
      panels += judged.panels;
      wrong.push(...judged.wrong);
      wrongGood += judged.wrongGood;
    }
  }
  assertEquals(panels, 80);
  // No panel missed, of the wrong kind or side, or weak: glued sides (`aill`, `elvr`) were read as one
  // `|left` and one `|right` name for every surface, so as several aircraft, and all judged weak.
  assertEquals(wrong, []);
  assertEquals(wrongGood, 0);
});

Deno.test("scenes that are no aircraft hold no panel: shutters, mud flaps, rails, a lift", async () => {
  assertEquals(await judgeDecoys(SEED), []);
});

Deno.test("a shutter or a tab alone is no panel, and is named; beside a wing or a surface it is one", async () => {
  const found = async (names: string[]) => {
    const doc = newScene();
    names.forEach((name, i) => {
      const { positions, triangles } = boxMesh([i * 3, 0, 1], [i * 3 + 1, 0.1, 3]);
      addAircraftMesh(doc, name, positions, triangles);
    });
    const ctx = testContext();
    const out = (await runNode(rigDetectPanels, { scene: doc }, {}, ctx)).scene;
    const kinds = out.getRoot().listNodes().flatMap((n: Node) =>
      getPart(n) ? [`${n.getName()}:${getPart(n)!.kind}`] : []
    );
    return { kinds, warned: ctx.warnings.some((w) => /'Volet_G'.*shutter/.test(JSON.stringify(w))) };
  };
  assertEquals(await found(["Volet_G", "Volet_D", "Mur", "Toit"]), { kinds: [], warned: true });
  assertEquals((await found(["Volet_G", "Aile_G", "Fuselage"])).kinds, ["Volet_G:flap"]);
  assertEquals((await found(["Volet_G", "Aileron_G"])).kinds, ["Volet_G:flap", "Aileron_G:aileron"]);
  assertEquals((await found(["Tab_1", "Drawer"])).kinds, []);
  assertEquals((await found(["Elevator_Tab"])).kinds, ["Elevator_Tab:trim_tab"]);
});

Deno.test("aircraft wrapped by Sketchfab's re-export or kept under Maya's paths rig every panel right and good", async () => {
  const wrong: string[] = [];
  let wrongGood = 0;
  for (const wrapping of ["sketchfab", "maya"] as Wrapping[]) {
    for (let k = 0; k < 2; k++) {
      const judged = await judgeWrapped(SEED * 100 + k, wrapping);
      wrong.push(...judged.wrong);
      wrongGood += judged.wrongGood;
    }
  }
  assertEquals(wrong, []);
  assertEquals(wrongGood, 0);
});
