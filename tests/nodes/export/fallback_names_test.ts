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
import { fallbackNameFaults, fallbackNamesScene, pictureNames } from "./fallback_names.ts";

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
