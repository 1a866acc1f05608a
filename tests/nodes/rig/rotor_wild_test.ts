/**
 * Spinning parts no name calls a rotor (`rotor_wild.ts`): blades exported one object each with only a
 * blade word (`Blade_1`…, `blade.001`…, `Blade1_Material_0`, `PropellerBlade1`), no hub — a nose or
 * pusher propeller, a twin's two wing propellers numbered on, a helicopter's main and tail rotors, at
 * the root or under an unnamed empty — each found as its own rotor, shaft within 2° and on its hub,
 * the right kind, holding its blades and no other rotor's; blade antennas in a row left still. Discs
 * drawn beside the blades off their shaft: never good, the disc named. Two rotors joined in one object:
 * split into two parts, each on its own disc, where its pieces fall apart at the plane between the
 * discs; left whole, weak and said, where one hub runs through both. A development seed and a held-out
 * one.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { rig } from "./pipeline.ts";
import { judgeZoo, spinningNames } from "./rotor_zoo.ts";
import { WILD_FAMILIES, wildCase } from "./rotor_wild.ts";
import { HELD_OUT } from "../../support/heldout.ts";

async function measure(seed: number, count: number) {
  const next = prng(seed);
  const wrong: string[] = [], good: string[] = [], notGood: string[] = [], silentDiscs: string[] = [];
  let parts = 0;
  for (let i = 0; i < count; i++) {
    const sample = wildCase(next, i);
    const result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
    for (const truth of sample.parts) {
      parts++;
      const j = judgeZoo(result, truth);
      const label = `${sample.description} ${truth.name} [${j.confidence}]`;
      if (j.problems.length) wrong.push(`${label}: ${j.problems.join(", ")}`);
      else (j.confidence === "good" ? good : notGood).push(label);
    }
    if (sample.joined) {
      // Split into two parts exactly where the pieces fall apart at the plane between the discs.
      const split = result.report.parts.some((p) =>
        (p.panel ?? p.name).startsWith(`${sample.joined!.name}_`)
      );
      if (split !== sample.joined.separable) {
        wrong.push(`${sample.description}: ${split ? "split" : "left whole"}`);
      }
    }
    const spun = spinningNames(result);
    wrong.push(
      ...sample.still.filter((s) => spun.includes(s)).map((s) => `${sample.description}: ${s} rigged`),
    );
    for (const { part, disc } of sample.offDisc) {
      const found = result.report.parts.find((p) => (p.panel ?? p.name) === part);
      const fit = found?.fit as { confidence?: string; reasons?: string[] } | null | undefined;
      if (fit?.confidence === "good" || !fit?.reasons?.some((r) => r.includes(`'${disc}'`))) {
        silentDiscs.push(`${sample.description} [${fit?.confidence}]`);
      }
    }
  }
  return { parts, wrong, good, notGood, silentDiscs };
}

// The development seed runs in the suite; the held-out one, a measure on other aircraft, under
// `deno task heldout`.
for (const [seed, count, role] of [[1, 50, "development"], [29, 75, "held-out"]] as const) {
  Deno.test({
    name:
      `loose blades and off-shaft discs (${role} seed ${seed}, ${count} aircraft): every ring a rotor, antennas still, discs said, joined pairs split`,
    ignore: role === "held-out" && !HELD_OUT,
  }, async () => {
    const { parts, wrong, good, notGood, silentDiscs } = await measure(seed, count);
    console.log(
      `   ${parts} parts: ${good.length} right and good, ${notGood.length} right and not good, ${wrong.length} wrong`,
    );
    assertEquals(wrong, []);
    assertEquals(silentDiscs, []);
    // Not good only where a disc is drawn off the shaft (said above) or two rotors joined cannot be
    // cut apart (judgeZoo checks it is said); loose blades and split pairs are good.
    assertEquals(notGood.filter((l) => !/disc_off_shaft|one hub through both/.test(l)), []);
    for (const family of WILD_FAMILIES.filter((f) => f !== "disc_off_shaft")) {
      assert(good.some((l) => l.includes(` ${family}: `)), family);
    }
  });
}
