/**
 * `export.gltf` never lets an invalid file out: an error found only by scanning binary data (not the
 * JSON) is refused — by the fast check inside the subset it covers, by the Khronos validator outside
 * it or with `validate: "khronos"` — and a graph whose export is refused writes no file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Document, NodeIO } from "@gltf-transform/core";
import { KHRMaterialsUnlit } from "@gltf-transform/extensions";
import { checkOutput } from "../../../nodes/export/check/mod.ts";
import { exportBytes } from "../../support/output_check.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runGraph } from "../../../mod.ts";
import { runNode, testContext } from "../../support/context.ts";
import { tempDir } from "../../support/temp.ts";

/** A one-triangle scene whose node is animated at `times` (invalid when one is negative). */
function animatedScene(times: number[]): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor("position", buffer).setType("VEC3")
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const primitive = doc.createPrimitive().setAttribute("POSITION", position)
    .setIndices(doc.createAccessor("indices", buffer).setArray(new Uint16Array([0, 1, 2])));
  const node = doc.createNode("part").setMesh(doc.createMesh("m").addPrimitive(primitive));
  doc.createScene("s").addChild(node);
  const sampler = doc.createAnimationSampler()
    .setInput(doc.createAccessor("t", buffer).setArray(new Float32Array(times)))
    .setOutput(doc.createAccessor("v", buffer).setType("VEC3").setArray(new Float32Array(times.length * 3)));
  doc.createAnimation("a").addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(node).setTargetPath("translation").setSampler(sampler),
  );
  return doc;
}

/** The scene of {@link animatedScene} with an unlit material: outside what the fast check covers. */
function unlitScene(times: number[]): Document {
  const doc = animatedScene(times);
  const unlit = doc.createExtension(KHRMaterialsUnlit);
  const material = doc.createMaterial("flat").setExtension("KHR_materials_unlit", unlit.createUnlit());
  doc.getRoot().listMeshes()[0].listPrimitives()[0].setMaterial(material);
  return doc;
}

for (const validate of ["auto", "khronos"]) {
  Deno.test(`validate: ${validate} — a negative animation time is refused with its code and pointer`, async () => {
    const ctx = testContext();
    await runNode(exportGltf, { scene: animatedScene([0, 0.5, 1]) }, { validate }, ctx); // in order: written
    await assert.rejects(
      runNode(exportGltf, { scene: animatedScene([-1, 0, 1]) }, { validate }, ctx),
      (error) => {
        assert.ok(error instanceof DecodeError);
        assert.match(error.found, /ACCESSOR_ANIMATION_INPUT_NEGATIVE/);
        assert.match((error.at as { jsonPath: string }).jsonPath, /^\/animations\/0\/samplers\/0\/input$/);
        // Which check refused it shows in the message: the validator's words, or the fast check's.
        assert.match(
          error.found,
          validate === "khronos" ? /element at index 0 is negative: -1\./ : /time 0 is -1$/,
        );
        return true;
      },
    );
  });
}

Deno.test("a scene outside the fast check's subset (an extension) is judged by the Khronos validator", async () => {
  // The fast check defers on both; only the validator can refuse the second, in its own words.
  assert.equal(checkOutput(await exportBytes(unlitScene([0, 0.5, 1])), "glb").kind, "outside");
  assert.equal(checkOutput(await exportBytes(unlitScene([-1, 0, 1])), "glb").kind, "outside");
  const ctx = testContext();
  await runNode(exportGltf, { scene: unlitScene([0, 0.5, 1]) }, {}, ctx);
  await assert.rejects(runNode(exportGltf, { scene: unlitScene([-1, 0, 1]) }, {}, ctx), (error) => {
    assert.ok(error instanceof DecodeError);
    // The validator's message, not the fast check's ("time 0 is -1").
    assert.match(error.found, /ACCESSOR_ANIMATION_INPUT_NEGATIVE: .*element at index 0 is negative/);
    return true;
  });
});

Deno.test("a graph whose export the validator refuses writes no file", async () => {
  const dir = await tempDir();
  try {
    const model = join(dir, "bad.glb");
    await Deno.writeFile(model, await new NodeIO().writeBinary(animatedScene([-1, 0, 1])));
    const outDir = join(dir, "out");
    const graph = new URL("../../../graphs/gltf.json", import.meta.url).pathname;
    await assert.rejects(
      runGraph(graph, { inputs: { model }, outDir, cacheDir: false }),
      /ACCESSOR_ANIMATION_INPUT_NEGATIVE/,
    );
    const written = await Array.fromAsync(Deno.readDir(outDir)).catch(() => []);
    assert.deepEqual(written.map((entry) => entry.name), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
