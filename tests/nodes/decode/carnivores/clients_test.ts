/**
 * Carnivores models through `graphs/carnivores.json` as real clients load them (`client_models.ts`,
 * `client_judges.ts`): three.js's GLTFLoader and Blender 3.4's importer must draw each face class
 * (opaque, colour-keyed, translucent) one- or two-sided as the engine does, cut texel 0 out exactly
 * when some face has sfOpacity, and play each clip as long as the game; in Blender a `.car` clip's
 * first, middle and last stored frames put every vertex where the file does. Measured on seeds 1–240
 * and held-out 1000–1199 (3df, car, rsc; real flag values, 2–256-row textures, 1–9 frames at 1–50,000
 * frames per second): no refusal, no crash, no disagreement in either client. Blender's part is
 * skipped when it is absent.
 */
import assert from "node:assert/strict";
import { readGltf, writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { clientModel } from "./client_models.ts";
import { blenderProblems, blenderReports, threeProblems, throughGraph } from "./client_judges.ts";

const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);

const outputs = (async () => {
  const models = SEEDS.map(clientModel);
  const glbs: Uint8Array[] = [];
  for (const m of models) {
    const { glb, error } = await throughGraph(m);
    assert.ok(glb, `${m.label}: ${error}`);
    glbs.push(glb);
  }
  return { models, glbs };
})();

/**
 * Blender's reports on every output, from one Blender run per process: the judges' test reads the
 * reports of two of these same files (Blender's script is given each file's probe texels and pose
 * times, which the judges' altered truths leave as they are), where it used to start Blender again.
 */
let blenderOnce: ReturnType<typeof blenderReports> | undefined;
async function blenderRun() {
  const { models, glbs } = await outputs;
  blenderOnce ??= blenderReports(glbs, models.map((m) => m.truth));
  return blenderOnce;
}

Deno.test("three.js draws every generated Carnivores model's face classes, sides and clip lengths as the game", async () => {
  const { models, glbs } = await outputs;
  const problems: string[] = [];
  for (const [i, m] of models.entries()) {
    problems.push(...(await threeProblems(m, glbs[i])).map((p) => `${m.label}: ${p}`));
  }
  assert.deepEqual(problems, []);
});

Deno.test("Blender imports every generated Carnivores model: blend modes, culling, colour key, clip lengths and .car poses as the game", async () => {
  const { models } = await outputs;
  const result = await blenderRun();
  if ("skip" in result) {
    console.log(`skipped: ${result.skip}`);
    return;
  }
  const problems = result.reports.flatMap((r, i) =>
    blenderProblems(models[i], r).map((p) => `${models[i].label}: ${p}`)
  );
  assert.deepEqual(problems, []);
});

Deno.test("the client judges catch a flipped side, a lost colour key, a stretched clip and a clip played backwards", async () => {
  const { models, glbs } = await outputs;
  const i = models.findIndex((m) => m.format === "car" && m.truth.clips.length > 0);
  const doc = await readGltf(glbs[i]);
  const material = doc.getRoot().listMaterials()[0];
  material.setDoubleSided(!material.getDoubleSided());
  const sampler = doc.getRoot().listAnimations()[0].listSamplers()[0];
  const input = sampler.getInput()!;
  input.setArray(Float32Array.from(input.getArray()!, (t) => t * 2));
  const broken = await writeGlb(doc, { generator: GENERATOR });
  const three = await threeProblems(models[i], broken);
  assert.ok(three.some((p) => /triangles draw/.test(p)), three.join("\n"));
  assert.ok(three.some((p) => /a clip lasts/.test(p)), three.join("\n"));
  const keyed = models.findIndex((m) => m.truth.colourKey && m.format !== "rsc");
  const truth = { ...models[keyed].truth, colourKey: false };
  const result = await blenderRun();
  if ("skip" in result) return;
  assert.match(
    blenderProblems({ ...models[keyed], truth }, result.reports[keyed]).join("\n"),
    /texels are transparent/,
  );
  // The car's clip played backwards is not what the file stores.
  const reversed = {
    ...models[i].truth,
    clips: models[i].truth.clips.map((c) => ({
      ...c,
      clip: { ...c.clip, positions: c.clip.positions.slice().reverse() },
    })),
  };
  assert.match(
    blenderProblems({ ...models[i], truth: reversed }, result.reports[i]).join("\n"),
    /off the stored positions/,
  );
});
