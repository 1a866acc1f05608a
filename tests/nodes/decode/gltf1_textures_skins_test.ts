/**
 * glTF 1.0 RGB textures and unused skins. A 1.0 texture uploaded as RGB (`format` 6407) is drawn
 * without its image's alpha; the upgraded 2.0 material must draw the same (opaque when its
 * transparency is 1, else blending by its transparency alone over an RGB copy of the image). A skin
 * no node uses is kept, as gltf-pipeline keeps it. Fixtures are code-made 1.0 files
 * (`tests/support/gltf1.ts`) of the skinned wing, whose texture is a PNG with alpha 200.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { decode as decodePng } from "fast-png";
import type { Document } from "@gltf-transform/core";
import type { Json } from "../../support/gltf1.ts";
import { decodedWing } from "./gltf1_wing.ts";

/** Blending on in every technique, the textures uploaded as `format`, and `transparency` when given. */
function blended(format: number, transparency?: number) {
  return (json: Json) => {
    for (const technique of Object.values(json.techniques) as Json[]) technique.states.enable.push(3042);
    for (const texture of Object.values(json.textures) as Json[]) {
      texture.format = texture.internalFormat = format;
    }
    if (transparency !== undefined) {
      for (const material of Object.values(json.materials) as Json[]) {
        material.values.transparency = transparency;
      }
    }
  };
}

/** The wing's material and the pixels of its base colour image. */
function wingLook(scene: Document) {
  const material = scene.getRoot().listMaterials().find((m) => m.getName() === "painted")!;
  const png = decodePng(material.getBaseColorTexture()!.getImage()!);
  return { material, channels: png.channels, first: [...png.data.subarray(0, png.channels)] };
}

Deno.test("glTF 1.0 RGB texture: a blended material of transparency 1 is drawn opaque, as 1.0 draws it", async () => {
  const { scene, warnings, errors } = await decodedWing(blended(6407));
  const { material, channels, first } = wingLook(scene);
  assertEquals(material.getAlphaMode(), "OPAQUE");
  // The image is as it was (opaque drawing ignores its alpha).
  assertEquals([channels, first], [4, [200, 200, 200, 200]]);
  assert(
    warnings.some((w) =>
      /at \/materials\/material_0: its blended diffuse texture is RGB .*drawn opaque/.test(w)
    ),
    warnings.join("\n"),
  );
  assertEquals(errors, []);
});

Deno.test("glTF 1.0 RGB texture: with a transparency below 1 it blends by that alone, over an RGB copy of the image", async () => {
  const { scene, warnings, errors } = await decodedWing(blended(6407, 0.5));
  const { material, channels, first } = wingLook(scene);
  assertEquals(material.getAlphaMode(), "BLEND");
  assertEquals(material.getBaseColorFactor()[3], 0.5);
  assertEquals([channels, first], [3, [200, 200, 200]]);
  assert(warnings.some((w) => /at \/materials\/material_0: .*an RGB copy/.test(w)), warnings.join("\n"));
  assertEquals(errors, []);
});

Deno.test("glTF 1.0 RGBA texture: a blended material keeps blending by the image's alpha", async () => {
  const { scene, warnings } = await decodedWing(blended(6408, 0.5));
  const { material, channels, first } = wingLook(scene);
  assertEquals(material.getAlphaMode(), "BLEND");
  assertEquals([channels, first], [4, [200, 200, 200, 200]]);
  assert(warnings.every((w) => !/is RGB in glTF 1\.0/.test(w)), warnings.join("\n"));
});

Deno.test("glTF 1.0 skins: one no node uses is kept; one naming no node's joint is left out with a warning", async () => {
  const { scene, warnings, errors } = await decodedWing((json) => {
    json.skins.skin_spare = { ...json.skins.skin_0, name: "spare" };
    json.skins.skin_broken = { ...json.skins.skin_0, name: "broken", jointNames: ["joint_0", "nobody"] };
  });
  const skins = scene.getRoot().listSkins();
  assertEquals(skins.map((s) => s.getName()), ["wing_skin", "spare"]);
  assertEquals(skins[1].listJoints().map((j) => j.getName()), skins[0].listJoints().map((j) => j.getName()));
  assertEquals(skins[1].getInverseBindMatrices(), skins[0].getInverseBindMatrices());
  assert(
    warnings.some((w) =>
      /at \/skins\/skin_broken\/jointNames\/1: no node has the joint name "nobody"/.test(w)
    ),
    warnings.join("\n"),
  );
  assertEquals(errors, []);
});
