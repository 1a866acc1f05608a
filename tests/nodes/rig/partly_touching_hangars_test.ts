/**
 * Hangars where only some aircraft touch (`hangar_scenes.ts` PARTLY_TOUCHING: a touching pair among
 * aircraft parked clear, a pair and one apart, two pairs apart). Place cannot tell the touching aircraft
 * apart, but it can tell each group from the others: the aircraft standing clear are rigged about their
 * own centre lines and judged on their geometry; only the touching group is warned of, by its panels,
 * and weak. A wrong panel judged good is never allowed.
 *
 * Before (rig.assign_side v23): where names cannot tell whose an object is (the same names in no order,
 * each aircraft spelling its sides its own way), a touching pair made place tell nothing at all: one
 * centre line for the whole scene, or copies by the names' order, every panel named and weak. Dev seeds
 * 1–2 (1,068 panels, 216 of aircraft standing clear): clear panels wrong 28, right but weak 44, wrong
 * side 124 in all; held-out seeds 101–102 (1,104 panels, 216 clear): clear wrong 20, right but weak 16,
 * wrong side 100. Wrong and judged good 0 before. After: clear panels wrong 0 and weak 0 on both; wrong
 * side 100 and 72, all in touching groups, named and weak; wrong and good 0. Held-out seeds 103–106
 * (2,556 panels, 756 clear): clear wrong 86 -> 0, right but weak 146 -> 0, wrong side 346 -> 224, and
 * wrong yet judged good 22 -> 0 (a touching pair's only rudder sided about the whole scene's centre,
 * unnamed: 10 -> 0).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { HANGAR_FRAMES, HANGAR_NAMINGS, hangarPart, hangarSample, PARTLY_TOUCHING } from "./hangar_scenes.ts";
import { panelFault } from "./showcase_copies.ts";
import { hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";
import { newScene } from "./fixtures.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { piecesAircraft } from "./surface_pieces.ts";
import { HELD_OUT } from "../../support/heldout.ts";

const UNTOLD = /^cannot tell these aircraft apart/;

/** True when an aircraft touching another has a panel of `panel`'s name (the warning names it then). */
function sharesName(sample: ReturnType<typeof hangarSample>, panel: { name: string; copy: number }) {
  return sample.panels.some((p) => p.name === panel.name && sample.touching!.has(p.copy));
}

/** Tallies over `seeds`, every naming, layout and frame. */
export async function tallyPartlyTouching(seeds: readonly number[]) {
  const tally = {
    panels: 0,
    clear: 0,
    clearWrong: 0,
    clearWeak: 0,
    clearNamed: 0,
    wrongSide: 0,
    wrongGood: 0,
    touchingUnnamed: 0,
  };
  const wrongGood: string[] = [];
  for (const seed of seeds) {
    for (const naming of HANGAR_NAMINGS) {
      for (const layout of PARTLY_TOUCHING) {
        for (const frame of HANGAR_FRAMES) {
          const sample = hangarSample(seed, naming, layout);
          const { report, ctx } = await rig(sample.doc, frame);
          const warning = ctx.warnings.find((w) => UNTOLD.test(w.message));
          const named = new Set((warning?.detail?.panels ?? []) as string[]);
          const label = `${sample.description}, ${"forward" in frame ? "auto" : "given"} frame`;
          for (const panel of sample.panels) {
            const part = hangarPart(report.parts, panel);
            const confidence = (part?.fit as { confidence?: string } | undefined)?.confidence;
            const fault = panelFault(label, panel, part);
            tally.panels++;
            if (part?.side !== panel.side) tally.wrongSide++;
            // Wrong in side or hinge, yet judged good.
            if (fault && confidence === "good") {
              tally.wrongGood++;
              wrongGood.push(fault);
            }
            const error = part?.hinge && hingeError(panel.truth!, part.hinge.aircraft);
            const right = part?.side === panel.side && !!error && error.degrees <= 2 &&
              error.offset <= 0.05 * panel.truth!.chord;
            if (sample.touching!.has(panel.copy)) {
              if (!right && !named.has(panel.name)) tally.touchingUnnamed++;
            } else {
              tally.clear++;
              if (!right) tally.clearWrong++;
              if (named.has(panel.name) && !sharesName(sample, panel)) tally.clearNamed++;
              // Right, yet judged weak: penalised for aircraft it does not touch.
              if (right && confidence !== "good") tally.clearWeak++;
            }
          }
        }
      }
    }
  }
  return { tally, wrongGood };
}

// The development seed runs in the suite; the held-out one (the same checks on other aircraft, a measure
// rather than a guard: seed 1 alone fails before rig.assign_side v25) under `deno task heldout`.
for (const [seeds, role] of [[[1], "development"], [[101], "held-out"]] as const) {
  Deno.test({
    name: `partly touching hangars (${role} seed ${
      seeds.join(", ")
    }): aircraft standing clear rigged right and good, only the touching group warned`,
    ignore: role === "held-out" && !HELD_OUT,
  }, async () => {
    const { tally, wrongGood } = await tallyPartlyTouching(seeds);
    console.log(`   ${JSON.stringify(tally)}`);
    assertEquals(wrongGood, []);
    assertEquals(
      [tally.clearWrong, tally.clearWeak, tally.clearNamed, tally.touchingUnnamed],
      [0, 0, 0, 0],
    );
    // Enough clear aircraft; since rig.assign_side v25 the touching ones are told apart by shape
    // (copy_touching.ts, touching_aircraft_test.ts): none on the wrong side.
    assertEquals([tally.clear > 50, tally.wrongSide], [true, 0]);
  });
}

Deno.test("an aircraft duplicated where it stands, beside another keeping its names: not warned, every panel right and good", async () => {
  // Each name's objects drawn over each other are copies at one place, not aircraft touching: read by
  // the names' order as before (the first cut of the per-group judgement warned and weakened all 10).
  for (const seed of [8, 9]) {
    const doc = newScene();
    const here = piecesAircraft(seed), clear = piecesAircraft(seed + 50);
    for (const [aircraft, across, times] of [[here, 0, 2], [clear, 25, 1]] as const) {
      for (let t = 0; t < times; t++) {
        for (const { name, mesh } of [...aircraft.fixed, ...aircraft.panels]) {
          addAircraftMesh(doc, name, mesh.positions, mesh.triangles).setTranslation([-across, 0, 0]);
        }
      }
    }
    const { report, ctx } = await rig(doc);
    assertEquals(ctx.warnings.filter((w) => UNTOLD.test(w.message)), []);
    const truth = new Map(here.panels.map((p) => [p.name, p.side]));
    const parts = report.parts.filter((p) => truth.has(p.panel!));
    assertEquals(parts.length, 3 * here.panels.length);
    for (const part of parts) {
      assertEquals([part.side, (part.fit as { confidence?: string }).confidence], [
        truth.get(part.panel!),
        "good",
      ]);
    }
  }
});

// `deno run … partly_touching_hangars_test.ts 101 102` prints the tallies for any seeds.
if (import.meta.main) {
  const seeds = Deno.args.map(Number);
  const { tally, wrongGood } = await tallyPartlyTouching(seeds);
  console.log(JSON.stringify(tally));
  console.log(wrongGood.join("\n"));
}
