/**
 * Whole scenes as exporters write them (`gltf_scene_exporters.ts`: Sketchfab with KHR_materials_* and
 * texture transforms, FBX2glTF's 0.01/100 chains and named morph targets, Babylon's mirroring
 * `__root__` and mirrored instances, three.js unindexed interleaved geometry, Unity and Godot cameras and
 * lights, LODs as sibling roots): decoded, through `graphs/gltf.json` and through
 * `graphs/aircraft_file.json`, every part is drawn where it is, facing the way it did, its normals with
 * its winding; extensions, cameras, lights and morph targets are kept; every control surface is found
 * on its own side and hinged where it is (each LOD's as LOD0's).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { editedGlb, glbJson } from "../../support/shapes.ts";
import type { Json } from "./gltf_exporter_parts.ts";
import { SCENE_EXPORTERS, type SceneExporter, sceneExporterFile } from "./gltf_scene_exporters.ts";
import {
  facingProblems,
  judgeSceneAircraft,
  judgeSceneDecode,
  judgeSceneGltfGraph,
} from "./gltf_scene_judge.ts";
import { judgeExporterFile } from "./gltf_exporter_judge.ts";
import { heldOut } from "../../support/heldout.ts";

/** Seeds the test runs (the measurement's held-out seeds are others). */
const SEEDS = [101, 102];

for (const [t, tool] of SCENE_EXPORTERS.entries()) {
  Deno.test(`scene exporters: ${tool} decodes and passes graphs/gltf.json as it draws, keeping what it carries`, async () => {
    // One seed per exporter in the suite, alternating (both seeds run, over the exporters), both
    // under `deno task heldout`.
    for (const seed of heldOut(SEEDS, (_, i) => i === t % SEEDS.length)) {
      const file = await sceneExporterFile(tool, seed);
      const decoded = await judgeSceneDecode(file);
      assertEquals([decoded.refused, decoded.wrong, decoded.warned], [undefined, [], []], file.name);
      // Only MSFT_lod's lower levels are not drawn: they are named (before v45: the extension only).
      const lod = decoded.warnings.filter((w) => /MSFT_lod/.test(w));
      if (tool === "msft-lod") {
        assertEquals(lod.length, 1, decoded.warnings.join("\n"));
        assert(
          /node 'x_LOD0' to 'x_LOD1', 'x_LOD2', 'x_LOD3'.*not drawn \(a rig still hinges their surfaces\)/
            .test(lod[0]),
          lod[0],
        );
      } else assertEquals(lod, []);
      const graph = await judgeSceneGltfGraph(file);
      assertEquals([graph.refused, graph.wrong, graph.warned], [undefined, [], []], `${file.name} gltf.json`);
    }
  });
}

const RIGGED: SceneExporter[] = [
  "babylon",
  "mirrored-instances",
  "fbx2gltf-morph",
  "unity-scene",
  "lod-siblings",
];

Deno.test("scene exporters: the aircraft graph hinges every surface on its own side, mirrored roots and instances too", async () => {
  for (const tool of RIGGED) {
    const file = await sceneExporterFile(tool, SEEDS[0]);
    const judged = await judgeSceneAircraft(file);
    assertEquals([judged.refused, judged.wrong, judged.warned], [undefined, [], []], file.name);
    assertEquals(judged.rig.right, file.panels.length, file.name);
  }
});

Deno.test("scene exporters: the judge sees faces turned inward, normals against the winding, and extras lost", async () => {
  // Every triangle of one part of the mirrored file wound the other way: drawn inside out.
  const file = await sceneExporterFile("babylon", 7);
  const { scene } = await judgeExporterFile(file);
  const node = scene!.getRoot().listNodes().find((n) => n.getName() === file.parts[0].name)!;
  const indices = node.getMesh()!.listPrimitives()[0].getIndices()!;
  const array = indices.getArray()!.slice();
  for (let t = 0; t < array.length; t += 3) [array[t + 1], array[t + 2]] = [array[t + 2], array[t + 1]];
  indices.setArray(array);
  assertEquals(facingProblems(scene!, file).map((w) => w.split(":")[0]), [
    file.parts[0].name,
    file.parts[0].name,
  ]);

  const unity = await sceneExporterFile("unity-scene", 7);
  const stripped = editedGlb(unity.bytes, (json) => {
    for (const node of json.nodes) delete node.camera, delete node.extensions;
  });
  const lost = await judgeSceneDecode({ ...unity, bytes: stripped });
  assertEquals(lost.wrong.filter((w) => /camera|light/.test(w)), [
    "camera Main Camera lost",
    "light Directional Light lost",
  ]);

  const fbx = await sceneExporterFile("fbx2gltf-morph", 7);
  const unnamed = editedGlb(fbx.bytes, (json) => {
    for (const mesh of json.meshes) delete mesh.extras;
  });
  const morph = await judgeSceneDecode({ ...fbx, bytes: unnamed });
  assert(
    morph.wrong.length > 0 && morph.wrong.every((w) => /morph target names/.test(w)),
    morph.wrong.join("\n"),
  );

  const sketchfab = await sceneExporterFile("sketchfab-pbr", 7);
  const plain = editedGlb(sketchfab.bytes, (json) => {
    for (const material of json.materials) delete material.extensions;
  });
  const pbr = await judgeSceneDecode({ ...sketchfab, bytes: plain });
  assertEquals(pbr.wrong.length, sketchfab.parts.length, pbr.wrong.join("\n"));
});

Deno.test("scene exporters: a texture's own UV set the mesh lacks, its transform's set it has: made the transform's, named; a set it has is kept", async () => {
  // Before decode.gltf v47, graphs/gltf.json refused every such file (held-out seeds 301-320: 20 of 20).
  const file = await sceneExporterFile("transform-fallback", 9);
  const textured = glbJson(file.bytes).materials.filter((m: Json) => m.pbrMetallicRoughness.baseColorTexture);
  assert(textured.length > 0, "the seed has a textured part");
  const decoded = await judgeExporterFile(file);
  const named = decoded.warnings.filter((w) => /samples through KHR_texture_transform/.test(w));
  assertEquals(named.length, textured.length, decoded.warnings.join("\n"));
  assert(named.every((w) => /baseColorTexture \(TEXCOORD_1 -> TEXCOORD_0\)/.test(w)), named[0]);
  const names = new Set(textured.map((t: Json) => t.name));
  const sets = decoded.scene!.getRoot().listMaterials().filter((m) => names.has(m.getName()))
    .map((m) => m.getBaseColorTextureInfo()!.getTexCoord());
  assertEquals(sets, textured.map(() => 0));
  // The same file whose primitives all have TEXCOORD_1: the author's fallback, kept, no word.
  const withSet = editedGlb(file.bytes, (json) => {
    for (const mesh of json.meshes) {
      for (const p of mesh.primitives) p.attributes.TEXCOORD_1 ??= p.attributes.TEXCOORD_0;
    }
  });
  const kept = await judgeExporterFile({ ...file, bytes: withSet });
  assertEquals(kept.warnings.filter((w) => /samples through KHR_texture_transform/.test(w)), []);
  const own = kept.scene!.getRoot().listMaterials().map((m) => m.getBaseColorTextureInfo()?.getTexCoord());
  assert(own.includes(1), "the fallback set stays 1");
});
