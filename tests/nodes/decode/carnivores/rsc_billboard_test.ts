/**
 * `decode.rsc` v2: a C2 object's far billboard — the 128×128 picture the game draws in the object's
 * place at a distance (`LoadBMPModel`) — is carried as an upright quad over the object's X–Y extent,
 * texel 0x0000 cut out (the hardware renderers give only non-zero texels the alpha bit), in a row
 * behind the ground textures under its object; C1 areas have none.
 */
import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { decode as decodePng } from "fast-png";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { decodeRsc } from "../../../../nodes/decode/carnivores/decode_rsc.ts";
import { walkRsc } from "../../../../nodes/decode/carnivores/codec/rsc_layout.ts";
import { boxModel, limbModel } from "./fixtures.ts";

const SCALE = 0.1;

async function decode(bytes: Uint8Array): Promise<{ scene: Document; warnings: string[] }> {
  const ctx = testContext();
  const { scene } = await runNode(decodeRsc, { bytes: { bytes, name: "area1.rsc" } }, { scale: SCALE }, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const byName = (doc: Document, name: string) => doc.getRoot().listNodes().find((n) => n.getName() === name)!;

/** Quad corners' (x, y) in the node's space. */
function corners(node: Node): number[][] {
  const position = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  return Array.from({ length: position.getCount() }, (_, i) => position.getElement(i, []).slice(0, 2));
}

Deno.test("decode.rsc (C2): each object's far billboard is a keyed, upright quad over its X–Y extent", async () => {
  const models = [limbModel(), boxModel(6, 0x03e0)];
  const bytes = encodeRsc({
    version: "c2",
    textures: 1,
    objects: [{ model: models[0], billboardWord: 0x7c00 }, { model: models[1], billboardWord: 0x001f }],
  });
  // Object 1's picture: its left half texel 0 (transparent in the game), its right half blue.
  const layout = walkRsc(bytes, "c2");
  assert.ok("objects" in layout);
  const view = new DataView(bytes.buffer);
  for (let y = 0; y < 128; y++) {
    for (let x = 0; x < 64; x++) view.setUint16(layout.objects[1].billboard + 2 * (y * 128 + x), 0, true);
  }
  const { scene, warnings } = await decode(bytes);
  assert.deepEqual(warnings, []);

  for (const [index, model] of models.entries()) {
    const object = byName(scene, `obj_0${index}`);
    const billboard = byName(scene, `billboard_0${index}`);
    assert.equal(billboard.getParentNode()?.getName(), "billboards");
    const extras = getPartgraphExtras(object).carnivores as { object: { billboard: unknown } };
    assert.deepEqual(extras.object.billboard, { width: 128, height: 128, node: `billboard_0${index}` });
    assert.deepEqual(getPartgraphExtras(billboard).billboard, { object: index, width: 128, height: 128 });
    // Under its object's X, behind the objects and the ground row.
    assert.equal(billboard.getWorldTranslation()[0], object.getWorldTranslation()[0]);
    assert.ok(billboard.getWorldTranslation()[2] > byName(scene, "ground_00").getWorldTranslation()[2]);
    // Its corners are the model's X and Y extremes (file units × scale), upright in z = 0.
    const p = model.points.positions;
    const xs = Array.from({ length: p.length / 3 }, (_, i) => p[3 * i]);
    const ys = Array.from({ length: p.length / 3 }, (_, i) => p[3 * i + 1]);
    const expected = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)].map((v) =>
      Math.fround(v * SCALE)
    );
    const got = corners(billboard);
    assert.deepEqual(
      [
        Math.min(...got.map((c) => c[0])),
        Math.max(...got.map((c) => c[0])),
        Math.min(...got.map((c) => c[1])),
        Math.max(...got.map((c) => c[1])),
      ],
      expected,
    );
    const material = billboard.getMesh()!.listPrimitives()[0].getMaterial()!;
    assert.equal(material.getAlphaMode(), "MASK");
    assert.equal(material.getDoubleSided(), true);
  }

  const png = (index: number) =>
    decodePng(
      byName(scene, `billboard_0${index}`).getMesh()!.listPrimitives()[0].getMaterial()!
        .getBaseColorTexture()!
        .getImage()!,
    );
  const texel = (image: ReturnType<typeof decodePng>, x: number, y: number) =>
    Array.from(image.data.slice((y * 128 + x) * 4, (y * 128 + x) * 4 + 4));
  const red = png(0);
  assert.deepEqual([red.width, red.height], [128, 128]);
  assert.deepEqual(texel(red, 5, 5), [255, 0, 0, 255]);
  const halved = png(1);
  assert.equal(texel(halved, 10, 70)[3], 0, "texel 0x0000 is cut out");
  assert.deepEqual(texel(halved, 100, 70), [0, 0, 255, 255]);

  const validation = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(validation.errors, 0, JSON.stringify(validation));
});

Deno.test("decode.rsc (C1): no billboards, none in the scene", async () => {
  const { scene } = await decode(encodeRsc({ version: "c1", objects: [{ model: limbModel() }] }));
  assert.equal(scene.getRoot().listNodes().some((n) => /^billboard/.test(n.getName())), false);
  const extras = getPartgraphExtras(byName(scene, "obj_00")).carnivores as { object: { billboard: unknown } };
  assert.equal(extras.object.billboard, null);
});
