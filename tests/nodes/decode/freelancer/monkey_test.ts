import assert from "node:assert/strict";
import { decode } from "fast-png";
import type { Document } from "@gltf-transform/core";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";

const MONKEY = "freelancer/librelancer_monkey.3db";

async function monkey(): Promise<{ bytes: Uint8Array; scene: Document; warnings: string[] }> {
  const bytes = await Deno.readFile(corpusFile(MONKEY)!);
  const ctx = testContext();
  const { scene } = await runNode(decodeCmp, { bytes: { bytes, name: "monkey.3db" } }, {}, ctx);
  return { bytes, scene, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test({
  name: "monkey.3db: one mesh, 1,966 vertices, 968 triangles, ids as in the corpus README",
  ignore: withoutCorpus(MONKEY),
  async fn() {
    const { scene, warnings } = await monkey();
    assert.deepEqual(warnings, []);
    const nodes = scene.getRoot().listNodes();
    assert.deepEqual(nodes.map((n) => n.getName()), ["Root"]);
    const meshes = scene.getRoot().listMeshes();
    assert.equal(meshes.length, 1);
    const [prim] = meshes[0].listPrimitives();
    assert.equal(meshes[0].listPrimitives().length, 1);
    assert.equal(prim.getAttribute("POSITION")!.getCount(), 1966);
    assert.equal(prim.getIndices()!.getCount() / 3, 968);
    assert.ok(prim.getAttribute("NORMAL") && prim.getAttribute("TEXCOORD_0"), "FVF 0x112");
    const meshInfo =
      (meshes[0].getExtras().partgraph as { freelancer: { mesh: string; mesh_id: string } }).freelancer;
    assert.equal(meshInfo.mesh, "monkey-Suzanne.lod0.274.vms");
    assert.equal(meshInfo.mesh_id, "0x02FC1B79");
    assert.equal(flCrc32(meshInfo.mesh), Number(meshInfo.mesh_id));
    const material = prim.getMaterial()!;
    assert.equal(material.getName(), "default");
    assert.equal(
      (material.getExtras().partgraph as { freelancer: { material_id: string } }).freelancer.material_id,
      "0x1077C687",
    );
  },
});

Deno.test({
  name: "monkey.3db: the DXT5 texture becomes a valid PNG of the DDS's size; the GLB validates",
  ignore: withoutCorpus(MONKEY),
  async fn() {
    const { bytes, scene } = await monkey();
    // Find the embedded DDS independently of the decoder and read its header.
    let at = -1;
    for (let i = 0; i + 4 <= bytes.length && at < 0; i++) {
      if (bytes[i] === 0x44 && bytes[i + 1] === 0x44 && bytes[i + 2] === 0x53 && bytes[i + 3] === 0x20) {
        at = i;
      }
    }
    assert.ok(at >= 0, "DDS magic in the file");
    const view = new DataView(bytes.buffer, bytes.byteOffset + at);
    assert.equal(String.fromCharCode(...bytes.subarray(at + 84, at + 88)), "DXT5");
    const [texture] = scene.getRoot().listTextures();
    assert.equal(texture.getName(), "default.dds");
    assert.equal(texture.getMimeType(), "image/png");
    const png = decode(texture.getImage()!);
    assert.equal(png.width, view.getUint32(16, true));
    assert.equal(png.height, view.getUint32(12, true));
    // Every alpha of this DXT5 is 255, so the PNG is RGB (v15).
    assert.equal(png.channels, 3);
    let nonBlack = 0;
    for (let i = 0; i < png.data.length; i += 3) {
      if (png.data[i] || png.data[i + 1] || png.data[i + 2]) nonBlack++;
    }
    assert.ok(nonBlack > 0, "decoded pixels carry colour");

    const glb = await writeGlb(scene, { generator: GENERATOR });
    const report = await validateGltf(glb);
    assert.equal(report.errors, 0, report.messages.join("\n"));
  },
});

Deno.test({
  name: "decode.auto sniffs the UTF signature and hands the file to decode.cmp",
  ignore: withoutCorpus(MONKEY),
  async fn() {
    const bytes = await Deno.readFile(corpusFile(MONKEY)!);
    const { scene } = await runNode(decodeAuto, { bytes: { bytes, name: "renamed.bin" } });
    assert.equal(
      (scene as Document).getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!.getCount(),
      1966,
    );
  },
});
