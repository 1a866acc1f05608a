/**
 * Aircraft with every level of detail drawn at one place, the lower ones coarse (a plate, a box), as
 * Unity's LOD Group, Unreal's `SM_<object>_LOD<n>` and Sketchfab's `LOD<n>` groups leave them
 * (tests/nodes/user_gltf/lod_files.ts), through `graphs/aircraft_file.json`: every level of every
 * surface rigged on the first level's true hinge. Before rig.fit_hinge v55 the levels were fitted
 * together as pieces of one surface and the coarse ones pulled every hinge off, judged good. Seeds 1–2
 * here; the measurement's held-out seeds are 1001–1030.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { LOD_KINDS, lodFile } from "./user_gltf/lod_files.ts";
import { judgeLodRig } from "./user_gltf/lod_judge.ts";
import { firstLevel, lodLevel } from "../../nodes/rig/lod_levels.ts";

for (const kind of LOD_KINDS) {
  Deno.test(`LOD files: ${kind} rigs every level of every surface on the first level's hinge`, async () => {
    for (const seed of [1, 2]) {
      const file = await lodFile(kind, seed);
      const judged = await judgeLodRig(file);
      assertEquals(
        [judged.refused, judged.wrong, judged.right],
        [undefined, [], file.panels.length * file.levels],
        file.name,
      );
      assert(
        judged.warnings.some((w) => w.includes("levels of detail of one surface")),
        judged.warnings.join("\n"),
      );
    }
  });
}

Deno.test("LOD levels: read from the node or the nearest marked group; unmarked beside marked is the first", () => {
  const doc = new Document();
  const group = doc.createNode("Plane_LOD2");
  const inGroup = doc.createNode("Aileron_L");
  group.addChild(inGroup);
  const marked = doc.createNode("SM_Aileron_L_LOD1");
  const plain = doc.createNode("Aileron_L");
  assertEquals([lodLevel(inGroup), lodLevel(marked), lodLevel(plain)], [2, 1, undefined]);
  assertEquals(firstLevel([inGroup, marked, plain]), [plain]);
  // Pieces of one level (a surface split by material) are all fitted together, as before.
  const pieces = [doc.createNode("Aileron_L_Paint_0"), doc.createNode("Aileron_L_Metal_0")];
  assertEquals(firstLevel(pieces), pieces);
});
