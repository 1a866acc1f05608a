/**
 * Files from exporters as they write them (tests/nodes/user_gltf/exporter_files.ts: Blender's KHR_materials_*
 * and CUBICSPLINE/STEP animations, 3ds Max's Babylon exporter's specular-glossiness, RealityCapture's
 * and Polycam's photogrammetry with uint32 indices, 8K tiles by URI, KHR_texture_basisu and missing
 * files, CAD converters' hundreds of quantized parts named with `/` and `:`) decode, and come through
 * `graphs/gltf.json`, keeping what a client shows, a missing file named. Seeds 1-2 of each here; scripts
 * measured 1-30 (before: Polycam's through the graph 26 of 30 refused by the export's own check, as the
 * PNG fallback of a KTX2 image read from a .gltf took the image's data: URI; all else right) and
 * held-out 1001-1030 (after: 300 of 300 right).
 */
import { ok as assert } from "node:assert/strict";
import { tempDir } from "../support/temp.ts";
import { EXPORTER_KINDS, exporterGltf } from "./user_gltf/exporter_files.ts";
import { judgeExporterDecode, judgeExporterGraph } from "./user_gltf/exporter_judge.ts";

for (const kind of EXPORTER_KINDS) {
  Deno.test(`exporter files: ${kind} decodes and comes through graphs/gltf.json`, async () => {
    for (const seed of [1, 2]) {
      const file = await exporterGltf(kind, seed);
      for (const judge of [judgeExporterDecode, judgeExporterGraph]) {
        const judged = await judge(file, await tempDir());
        assert(
          judged.outcome === "right",
          `${judge.name} seed ${seed} (${file.detail}): ${judged.outcome}: ${judged.why}\n${
            judged.warnings.join("\n")
          }`,
        );
      }
    }
  });
}

Deno.test("exporter files: the judge calls a lost extension, interpolation, name or missing file wrong", async () => {
  const file = await exporterGltf("blender-khr", 3);
  const truth = file.truth;
  const cases = [
    {
      ...truth,
      materials: { ...truth.materials, "Glass.001": { KHR_materials_dispersion: { getDispersion: 1 } } },
    },
    { ...truth, animations: truth.animations.map((a) => ({ ...a, interpolation: "LINEAR" })) },
    { ...truth, nodes: ["Cube:1"] },
    { ...truth, missing: ["Cube_baseColor.png"] },
  ];
  for (const wrong of cases) {
    const judged = await judgeExporterDecode({ ...file, truth: wrong }, await tempDir());
    assert(judged.outcome === "wrong-silent", `${judged.outcome}: ${judged.why}`);
  }
});
