/**
 * Skinned nodes whose meshes lack joint data (`jointless_skins.ts`), on held-out seeds: each is named at
 * `/nodes/<i>/skin`, what export.gltf writes has no skinned node glTF refuses, and three.js draws the
 * output's vertices where it draws the input's. Before decode.gltf v62 (seeds 301-330, 120 cases) every
 * case was read silently, and the 30 partly skinned meshes were written still skinned (the Khronos
 * validator does not see it; glTF requires every primitive of a skinned mesh to carry joints).
 */
import assert from "node:assert/strict";
import { JOINTLESS_EDITS, jointlessCase } from "./jointless_skins.ts";
import { judgeJointless } from "./jointless_skins_judge.ts";

/** Seeds not developed against (development used 1-3). */
const SEEDS = [331, 332, 333];

for (const kind of Object.keys(JOINTLESS_EDITS)) {
  Deno.test(`jointless skin '${kind}': named, written valid, drawn as three.js draws the file`, async () => {
    for (const seed of SEEDS) {
      const edit = await jointlessCase(kind, seed);
      const verdict = await judgeJointless(edit);
      assert.ok(verdict.said, `${edit.name}: ${verdict.warnings.join(" | ")}`);
      assert.equal(verdict.invalidSkins, 0, edit.name);
      assert.equal(verdict.khronosErrors, 0, edit.name);
      assert.ok(verdict.drawnAlike, `${edit.name}: three.js draws the output elsewhere`);
    }
  });
}
