/**
 * Fowler flaps (`fowler_flaps.ts`): a flap named `Fowler`, or riding on two or more tracks drawn under
 * it, keeps its turn about its forward edge, and a warning names it: its travel aft along the tracks is
 * not modelled, and how to declare it. Before, such flaps were rigged as plain ones without a word; a
 * light aircraft's plain flap over one short track box and hinge fairings is still no Fowler flap.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { hingeError } from "./coarse_panels.ts";
import { type FlapFamily, fowlerAircraft } from "./fowler_flaps.ts";
import { rig } from "./pipeline.ts";

Deno.test("Fowler flaps turn about their forward edge and are named as running aft unmodelled", async () => {
  const seen: Record<string, number> = {};
  for (const [family, seed] of [["airliner", 3], ["bizjet", 4], ["plain", 5]] as [FlapFamily, number][]) {
    const next = prng(seed);
    for (let i = 0; i < 8; i++) {
      const sample = fowlerAircraft(next, i, family);
      const { report, ctx } = await rig(sample.scene);
      for (const flap of sample.flaps) {
        const part = report.parts.find((p) => p.panel === flap.name)!;
        const { degrees, offset } = hingeError(flap.truth, part.hinge!.aircraft);
        assert(degrees <= 2 && offset <= 0.05 * flap.truth.chord, `${flap.name}: ${degrees}°, ${offset}`);
        assertEquals([part.kind, part.ctrl_type], ["flap", "rotation"]);
        const warning = ctx.warnings.find((w) =>
          w.message.includes(`'${flap.name}'`) && /Fowler/.test(w.message)
        );
        const why = (part.fit as unknown as { rule_why?: string }).rule_why ?? "";
        // What shows a Fowler flap: its name, or two tracks or more the rig can read under it.
        const shown = flap.fowler &&
          (flap.named || flap.tracks === "objects" || flap.tracks === "one_object");
        const key = `${family} ${shown ? "shown" : "not shown"} ${warning ? "warned" : "silent"}`;
        seen[key] = (seen[key] ?? 0) + 1;
        if (!shown) {
          assert(!warning, `${sample.description} ${flap.name}: ${warning?.message}`);
          continue;
        }
        assert(warning, `${sample.description} ${flap.name}: not warned`);
        assert(
          /travel aft is not modelled/.test(warning.message) &&
            /ctrl_type: translation/.test(warning.message),
        );
        assert(/Fowler/.test(why), `${flap.name}: ${why}`);
        // Tracks drawn and read: the report says which, and the way they run aft (scene +Z is aft).
        const fowler =
          (part.fit as unknown as { fowler?: { tracks: string[]; along_world?: number[] } }).fowler;
        if (flap.tracks === "objects" || flap.tracks === "one_object") {
          assert(
            fowler && fowler.tracks.length > 0 && fowler.along_world,
            `${flap.name}: ${JSON.stringify(fowler)}`,
          );
          assert(fowler.along_world[2] > 0.95, `${flap.name}: tracks run ${fowler.along_world}`);
        }
      }
    }
  }
  assert(seen["airliner shown warned"] > 0 && seen["bizjet shown warned"] > 0, JSON.stringify(seen));
  assert(seen["plain not shown silent"] > 0, JSON.stringify(seen));
});
