/**
 * Dive brakes drawn open (`dive_brakes.ts`): a plate turned out of a skin about its forward edge, that
 * edge sitting in the skin and the plate outside the wing, turns (`slide_blades.ts` reads its inner end
 * on the skin); a glider's blade drawn extended reaches on into the wing and slides. Before, a brake
 * drawn hanging 75–90° under the wing (a Ju 87's, a Dauntless's lower half) was read as a lower blade
 * extended and slid, judged good, and `Sturzflugbremse` named nothing.
 */
import { ok as assert } from "node:assert/strict";
import { judgeDiveBrakes } from "./dive_brakes_tally.ts";
import { countIn } from "./hinge_verdicts.ts";

Deno.test("dive brakes drawn open turn about the edge in the skin; none slides; none wrong in silence", async () => {
  const tally: Record<string, number> = {}, bad: string[] = [];
  for (const { index, description, brake, part, confidence, warned, right } of await judgeDiveBrakes(2, 12)) {
    countIn(tally, !part ? "missed" : part.ctrl_type === "translation" ? "slid" : right ? "right" : "wrong");
    // Wrong only where a warning names it (a plate hanging square to the flow has no flat normal).
    if (!right && (confidence === "good" || !warned)) bad.push(`#${index} ${brake.name} ${description}`);
  }
  assert(bad.length === 0, `${JSON.stringify(tally)}\n${bad.join("\n")}`);
  assert(
    !tally.slid && !tally.missed && tally.right >= 0.8 * (tally.right + (tally.wrong ?? 0)),
    JSON.stringify(tally),
  );
});

Deno.test("a dive brake drawn open hinges on its edge in the skin, judged good, opening out of the skin", async () => {
  // Held apart from the seed above; hanging square to the flow (a Ju 87's at 90°) or leaning 60° (a
  // Dauntless's), the plate's edge on the skin gives the span, the hinge and the sense.
  const tally: Record<string, number> = {}, bad: string[] = [];
  for (const { index, description, brake, part, confidence, warned, right } of await judgeDiveBrakes(5, 12)) {
    // A positive turn opens it: from closed (lying aft of its edge in the skin) its far edge leaves the skin.
    const axis = part?.hinge?.aircraft.axis;
    const out = brake.skin === "upper" ? 1 : -1;
    // A point aft of the edge moves along axis × aft = (0, axis[2], −axis[1]): up by axis[2].
    const opens = axis !== undefined && part?.positive === "open" && out * axis[2] > 0;
    const key = `${right ? "right" : "wrong"} ${confidence} ${warned ? "warned" : "silent"}${
      opens ? "" : " shut"
    }`;
    countIn(tally, key);
    if (!right || !opens || confidence !== "good") bad.push(`#${index} ${brake.name} ${description}: ${key}`);
  }
  assert(bad.length === 0, `${JSON.stringify(tally)}\n${bad.join("\n")}`);
});

Deno.test("a dive brake hung on arms turns about the arms' ends in the skin, weak and warned", async () => {
  // The plate a third of its chord out from the skin on an arm at each end of its span: turned closed,
  // its own forward edge lies off the edge in the skin, so edge and plate disagree.
  const tally: Record<string, number> = {}, bad: string[] = [];
  for (
    const { index, description, brake, confidence, warned, right } of await judgeDiveBrakes(9, 8, {
      arms: true,
    })
  ) {
    const key = `${right ? "right" : "wrong"} ${confidence} ${warned ? "warned" : "silent"}`;
    countIn(tally, key);
    if (!right || confidence === "good" || !warned) {
      bad.push(`#${index} ${brake.name} ${description}: ${key}`);
    }
  }
  assert(bad.length === 0, `${JSON.stringify(tally)}\n${bad.join("\n")}`);
});
