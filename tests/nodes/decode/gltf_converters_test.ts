/**
 * Files as converters write old aircraft (`gltf_converters.ts`: FBX2glTF, Assimp, obj2gltf, COLLADA2GLTF,
 * Blender 2.79, gltfpack with and without meshopt, game rips): decoded, every part is where it is drawn,
 * under its name, in its colour; through the aircraft graph every control surface is found once and
 * hinged where it is. Before decode.gltf v41 a COLLADA2GLTF file requiring KHR_techniques_webgl was
 * refused (held-out seeds 201–230: 30 of 30), as was an FBX2glTF file requiring KHR_materials_common
 * (before v42: 30 of 30), a material its technique alone drew would have been
 * glTF's default white metal, and a game rip's textured draw calls without UVs were not named (28 of
 * 30 files, silent).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { type Converter, converterFile, CONVERTERS } from "./gltf_converters.ts";
import { judgeExporterFile } from "./gltf_exporter_judge.ts";
import { judgeConverterRig } from "./gltf_converter_rig.ts";
import { exporterFile } from "./gltf_exporters.ts";
import { editedGlb, glbJson } from "../../support/shapes.ts";

/** Seeds the test runs (the measurement's held-out seeds are 201–230). */
const SEEDS = [101, 102, 103];

for (const tool of CONVERTERS) {
  Deno.test(`converters: ${tool} decodes as it draws`, async () => {
    for (const seed of SEEDS) {
      const file = await converterFile(tool, seed);
      const decoded = await judgeExporterFile(file);
      assertEquals([decoded.refused, decoded.wrong], [undefined, []], file.name);
    }
  });
}

const RIGGED: Converter[] = [
  "fbx2gltf-cm",
  "fbx2gltf-common",
  "collada2gltf-kmc",
  "assimp",
  "collada2gltf-required",
  "blender279",
  "gltfpack-meshopt",
];

Deno.test("converters: the aircraft graph finds and hinges every surface of the named converters' files", async () => {
  for (const tool of RIGGED) {
    const file = await converterFile(tool, SEEDS[0]);
    assert(file.panels.length === 4, file.name);
    const rig = await judgeConverterRig(file);
    assertEquals([rig.refused, rig.wrong, rig.right], [undefined, [], 4], file.name);
  }
});

Deno.test("converters: the rig judge sees a hinge moved", async () => {
  const file = await converterFile("assimp", 7);
  const [first, ...rest] = file.panels;
  const moved = { ...first, truth: { ...first.truth!, origin: first.truth!.origin.map((v) => v + 0.3) } };
  const { wrong } = await judgeConverterRig({ ...file, panels: [moved as typeof first, ...rest] });
  assertEquals(wrong.map((w) => w.text.split(":")[0]), [first.name]);
});

Deno.test("converters: KHR_techniques_webgl is read as three.js reads it, required or not, and named", async () => {
  for (const seed of SEEDS) {
    const file = await converterFile("collada2gltf-required", seed);
    const json = glbJson(file.bytes) as { materials: { pbrMetallicRoughness?: unknown }[] };
    const alone = json.materials.filter((m) => !m.pbrMetallicRoughness).length;
    assert(alone > 0, file.name);
    const { refused, wrong, warnings } = await judgeExporterFile(file);
    assertEquals([refused, wrong], [undefined, []]);
    const notes = warnings.filter((w) => w.includes("KHR_techniques_webgl"));
    assertEquals(notes.length, 1, warnings.join("\n"));
    assert(
      notes[0].includes("requires") && notes[0].includes(`${alone} materials the technique alone drew`),
      notes[0],
    );
  }
});

Deno.test("converters: FBX2glTF's KHR_materials_common is read as the 1.0 upgrade reads it, required or not", async () => {
  for (const seed of SEEDS) {
    const file = await converterFile("fbx2gltf-common", seed);
    const { refused, wrong, warnings } = await judgeExporterFile(file);
    // The judge checks each part's colour and whether it is unlit (a constant material).
    assertEquals([refused, wrong], [undefined, []]);
    const notes = warnings.filter((w) => w.includes("KHR_materials_common"));
    assertEquals(notes.length, 1, warnings.join("\n"));
    assert(
      notes[0].includes(`requires`) && notes[0].includes(`${file.parts.length} materials without`),
      notes[0],
    );
    // Beside metal-rough values, those are drawn, and said to be.
    const both = await judgeExporterFile(await converterFile("fbx2gltf-common-pbr", seed));
    assertEquals(both.wrong, []);
    assert(
      both.warnings.some((w) => w.includes("drawn by their metal-rough values beside it")),
      both.warnings.join("\n"),
    );
  }
});

