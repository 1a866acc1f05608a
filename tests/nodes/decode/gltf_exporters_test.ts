/**
 * Files as Blender 2.8x (specular-glossiness with and without a metal-rough fallback, unlit mixed with
 * lit), Godot 3/4, Sketchfab's converter, three.js's GLTFExporter (old and new strides) and Unity
 * write them (`gltf_exporters.ts`): decoded, and decoded again after `export.gltf`, every part is
 * where it is drawn, under its name, in its colour (factor × texture × vertex colour), lit or unlit,
 * glowing as before, its texture read through the same UV set and transform.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { EXPORTER_TOOLS, exporterFile } from "./gltf_exporters.ts";
import { judgeExported, judgeExporterFile } from "./gltf_exporter_judge.ts";

/** Seeds the test runs (the measurement's held-out seeds are others). */
const SEEDS = [101, 102, 103];

for (const tool of EXPORTER_TOOLS) {
  Deno.test(`exporters: ${tool} decodes and exports as it draws`, async () => {
    for (const seed of SEEDS) {
      const file = await exporterFile(tool, seed);
      const decoded = await judgeExporterFile(file);
      assertEquals([decoded.refused, decoded.wrong], [undefined, []], file.name);
      const exported = await judgeExported(file);
      assertEquals([exported.refused, exported.wrong], [undefined, []], `${file.name} exported`);
    }
  });
}

Deno.test("exporters: the judge sees a part moved, renamed or recoloured", async () => {
  const file = await exporterFile("sketchfab", 7);
  const [a, b, c] = file.parts;
  const parts = [
    { ...a, colour: [0, 0, 0, 1] as typeof a.colour },
    { ...b, name: "Elsewhere" },
    { ...c, min: c.min.map((v: number) => v + 0.1) },
    ...file.parts.slice(3),
  ];
  const { wrong } = await judgeExporterFile({ ...file, parts });
  assertEquals(wrong.length, 3, wrong.join("\n"));
  assert(
    wrong[0].startsWith(`${a.name}: colour`) && wrong[1].startsWith("Elsewhere: named"),
    wrong.join("\n"),
  );
});

Deno.test("exporters: what is repaired is named — three.js's byte strides, specular-glossiness given a fallback", async () => {
  const old = await judgeExporterFile(await exporterFile("threejs-old", 5));
  assert(old.warnings.some((w) => /byteStride: 3 is the element size/.test(w)), old.warnings.join("\n"));
  const specGloss = await judgeExporterFile(await exporterFile("blender-specgloss-only", 5));
  assert(specGloss.warnings.some((w) => /specular-glossiness alone/.test(w)), specGloss.warnings.join("\n"));
  // A file that carries its own fallback is drawn by it, without a word.
  const fallback = await judgeExporterFile(await exporterFile("blender-specgloss-fallback", 5));
  assertEquals(fallback.warnings, []);
});

Deno.test("exporters: three.js's own GLTFExporter (r187) — groups sharing vertices, byte colours, unlit, emissive strength, interleaved", async () => {
  const { threejsExporterFile } = await import("./gltf_exporter_threejs.ts");
  for (const seed of SEEDS) {
    const file = await threejsExporterFile(seed);
    const decoded = await judgeExporterFile(file);
    assertEquals([decoded.refused, decoded.wrong, decoded.warnings], [undefined, [], []], file.name);
    const exported = await judgeExported(file);
    assertEquals([exported.refused, exported.wrong], [undefined, []], `${file.name} exported`);
  }
});
