/**
 * partgraph's rigged output through glTF-Transform's own functions (`dedup` + `prune`, `weld`,
 * `reorder`), as users optimise a rigged file, and rigged again: the same pivots, kinds, sides,
 * extras and hinges, no pivot under a pivot.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { runNode } from "../support/context.ts";
import { type Recipe, transformedGlb } from "../support/gltf_transform.ts";
import { compareRigs, interopExtras, nestedPivots, rigGlb } from "./roundtrip.ts";

for (const recipe of ["dedup + prune", "weld", "reorder"] as Recipe[]) {
  Deno.test(`glTF-Transform ${recipe}: the rigged demo fighter rigs again to the same parts and hinges`, async () => {
    const fighter = await writeGlb((await runNode(demoFighter, {}, {})).scene, { generator: GENERATOR });
    const first = await rigGlb(fighter);
    const written = await transformedGlb(first.glb, recipe);
    assertEquals(interopExtras(written), interopExtras(first.glb));
    const second = await rigGlb(written);
    const diff = compareRigs(first.parts, second.parts);
    assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
      lost: [],
      added: [],
      changed: [],
    });
    assert(diff.compared === first.parts.length && diff.compared >= 20, `${diff.compared} parts compared`);
    assert(diff.worstAngle < 1e-3 && diff.worstOffset < 1e-5, `${diff.worstAngle}°, ${diff.worstOffset}`);
    assertEquals(nestedPivots(second.glb), nestedPivots(first.glb));
    assert(!second.warnings.some((w) => w.includes("carry no extras")), second.warnings.join("\n"));
  });
}
