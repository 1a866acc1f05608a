/**
 * A picture written twice — a WebP or KTX2 image and the PNG fallback `export.gltf` makes for it, or
 * the one the file carried — has one name in the written file: Blender 3.4 reads the fallback,
 * three.js the extension's image, and both call the picture what the scene called it. Before
 * `export.gltf` v49 the fallback was made unique apart from its picture (`paint_1`, or `paint_2`
 * where the file had its own `paint_1`), so Blender showed another name than three.js. Scenes from
 * `fallback_names.ts`.
 *
 * Measure: `deno test -A tests/nodes/export/fallback_names_test.ts -- 201 260`.
 *
 * @module
 */
import { deepStrictEqual as equal, ok as assert } from "node:assert/strict";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { runNode } from "../../support/context.ts";
import { glbParts } from "../../support/image_fallback.ts";
import { fallbackNameFaults, fallbackNamesScene, type Picture, pictureNames } from "./fallback_names.ts";
import { throughBlender } from "../../clients/blender.ts";

Deno.test("a picture and its PNG fallback are written under one name, the picture's own (seeds 1-30)", async () => {
  await loadPngEncoder();
  const [from, to] = Deno.args.length === 2 ? Deno.args.map(Number) : [1, 30];
  let textures = 0;
  const disagree: string[] = [], renamed: string[] = [];
  for (let seed = from; seed <= to; seed++) {
    const scene = await fallbackNamesScene(seed);
    const originals = pictureNames(scene);
    const glb = (await runNode(exportGltf, { scene })).bytes.bytes;
    const faults = fallbackNameFaults(glbParts(glb).json, originals);
    textures += faults.textures;
    disagree.push(...faults.disagree.map((f) => `seed ${seed} ${f}`));
    renamed.push(...faults.renamed.map((f) => `seed ${seed} ${f}`));
  }
  console.log(
    `textures ${textures}: names Blender and three.js disagree on ${disagree.length}, renamed for nothing ${renamed.length}`,
  );
  assert(textures > 100, `${textures} textures`);
  equal(disagree, []);
  equal(renamed, []);
});

Deno.test("Blender 3.4 calls each picture what three.js calls it (real import and export, seeds 31-40)", async (t) => {
  await loadPngEncoder();
  const written: Record<string, string>[] = [];
  const pictures: Map<string, Picture>[] = [];
  const glbs: Uint8Array[] = [];
  for (let seed = 31; seed <= 40; seed++) {
    const scene = await fallbackNamesScene(seed);
    pictures.push(pictureNames(scene));
    const glb = (await runNode(exportGltf, { scene })).bytes.bytes;
    glbs.push(glb);
    written.push(threeNames(glbParts(glb).json));
  }
  const result = await throughBlender(glbs.map((glb) => ({ glb, extras: false })));
  if ("skip" in result) return void await t.step({ name: result.skip, ignore: true, fn: () => {} });
  const differ: string[] = [];
  let textures = 0;
  result.outputs.forEach((output, i) => {
    if ("error" in output) throw new Error(output.error);
    const json = glbParts(output.glb).json;
    for (const material of json.materials ?? []) {
      const index = material.pbrMetallicRoughness?.baseColorTexture?.index;
      const blender = json.images?.[json.textures?.[index]?.source]?.name;
      const three = written[i][material.name];
      if (three === undefined || blender === undefined) continue;
      textures++;
      // A fallback the file named itself keeps its own name in Blender: not counted.
      if (pictures[i].get(material.name)?.ownFallback) continue;
      if (blender !== three) {
        differ.push(`seed ${31 + i} ${material.name}: three.js '${three}', Blender '${blender}'`);
      }
    }
  });
  console.log(`textures ${textures}: Blender names otherwise than three.js ${differ.length}`);
  assert(textures > 30, `${textures} textures`);
  equal(differ, []);
});

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** three.js's name of each material's picture in a written file (the extension's image's). */
function threeNames(json: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const material of json.materials ?? []) {
    const texture = json.textures?.[material.pbrMetallicRoughness?.baseColorTexture?.index];
    if (!texture) continue;
    const extension = texture.extensions?.EXT_texture_webp ?? texture.extensions?.KHR_texture_basisu;
    out[material.name] = json.images?.[extension?.source ?? texture.source]?.name;
  }
  return out;
}
