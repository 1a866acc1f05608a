/**
 * Issue #12: the export repair's UV-set rule reads each material's texture references once, however
 * many primitives share it. A Freelancer ship draws a few materials over hundreds of small
 * primitives; counted, not timed: calls of a material's texture getters while the repair runs.
 */
import assert from "node:assert/strict";
import { type Document, Material } from "@gltf-transform/core";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { repairForExport } from "../../../nodes/export/repair.ts";
import { runNode, testContext } from "../../support/context.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";

Deno.test("the UV-set repair reads a material's texture references once, not once per primitive", async () => {
  for (const seed of [45, 46]) {
    const ctx = testContext();
    const bytes = realisticCmp(seed, { parts: 16 });
    const decoded = await runNode(decodeCmp, { bytes: { bytes, name: `ship${seed}.cmp` } }, {
      libraries: "none",
    }, ctx);
    const scene = decoded.scene as Document;
    const root = scene.getRoot();
    const primitives = root.listMeshes().flatMap((mesh) => mesh.listPrimitives())
      .filter((primitive) => primitive.getMaterial() !== null).length;
    const materials = root.listMaterials().length;
    assert.ok(primitives > 10 * materials, `many primitives per material (${primitives}, ${materials})`);
    const original = Material.prototype.getBaseColorTexture;
    let reads = 0;
    Material.prototype.getBaseColorTexture = function (this: Material) {
      reads++;
      return original.call(this);
    };
    let warnings: string[];
    try {
      warnings = [];
      repairForExport(scene, (message) => warnings.push(message));
    } finally {
      Material.prototype.getBaseColorTexture = original;
    }
    assert.deepEqual(warnings, [], "a clean ship needs no repair");
    // Once per material for the UV sets (and at most once more per material elsewhere in the repair).
    assert.ok(
      reads <= 2 * materials,
      `seed ${seed}: ${reads} reads for ${materials} materials, ${primitives} primitives`,
    );
  }
});
