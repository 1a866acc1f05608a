/**
 * The fast output check against the Khronos validator over many real-shaped outputs: every graph in
 * `graphs/` (on the shared corpus where a case needs it), the realistic generated Freelancer
 * compounds, and mutated corpus files of every format through the fuzz pipeline. On each output the
 * fast verdict must equal "Khronos reports 0 errors" (an unsure "outside" defers to Khronos and is
 * counted); the counts are printed so a run shows how much the check decides by itself.
 */
import assert from "node:assert/strict";
import { decodeAuto } from "../../../nodes/decode/auto.ts";
import { texturesToPng } from "../../../nodes/textures/to_png.ts";
import { sceneUninstance } from "../../../nodes/scene/uninstance.ts";
import { constraintsResolve } from "../../../nodes/constraints/resolve.ts";
import { GRAPH_CASES, missingCorpus, runCase } from "../../support/graph_runs.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { runNode, testContext } from "../../support/context.ts";
import { type CrossCheck, crossCheck, describeCrossCheck, exportBytes } from "../../support/output_check.ts";
import { fuzzInput, runFuzzCase } from "../../fuzz/pipeline.ts";
import {
  CORPUS_FORMATS,
  corpusSeeds,
  EXTENDED_OUTPUT_FORMATS,
  FUZZ_FORMATS,
  fuzzSeeds,
} from "../../fuzz/seeds.ts";
import { richScene } from "./check_scenes.ts";
import { heldOutCount } from "../../support/heldout.ts";

/** Tallies verdicts and fails on any disagreement. */
function tally(counts: Record<string, number>, label: string, result: CrossCheck): void {
  assert.ok(!result.unsafe, `UNSAFE: ${label}: ${describeCrossCheck(result)}`);
  assert.ok(!result.needless, `needless refusal: ${label}: ${describeCrossCheck(result)}`);
  const key = `${result.fast.kind}, Khronos ${result.khronosErrors ? "errors" : "0 errors"}`;
  counts[key] = (counts[key] ?? 0) + 1;
}

Deno.test("fast check = Khronos on the output of every graph in graphs/", async () => {
  const counts: Record<string, number> = {};
  for (const c of GRAPH_CASES) {
    if (missingCorpus(c)) continue;
    const { glb } = await runCase(c);
    if (glb) tally(counts, c.label, await crossCheck(glb));
  }
  console.log(`graphs: ${JSON.stringify(counts)}`);
  assert.ok((counts["valid, Khronos 0 errors"] ?? 0) > 0, JSON.stringify(counts));
});

Deno.test("fast check = Khronos on 8 realistic generated compounds, decoded and resolved", async () => {
  const counts: Record<string, number> = {};
  for (let seed = 1; seed <= 8; seed++) {
    const ctx = testContext();
    const bytes = realisticCmp(seed, { parts: 12 });
    const { scene } = await runNode(decodeAuto, { bytes: { bytes, name: `r${seed}.cmp` } }, {}, ctx);
    const resolved = await runNode(constraintsResolve, { scene }, {}, ctx);
    const result = await crossCheck(await exportBytes(resolved.scene));
    tally(counts, `realistic seed ${seed}`, result);
    // Real-shaped compounds are what the check is for: it must decide them itself.
    assert.equal(result.fast.kind, "valid", describeCrossCheck(result));
  }
  console.log(`realistic compounds: ${JSON.stringify(counts)}`);
});

Deno.test("fast check = Khronos on .gltf JSON outputs (data URIs) of every fuzz seed (through the fuzz pipeline) and the rich scene", async () => {
  const counts: Record<string, number> = {};
  const seeds = await fuzzSeeds();
  for (const format of FUZZ_FORMATS) {
    const ctx = testContext();
    const { name, bytes } = seeds[format];
    const { scene } = await runNode(decodeAuto, { bytes: { bytes, name } }, {}, ctx);
    const resolved = await runNode(constraintsResolve, { scene }, {}, ctx);
    const textured = await runNode(texturesToPng, { scene: resolved.scene }, {}, ctx);
    const expanded = await runNode(sceneUninstance, { scene: textured.scene }, {}, ctx);
    const result = await crossCheck(await exportBytes(expanded.scene, "gltf"), "gltf");
    tally(counts, `${format} seed as .gltf`, result);
    // An output that keeps an extension is the validator's to decide (and it must find it valid).
    const extended = EXTENDED_OUTPUT_FORMATS.has(format);
    assert.equal(
      result.fast.kind,
      extended ? "outside" : "valid",
      `${format}: ${describeCrossCheck(result)}`,
    );
    assert.equal(result.khronosErrors, 0, `${format}: ${describeCrossCheck(result)}`);
  }
  const rich = await exportBytes(richScene(), "gltf");
  tally(counts, "rich scene as .gltf", await crossCheck(rich, "gltf"));
  // The same scene with its image's data declared JPEG: the check defers, the validator refuses.
  const json = JSON.parse(new TextDecoder().decode(rich));
  json.images[0].mimeType = "image/jpeg";
  json.images[0].uri = json.images[0].uri.replace("data:image/png", "data:image/jpeg");
  const text = JSON.stringify(json);
  const mislabelled = await crossCheck(new TextEncoder().encode(text), "gltf");
  tally(counts, "mislabelled image", mislabelled);
  assert.ok(
    mislabelled.khronosErrors > 0 && mislabelled.fast.kind === "outside",
    describeCrossCheck(mislabelled),
  );
  console.log(`.gltf outputs: ${JSON.stringify(counts)}`);
});

/** Mutated corpus files per set: the first 15 in the suite, all 30 under `deno task heldout`. */
const MUTATED = heldOutCount(30, 15);

for (const set of CORPUS_FORMATS) {
  const seeds = await corpusSeeds(set);
  Deno.test({
    name: `fast check = Khronos on ${MUTATED} mutated ${set} corpus files`,
    ignore: !seeds.length && (console.warn(`skipped ${set}: shared corpus absent`), true),
    async fn() {
      const counts: Record<string, number> = {};
      for (let i = 0; i < MUTATED; i++) {
        const { name, bytes } = await fuzzInput(set, 0xc0ffee, i);
        const result = await runFuzzCase(bytes, name);
        assert.ok(
          result.outcome !== "disagree" && result.outcome !== "invalid",
          `${set} case ${i}: ${result.detail}`,
        );
        const key = `${result.outcome}${result.check ? `, fast check ${result.check}` : ""}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      console.log(`${set}: ${JSON.stringify(counts)}`);
    },
  });
}
