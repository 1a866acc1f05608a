/**
 * Names of linkages read with the file's words (`nodes/rig/vocabulary_linkages.ts`, `linkage_names.ts`):
 * a control horn drawn as a child node named as one (`ElevatorHorn`, `Horn.001`, `Ruderhorn`,
 * `guignol`) corroborates a shape that alone could be a dropped hinge's bracket (a horn hanging below),
 * so its surface's right hinge is judged good (rig.fit_hinge v73; held-out `linkage_habits.ts` seeds
 * 5000–5299, horns at two places right but weak 101 of 160 -> 55); a name never overrides a shape, and
 * where they disagree a warning names the part. Seeds here 6100–6219 (developed on 0–59).
 *
 * @module
 */
import assert from "node:assert";
import { linkageWord } from "../../../nodes/rig/vocabulary_linkages.ts";
import { linkageSample } from "./linkage_habits.ts";
import { rig } from "./pipeline.ts";

Deno.test("linkage names are read in the file's words", () => {
  const read = (names: string[]) => names.map((n) => linkageWord(n) ?? "-").join(" ");
  assert.strictEqual(
    read(["Pushrod_L", "ElevatorHorn", "ctrl_rod", "Anlenkung", "tringlerie", "Horn.001", "guignol"]),
    "rod horn rod rod rod horn horn",
  );
  assert.strictEqual(
    read(["HingeBracket", "Hinge_Fairing", "FlapTrack", "charnière", "Cube.004", "HornBracket", "Aileron_L"]),
    "bracket bracket bracket bracket - - -",
  );
  // A horn balance is the surface's own, ahead of its hinge at the tip: no control horn.
  assert.strictEqual(
    read(["Rudder_HornBalance", "Aileron_HornBal", "horn-balance.001", "Horn_Ausgleich", "RudderHorn"]),
    "- - - - horn",
  );
});

/** The names of a panel's child nodes in a generated scene. */
function childNames(doc: ReturnType<typeof linkageSample>["doc"], panel: string): string[] {
  const node = doc.getRoot().listNodes().find((n) => n.getName() === panel);
  return node ? node.listChildren().map((c) => c.getName()) : [];
}

Deno.test("horns named as horns are horns: their surfaces judged good", async () => {
  let named = 0, weak = 0;
  for (let seed = 6100; seed <= 6219; seed += 5) {
    const sample = linkageSample(seed, "two_horns");
    const { report } = await rig(sample.doc);
    for (const truth of sample.truths) {
      const children = childNames(sample.doc, truth.name);
      if (children.length === 0 || !children.every((c) => linkageWord(c) === "horn")) continue;
      named++;
      const part = report.parts.find((p) => p.panel === truth.name);
      if ((part?.fit as { confidence?: string } | undefined)?.confidence !== "good") weak++;
    }
  }
  // Before names were read, 62 % of these were weak (horns hanging below alone).
  assert(named >= 10 && weak <= named / 10, `${weak} of ${named} named horns' surfaces not good`);
});

Deno.test("a name never overrides a shape: horns named brackets are horns above, with a warning; kept below", async () => {
  let above = 0, aboveGood = 0, aboveWarned = 0, below = 0, belowGood = 0;
  for (let seed = 6100; seed <= 6159; seed += 5) {
    for (const side of [-1, 1] as const) {
      const sample = linkageSample(seed, "two_horns", { side, names: ["HingeBracket", "Hinge_Fairing.001"] });
      const { report, ctx } = await rig(sample.doc);
      for (const truth of sample.truths) {
        const part = report.parts.find((p) => p.panel === truth.name);
        const good = (part?.fit as { confidence?: string } | undefined)?.confidence === "good";
        const warned = ctx.warnings.some((w) =>
          w.message.includes(`panel '${truth.name}': 'Hinge`) && w.message.includes("is named a bracket")
        );
        if (side === -1) above++, aboveGood += +good, aboveWarned += +warned;
        else below++, belowGood += +good;
      }
    }
  }
  // Standing above, the shape says horn: left out (good) and the name's disagreement warned of.
  assert(aboveGood >= above * 0.9 && aboveWarned >= above * 0.9, `${aboveGood}/${aboveWarned} of ${above}`);
  // Hanging below, shape and name both say bracket: kept, and the fit is weak.
  assert(belowGood <= below * 0.1, `${belowGood} of ${below} good`);
});
