/**
 * A glTF with nodes but no scene (no `scenes`, an empty list, or `"scene": 0` with no list: hand-written
 * files and minimal exporters) comes out of `decode.auto → export.gltf` with one scene of its root parts,
 * which three.js draws, and a warning that the file had none. Before decode.gltf v57 the first two came out
 * with no scene either, so three.js's `GLTFLoader` gave no `scene` and drew nothing, silently (found by the
 * survivor client sweep: draco seed 32 case 5), and the third was refused. Files that have a scene are read
 * as before, without that warning. Cases from `sceneless_files.ts`, seeds 1-2 (the held-out figures in the
 * commit were measured on 101-110).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { scenelessFile } from "./sceneless_files.ts";
import { judgeSceneless } from "./sceneless_census.ts";

Deno.test("a glTF without a scene is drawn by three.js, with a warning that it had none", async () => {
  const wrong: string[] = [];
  let sceneless = 0;
  let controls = 0;
  for (let seed = 1; seed <= 2; seed++) {
    for (let index = 0; index < 12; index++) {
      const file = scenelessFile(seed, index);
      const verdict = await judgeSceneless(file);
      const label = `${file.name} (${file.habit})`;
      if (verdict.undrawn.length) {
        wrong.push(`${label}: three.js drew none of ${verdict.undrawn.join(", ")} ${verdict.refused ?? ""}`);
      }
      if (file.habit === "control") {
        controls++;
        if (verdict.warned) wrong.push(`${label}: has a scene, yet warned: ${verdict.warnings.join("; ")}`);
      } else {
        sceneless++;
        if (!verdict.warned) wrong.push(`${label}: no warning that the file had no scene`);
      }
    }
  }
  assert(sceneless >= 10 && controls >= 2, `too few cases: ${sceneless} sceneless, ${controls} controls`);
  assertEquals(wrong, []);
});

Deno.test("a part with a mesh that no scene reaches is named: three.js does not draw it", async () => {
  // Before decode.gltf v58 every such part was missing in three.js silently.
  const silent: string[] = [];
  let undrawn = 0;
  for (const habit of ["unlinked", "nulled-parent"] as const) {
    for (let index = 0; index < 12; index++) {
      const file = scenelessFile(1, index, habit);
      const verdict = await judgeSceneless(file);
      undrawn += verdict.undrawn.length;
      const unnamed = verdict.undrawn.filter((name) =>
        !verdict.warnings.some((w) => w.includes(`'${name}'`))
      );
      if (unnamed.length) silent.push(`${file.name} (${habit}): ${unnamed.join(", ")} not drawn, not named`);
    }
  }
  assert(undrawn >= 5, `only ${undrawn} parts left out of every scene: the cases test nothing`);
  assertEquals(silent, []);
});
