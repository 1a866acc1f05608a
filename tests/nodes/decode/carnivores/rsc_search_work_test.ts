/**
 * The `.rsc` texture-size search (`rsc_texture_fix.ts`) on areas as map makers leave them
 * (`rsc_areas.ts`), and its work on a cut file, counted (not timed): it searches only where the chain
 * of objects breaks (or the last objects reached), so refusing a 200-object area cut short reads fewer
 * objects than parsing it whole does. Before, it tried every row of every object (400,730 positions)
 * and its walks read 600,000 objects (its budget, twice), about 20 to 50 times a whole parse; and on
 * held-out seeds 501-560 it refused 11 of 60 areas with one wrong texture size field and 11 of 60 with
 * an animation's frame count off (the budget spent on walks through transparent billboards), now none.
 */
import assert from "node:assert/strict";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { parseRsc } from "../../../../nodes/decode/carnivores/codec/parse_rsc.ts";
import { type RscMisfit, walkRsc } from "../../../../nodes/decode/carnivores/codec/rsc_layout.ts";
import { fittingObjectTexture } from "../../../../nodes/decode/carnivores/codec/rsc_texture_fix.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { boxModel, rscArea } from "./fixtures.ts";
import { RSC_HABITS, rscCase, rscOutcome } from "./rsc_areas.ts";

Deno.test("rsc search work: a 200-object area cut short is refused reading fewer objects than a parse", () => {
  // The bench's area (tests/bench/carnivores_bench.ts).
  const objects = Array.from({ length: 200 }, (_, i) => ({ model: boxModel(3 + (i % 5), 0x1234) }));
  const whole = encodeRsc({ ...rscArea("c2"), objects });
  const cut = whole.subarray(0, whole.length - 1000);
  const rows = 2049; // every whole number of rows from 0 to 2048, for one object
  let positions = 0, objectsRead = 0;
  for (const version of ["c1", "c2"] as const) {
    const misfit = walkRsc(cut, version) as RscMisfit;
    assert.ok(!("objects" in misfit), `${version} does not fit`);
    const { kind, work } = fittingObjectTexture(cut, version, misfit);
    assert.equal(kind, "none");
    positions += work.positions, objectsRead += work.objectsRead;
  }
  // A parse walks the 200 objects; the search, at most three objects' rows and a look per object.
  assert.ok(objectsRead <= objects.length, `${objectsRead} objects read`);
  assert.ok(positions <= 2 * (3 * rows + objects.length), `${positions} positions looked at`);
  // The refusal says as much as before: where each layout stopped fitting, expected and found.
  let message = "";
  try {
    parseRsc(cut, "area.rsc", "auto", () => {});
  } catch (error) {
    assert.ok(error instanceof DecodeError);
    message = error.message;
  }
  assert.match(
    message,
    /C2 layout at byte \d+: expected 409600 bytes of 3 sky texture\(s\) and the cloud map, found \d+ bytes left/,
  );
});

for (const habit of RSC_HABITS) {
  Deno.test(`rsc search: ${habit} areas (held-out seeds 501-530) read right`, () => {
    const wrong: string[] = [];
    for (let seed = 501; seed <= 530; seed++) {
      const { outcome, detail } = rscOutcome(rscCase(habit, seed));
      if (outcome !== "right") wrong.push(`seed ${seed}: ${outcome} ${detail.slice(0, 160)}`);
    }
    assert.deepEqual(wrong, []);
  });
}
