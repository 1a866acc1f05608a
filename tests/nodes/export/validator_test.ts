/**
 * `export.gltf` never lets an invalid file out: an error the Khronos validator finds only by scanning
 * binary data (not the JSON) is refused, and a graph whose export is refused writes no file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Document, NodeIO } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runGraph } from "../../../mod.ts";
import { runNode, testContext } from "../../support/context.ts";

/** A one-triangle scene whose node is animated at `times` (invalid unless strictly increasing). */
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

Deno.test("an error in binary data (animation times out of order) is refused with its code and pointer", async () => {
  const ctx = testContext();
  await runNode(exportGltf, { scene: animatedScene([0, 0.5, 1]) }, {}, ctx); // in order: written
  await assert.rejects(runNode(exportGltf, { scene: animatedScene([0, 1, 0.5]) }, {}, ctx), (error) => {
    assert.ok(error instanceof DecodeError);
    assert.match(error.found, /ACCESSOR_ANIMATION_INPUT_NON_INCREASING/);
    assert.match((error.at as { jsonPath: string }).jsonPath, /^\/animations\/0\/samplers\/0\/input$/);
    return true;
  });
});

Deno.test("a graph whose export the validator refuses writes no file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const model = join(dir, "bad.glb");
    await Deno.writeFile(model, await new NodeIO().writeBinary(animatedScene([0, 1, 0.5])));
    const outDir = join(dir, "out");
    const graph = new URL("../../../graphs/gltf.json", import.meta.url).pathname;
    await assert.rejects(
      runGraph(graph, { inputs: { model }, outDir, cacheDir: false }),
      /ACCESSOR_ANIMATION_INPUT_NON_INCREASING/,
    );
    const written = await Array.fromAsync(Deno.readDir(outDir)).catch(() => []);
    assert.deepEqual(written.map((entry) => entry.name), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
