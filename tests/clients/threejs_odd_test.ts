/**
 * partgraph's own odd outputs (`odd_outputs.ts`) through three.js's `GLTFLoader`: every named node is
 * an object, every clip's track binds a node, each morphed mesh's dictionary holds every target name
 * once and each morphed object's influences are its node's weights, custom attributes are kept and every
 * camera comes in (`threejs_census.ts`). three.js took all of them before and after export.gltf v22's
 * renames (the NUL written `_`, cameras and meshes named apart from nodes) and v24's per-node copies of a
 * shared morphed mesh: this guards that no change made for Blender costs three.js anything. Held-out seed.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode } from "../support/context.ts";
import { ODD_CASES } from "./odd_outputs.ts";
import { threeLosses } from "./threejs_census.ts";

const SEED = 17;

for (const c of ODD_CASES) {
  Deno.test(`three.js loads the odd output '${c.label}' (seed ${SEED}) whole`, async () => {
    assertEquals(
      await threeLosses((await runNode(exportGltf, { scene: await c.scene(SEED) })).bytes.bytes),
      [],
    );
  });
}
