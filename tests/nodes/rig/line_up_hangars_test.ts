/**
 * Showcase line-ups (`hangar_scenes.ts` LINE_UP): different aircraft parked wing over wing, noses in
 * one line, the row centred on the scene's origin, their names unable to tell whose an object is
 * (`copy_untold.ts`). About the scene's one centre line the left aircraft's right aileron mirrors onto
 * the right aircraft's left one: `rig.fit_hinge` compared them as mirror partners — "disagreeing"
 * 13–19°, both weak for it, and where one was better supported its hinge would have been mirrored onto
 * the other aircraft's panel. Before `rig.fit_hinge` v47: dev seeds 1–4, 88 of 564 panels compared
 * with another aircraft's; held-out seeds 11–14, 64 of 612 (21–30: 160 of 1,356). Now such panels take
 * no partner (0) and every hinge stays right. A panel only one aircraft has (the only rudder, the other
 * type's fin drawn whole) was sided about the row's centre, "right", judged good and unnamed (seeds 21–30:
 * 6 of 1,356; dev seed 2 found it); now every panel of such a scene is named in the "cannot tell" warning
 * and weak (copy_untold.ts).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { HELD_OUT } from "../../support/heldout.ts";
import {
  HANGAR_FRAMES,
  HANGAR_NAMINGS,
  hangarPart,
  hangarSample,
  judgeHangar,
  LINE_UP,
} from "./hangar_scenes.ts";

const UNTOLD = /^cannot tell these aircraft apart/;

// The development seeds (the ones that found both faults) run in the suite; the held-out ones, a measure
// on other line-ups, under `deno task heldout`.
for (const [seeds, role] of [[[1, 2], "development"], [[11, 12], "held-out"]] as const) {
  Deno.test({
    name: `line-ups of aircraft told by no name (${role} seeds ${
      seeds.join(", ")
    }): no mirror partner across aircraft, hinges right`,
    ignore: role === "held-out" && !HELD_OUT,
  }, async () => {
    const across: string[] = [], silent: string[] = [];
    let panels = 0;
    for (const seed of seeds) {
      for (const naming of HANGAR_NAMINGS) {
        for (const frame of HANGAR_FRAMES) {
          const sample = hangarSample(seed, naming, LINE_UP);
          const { judged, warnings, report } = await judgeHangar(sample, frame);
          const named = new Set(
            (warnings.find((w) => UNTOLD.test(w.message))?.detail?.panels ?? []) as string[],
          );
          panels += judged.length;
          for (const { panel, fault } of judged) if (fault && !named.has(panel.name)) silent.push(fault);
          // Each aircraft's own left and right are exact mirror images: any disagreement with a partner,
          // or a hinge taken from one, is another aircraft's (in the run judged above).
          for (const panel of sample.panels) {
            const reasons = JSON.stringify(hangarPart(report.parts, panel)?.fit ?? {});
            if (/mirror partner|mirrored from/.test(reasons)) {
              across.push(`${sample.description}: ${panel.name}`);
            }
          }
        }
      }
    }
    console.log(
      `   ${panels} panels: ${across.length} compared across aircraft, ${silent.length} wrong and unnamed`,
    );
    console.log(silent.join("\n"));
    assertEquals(across, []);
    assertEquals(silent, []);
    assertEquals(panels > 200, true);
  });
}
