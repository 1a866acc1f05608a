/**
 * `export.gltf` never lets an invalid file out: an error found only by scanning binary data (not the
 * JSON) is refused — by the fast check inside the subset it covers, by the Khronos validator outside
 * it or with `validate: "khronos"` — and a graph whose export is refused writes no file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Document, type TypedArray } from "@gltf-transform/core";
import { KHRMaterialsUnlit } from "@gltf-transform/extensions";
import { checkOutput } from "../../../nodes/export/check/mod.ts";
import { exportBytes } from "../../support/output_check.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { BUILTIN_PLUGINS, createRegistry, runGraph } from "../../../mod.ts";
import { defineNode } from "../../../runtime/node.ts";
import type { GraphFile } from "../../../runtime/graph.ts";
import { runNode, testContext } from "../../support/context.ts";
import { tempDir } from "../../support/temp.ts";

/**
 * A one-triangle scene skinned to one joint, its first vertex bound to joint `joint` (invalid past
 * 0: damage no export repair can undo, since which joint was meant is lost).
 */
function skinnedScene(joint: number): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: "SCALAR" | "VEC3" | "VEC4", array: TypedArray) =>
    doc.createAccessor("", buffer).setType(type).setArray(array);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
    .setAttribute("JOINTS_0", accessor("VEC4", new Uint16Array([joint, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])))
    .setAttribute("WEIGHTS_0", accessor("VEC4", new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])))
    .setIndices(accessor("SCALAR", new Uint16Array([0, 1, 2])));
  const bone = doc.createNode("bone");
  const skin = doc.createSkin("skin").addJoint(bone);
  const node = doc.createNode("part").setMesh(doc.createMesh("m").addPrimitive(primitive)).setSkin(skin);
  doc.createScene("s").addChild(node).addChild(bone);
  return doc;
}

/** The scene of {@link skinnedScene} with an unlit material: outside what the fast check covers. */
function unlitScene(joint: number): Document {
  const doc = skinnedScene(joint);
  const unlit = doc.createExtension(KHRMaterialsUnlit);
  const material = doc.createMaterial("flat").setExtension("KHR_materials_unlit", unlit.createUnlit());
  doc.getRoot().listMeshes()[0].listPrimitives()[0].setMaterial(material);
  return doc;
}

for (const validate of ["auto", "khronos"]) {
  Deno.test(`validate: ${validate} — a joint index past the skin's joints is refused with its code and pointer`, async () => {
    const ctx = testContext();
    await runNode(exportGltf, { scene: skinnedScene(0) }, { validate }, ctx); // in range: written
    await assert.rejects(
      runNode(exportGltf, { scene: skinnedScene(5) }, { validate }, ctx),
      (error) => {
        assert.ok(error instanceof DecodeError);
        assert.match(error.found, /ACCESSOR_JOINTS_INDEX_OOB/);
        assert.match(
          (error.at as { jsonPath: string }).jsonPath,
          /^\/meshes\/0\/primitives\/0\/attributes\/JOINTS_0$/,
        );
        // Which check refused it shows in the message: the validator's words, or the fast check's.
        assert.match(error.found, validate === "khronos" ? /has value 5/ : /vertex 0: 5$/);
        return true;
      },
    );
  });
}

Deno.test("a scene outside the fast check's subset (an extension) is judged by the Khronos validator", async () => {
  // The fast check defers on both; only the validator can refuse the second, in its own words.
  assert.equal(checkOutput(await exportBytes(unlitScene(0)), "glb").kind, "outside");
  assert.equal(checkOutput(await exportBytes(unlitScene(5)), "glb").kind, "outside");
  const ctx = testContext();
  await runNode(exportGltf, { scene: unlitScene(0) }, {}, ctx);
  await assert.rejects(runNode(exportGltf, { scene: unlitScene(5) }, {}, ctx), (error) => {
    assert.ok(error instanceof DecodeError);
    // The validator's message, not the fast check's ("vertex 0: 5").
    assert.match(error.found, /ACCESSOR_JOINTS_INDEX_OOB: .*has value 5/);
    return true;
  });
});

/** `test.damaged_scene`: emits {@link skinnedScene}(5), damage `decode.gltf` refuses in a file, for the export alone to meet. */
const damagedScene = defineNode({
  type: "test.damaged_scene",
  version: 1,
  doc: "A scene with a joint index past its skin's joints.",
  inputs: {},
  outputs: { scene: { type: "scene", doc: "The scene." } },
  params: {},
  run: () => ({ scene: skinnedScene(5) }),
});

Deno.test("a graph whose export the validator refuses writes no file", async () => {
  const dir = await tempDir();
  try {
    const outDir = join(dir, "out");
    const graph: GraphFile = {
      version: 1,
      nodes: {
        damaged: { type: "test.damaged_scene" },
        export: { type: "export.gltf", inputs: { scene: "damaged.scene" } },
        write: { type: "io.write", inputs: { bytes: "export.bytes" }, params: { path: "bad.glb" } },
      },
      outputs: { glb: "export.bytes" },
    };
    const registry = createRegistry([...BUILTIN_PLUGINS, { nodes: [damagedScene] }]);
    await assert.rejects(runGraph(graph, { registry, outDir, cacheDir: false }), /ACCESSOR_JOINTS_INDEX_OOB/);
    const written = await Array.fromAsync(Deno.readDir(outDir)).catch(() => []);
    assert.deepEqual(written.map((entry) => entry.name), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
