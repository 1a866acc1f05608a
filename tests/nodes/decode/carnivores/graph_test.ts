/**
 * `graphs/carnivores.json` end to end: read → decode.auto → constraints.resolve → export.gltf →
 * io.write, on a code-built rigged `.3df` and an animated `.car`; the GLBs are valid, skinned or
 * animated as expected, and byte-identical across runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../../../mod.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { validateGltf } from "../../../support/validator.ts";
import { animatedCar, LIMB_BONES, limbModel } from "./fixtures.ts";
import { tempDir } from "../../../support/temp.ts";

const GRAPH = new URL("../../../../graphs/carnivores.json", import.meta.url).pathname;

async function build(name: string, bytes: Uint8Array): Promise<Uint8Array> {
  const dir = await tempDir();
  try {
    await Deno.writeFile(join(dir, name), bytes);
    const out = join(dir, "out");
    await runGraph(GRAPH, { inputs: { model: join(dir, name) }, outDir: out, cacheDir: false });
    return await Deno.readFile(join(out, "model.glb"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("graphs/carnivores.json turns a .3df into a valid skinned GLB, deterministically", async () => {
  const bytes = encode3df(limbModel());
  const glb = await build("limb.3df", bytes);
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  const doc = await readGltf(glb);
  const [skin] = doc.getRoot().listSkins();
  assert.deepEqual(skin.listJoints().map((j) => j.getName()), LIMB_BONES.map((b) => b.name));
  assert.deepEqual(await build("limb.3df", bytes), glb, "a second run gives the same bytes");
});

Deno.test("graphs/carnivores.json turns a .car into a valid GLB with one animation per clip", async () => {
  const glb = await build("boxes.car", encodeCar(animatedCar()));
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  const doc = await readGltf(glb);
  assert.deepEqual(doc.getRoot().listAnimations().map((a) => a.getName()), ["walk", "idle"]);
  assert.equal(doc.getRoot().listSkins().length, 0);
});
