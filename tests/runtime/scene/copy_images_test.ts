/**
 * A scene copy shares its texture images with its source: what the export knows of a decoder-made PNG
 * by its array (written at its header's size, `isWellSizedPng`) then holds after a copy, so the
 * export's PNG check does not inflate every texture again after a node that copies its input (the
 * studio's memory tier, where no node owns its input). A new image given to the copy stays the copy's.
 */
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { Document, type Texture } from "@gltf-transform/core";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { isWellSizedPng } from "../../../runtime/scene/png_data_size.ts";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../nodes/constraints/resolve.ts";
import { runNode, testContext } from "../../support/context.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";

/** A realistic Freelancer model as decode.cmp gives it: every texture a PNG its encoder wrote. */
async function decoded(seed: number): Promise<Document> {
  const ctx = testContext();
  const bytes = realisticCmp(seed);
  return (await runNode(decodeCmp, { bytes: { bytes, name: `r${seed}.cmp` } }, { libraries: "none" }, ctx))
    .scene as Document;
}

const images = (doc: Document) => doc.getRoot().listTextures().map((t) => t.getImage());

Deno.test("copyScene keeps a decoder's PNGs known as well sized, with either kind of copy", async () => {
  for (const seed of [3, 7]) {
    const source = await decoded(seed);
    const before = images(source);
    assert(before.length > 0, `seed ${seed}: the model has textures`);
    assert(before.every((png) => png && isWellSizedPng(png)), `seed ${seed}: the decoder's PNGs are known`);
    for (const shareData of [false, true]) {
      const copy = copyScene(source, { shareData });
      const copied = images(copy);
      strictEqual(copied.length, before.length);
      const known = copied.filter((png) => png && isWellSizedPng(png)).length;
      assertEquals(known, before.length, `seed ${seed}, shareData ${shareData}: known after the copy`);
      assertEquals(images(source), before, "the source keeps its images");
    }
  }
});

Deno.test("constraints.resolve on a scene it does not own: the export's PNG check still knows every image", async () => {
  const source = await decoded(11);
  const ctx = testContext(); // owns nothing: resolve copies, as in the studio
  const resolved = (await runNode(constraintsResolve, { scene: source }, {}, ctx)).scene as Document;
  assert(resolved !== source, "resolve worked on a copy");
  const after = images(resolved);
  assert(after.length > 0);
  assertEquals(after.filter((png) => png && isWellSizedPng(png)).length, after.length);
});

Deno.test("copyScene: a new image given to the copy, or a texture without one, leaves the source as it was", () => {
  const source = new Document();
  const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
  source.createTexture("skin").setImage(png).setMimeType("image/png");
  source.createTexture("empty");
  const copy = copyScene(source);
  const [skin, empty] = copy.getRoot().listTextures() as Texture[];
  strictEqual(skin.getImage(), png, "the copy shares the image");
  strictEqual(empty.getImage(), null);
  skin.setImage(png.slice(0, 8));
  strictEqual(source.getRoot().listTextures()[0].getImage(), png, "the source keeps its image");
  assertEquals([...png], [137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
  strictEqual(source.getRoot().listTextures()[1].getImage(), null);
});