Deno.test("converters: the draft material extensions only used, not required, draw the same (before v41/v42: white metal)", async () => {
  for (const tool of ["fbx2gltf-common", "collada2gltf-required"] as const) {
    const file = await converterFile(tool, SEEDS[1]);
    const bytes = editedGlb(file.bytes, (json) => void delete json.extensionsRequired);
    const { refused, wrong, warnings } = await judgeExporterFile({ ...file, bytes });
    assertEquals([refused, wrong], [undefined, []], tool);
    assert(
      warnings.some((w) => / uses KHR_(materials_common|techniques_webgl) /.test(w)),
      warnings.join("\n"),
    );
  }
});

Deno.test("converters: COLLADA2GLTF's earlier spelling KHR_technique_webgl (its --glsl) is read the same", async () => {
  const file = await converterFile("collada2gltf-required", SEEDS[2]);
  const text = new TextDecoder().decode(file.bytes);
  assert(text.includes("KHR_techniques_webgl"));
  const bytes = editedGlb(file.bytes, (json) => {
    // Renamed everywhere it is named: the lists, the top-level techniques, every material.
    const renamed = JSON.parse(
      JSON.stringify(json).replaceAll("KHR_techniques_webgl", "KHR_technique_webgl"),
    );
    for (const key of Object.keys(json)) delete json[key];
    Object.assign(json, renamed);
  });
  const { refused, wrong, warnings } = await judgeExporterFile({ ...file, bytes });
  assertEquals([refused, wrong], [undefined, []]);
  assert(warnings.some((w) => w.includes("requires KHR_technique_webgl")), warnings.join("\n"));
});

Deno.test("converters: a game rip's textured draw calls without UVs are named", async () => {
  let named = 0;
  for (const seed of [...SEEDS, 104, 105]) {
    const file = await converterFile("game-rip", seed);
    type Prim = { attributes: Record<string, number>; material: number };
    const json = glbJson(file.bytes) as {
      meshes: { name: string; primitives: Prim[] }[];
      materials: { pbrMetallicRoughness: { baseColorTexture?: unknown } }[];
    };
    const lacking = json.meshes.filter((mesh) =>
      mesh.primitives.some((p) =>
        !p.attributes.TEXCOORD_0 && json.materials[p.material].pbrMetallicRoughness.baseColorTexture
      )
    );
    const { warnings } = await judgeExporterFile(file);
    for (const mesh of lacking) {
      assert(
        warnings.some((w) =>
          w.includes(`mesh '${mesh.name}' primitive 0 (no UV set)`) && /TEXCOORD_0/.test(w)
        ),
        `${file.name} ${mesh.name}\n${warnings.join("\n")}`,
      );
      named++;
    }
    // Draw calls with UVs are not named.
    const kept = json.meshes.filter((mesh) => !lacking.includes(mesh)).map((mesh) => `mesh '${mesh.name}'`);
    assert(!warnings.some((w) => kept.some((k) => w.includes(`${k} primitive`))), warnings.join("\n"));
  }
  assert(named > 0);
});

Deno.test("converters: Godot 4's single root has no transform; a root that has one is named as breaking the mark", async () => {
  const file = await exporterFile("godot4", 101);
  const json = glbJson(file.bytes) as { nodes: Record<string, unknown>[] };
  assertEquals(["matrix", "translation", "rotation", "scale"].filter((f) => f in json.nodes[0]), []);
  const kept = await judgeExporterFile(file);
  const note = kept.warnings.find((w) => w.includes("GODOT_single_root"))!;
  assert(!note.includes("breaks those terms"), note);
  // The same file with its turn on the root (as the imitation wrote it before): named.
  const bytes = editedGlb(
    file.bytes,
    (j) => void ((j.nodes as Record<string, unknown>[])[0].rotation = [0, 0.7071068, 0, 0.7071068]),
  );
  const turned = await judgeExporterFile({ ...file, bytes, parts: [] });
  const broken = turned.warnings.find((w) => w.includes("GODOT_single_root"))!;
  assert(broken.includes("breaks those terms (the root carries a rotation)"), broken);
});
