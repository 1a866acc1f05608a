/**
 * Turn limits typed in degrees where Freelancer stores radians (`mod_tools_wave3.ts`, `degree_limits`):
 * kept as the game reads them, and named, the turret hardpoint and the joint's part each. The seeds are
 * not those the decoder was measured on (1–20).
 */
import assert from "node:assert/strict";
import { modToolFile3 } from "./mod_tools_wave3.ts";
import { judge } from "./mod_tools_judge.ts";
import { degreesTyped } from "../../../../nodes/decode/freelancer/codec/turn_limits.ts";

Deno.test("limits typed in degrees are read as the game reads them and named, hardpoint and joint", async () => {
  for (const seed of [601, 602, 603, 604, 605, 606]) {
    const file = modToolFile3("degree_limits", seed);
    const { outcome, problems, warnings } = await judge(file);
    // Before: 20 of 20 files read silently (a turret typed -30..90 turned ±1719° without a word).
    assert.ok(
      outcome === "right-warned",
      `seed ${seed}: ${outcome} ${problems.join("; ")}\n${warnings.join("\n")}`,
    );
    const turret = warnings.find((w) => w.startsWith("hardpoint 'HpTurret01'"))!;
    assert.match(turret, /Min \(byte \d+\), Max \(byte \d+\): limits \(-?\d+, \d+\) are beyond a full turn/);
    const joint = warnings.find((w) => /constraint of part 'Door' \(byte \d+\)/.test(w))!;
    assert.match(joint, /^(Rev|Sphere) constraint of part 'Door'.*probably typed in degrees/);
  }
});

Deno.test("limits within a full turn say nothing; one beyond it names every limit as read", () => {
  assert.equal(degreesTyped([-Math.PI, Math.PI]), undefined);
  assert.equal(degreesTyped([-2 * Math.PI, 2 * Math.PI]), undefined);
  const said = degreesTyped([-5, 45])!;
  // −5 rad is −286.4789°, 45 rad 2578.31°: what the game turns through.
  assert.match(said, /limits \(-5, 45\) .*\(-286\.4789°, 2578\.3101°, no limit to its turn\)/);
});
