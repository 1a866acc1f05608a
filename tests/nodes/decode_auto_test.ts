import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { decodeAuto } from "../../nodes/decode/auto.ts";
import { checkGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { runNode, testContext } from "../support/context.ts";
import { corpusFile } from "../support/corpus.ts";
import { validateGltf } from "../support/validator.ts";

async function tinyGlb(): Promise<Uint8Array> {
  const doc = new Document();
  doc.createScene("s").addChild(doc.createNode("only"));
  return await writeGlb(doc, { generator: GENERATOR });
}

Deno.test("decode.auto trusts magic bytes over a misleading extension", async () => {
  const { scene } = await runNode(decodeAuto, { bytes: { bytes: await tinyGlb(), name: "model.3df" } });
  assertEquals(scene.getRoot().listNodes().map((n: { getName(): string }) => n.getName()), ["only"]);
});

Deno.test("decode.auto refuses unknown bytes with a typed error naming the file", async () => {
  const error = await runNode(decodeAuto, {
    bytes: { bytes: new Uint8Array([1, 2, 3]), name: "mystery.xyz" },
  })
    .catch((e) => e);
  assert(error instanceof DecodeError);
  assertEquals([error.format, error.file, error.found], [
    "auto",
    "mystery.xyz",
    "unrecognised bytes in 'mystery.xyz'",
  ]);
  // A download still zipped, or a model in a format no decoder reads, is named with what to do.
  const zipped = await runNode(decodeAuto, {
    bytes: { bytes: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]), name: "fighter.zip" },
  }).catch((e) => e);
  assertEquals(zipped.found, "a ZIP archive (unpack it and give the model inside) in 'fighter.zip'");
  const blend = await runNode(decodeAuto, {
    bytes: { bytes: new TextEncoder().encode("BLENDER-v300"), name: "fighter.blend" },
  }).catch((e) => e);
  assertEquals(blend.found, "a .blend file (export it as glTF from Blender) in 'fighter.blend'");
  await rejects(runNode(decodeAuto, { bytes: { bytes: new Uint8Array(0), name: "empty" } }), DecodeError);
});

Deno.test({
  name: "decode.auto passes options to the chosen decoder and warns about ones it does not take",
  ignore: !corpusFile("carnivores/synthetic_quad.3df"),
  async fn() {
    const bytes = {
      bytes: await Deno.readFile(corpusFile("carnivores/synthetic_quad.3df")!),
      name: "quad.3df",
    };
    const extent = (doc: Document) => {
      const pos = doc.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!;
      return pos.getMax([0, 0, 0])[0] - pos.getMin([0, 0, 0])[0];
    };
    const plain = await runNode(decodeAuto, { bytes }, { options: { scale: 1 } });
    const ctx = testContext();
    const scaled = await runNode(decodeAuto, { bytes }, { options: { scale: 2, colour: "red" } }, ctx);
    assert(extent(plain.scene) > 0);
    assert(Math.abs(extent(scaled.scene) - 2 * extent(plain.scene)) < 1e-5);
    assertEquals(ctx.warnings.length, 1);
    assert(ctx.warnings[0].message.includes("colour"));
  },
});

Deno.test("a scene with no geometry writes a valid GLB (no empty buffer)", async () => {
  const doc = new Document();
  doc.createBuffer();
  doc.createScene("s").addChild(doc.createNode("empty"));
  const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
  assertEquals(report.errors, 0, report.messages.join("\n"));
  assertEquals(doc.getRoot().listBuffers().length, 1, "the input document is left as it was");
});

Deno.test("decode.auto: an option a decoder declares is checked against its spec by check, at its JSON path", async () => {
  const graph = (options: Record<string, unknown>): GraphFile => ({
    version: 1,
    inputs: { options: { type: "json", default: {} } },
    nodes: {
      read: { type: "io.read", params: { path: "model.3df" } },
      literal: {
        type: "decode.auto",
        inputs: { bytes: "read.bytes" },
        params: { options: options as never },
      },
      fed: {
        type: "decode.auto",
        inputs: { bytes: "read.bytes" },
        params: { options: { $input: "options" } },
      },
    },
  });
  assertEquals(await checkGraph(graph({ scale: 0.0145, colour: "red" })), []);
  const issues = await checkGraph(graph({ scale: -5 }), { inputs: { options: { scale: -5 } } });
  assertEquals(issues.map((i) => `${i.kind} ${i.path}`).sort(), [
    "bad_param /nodes/fed/params/options/scale",
    "bad_param /nodes/literal/params/options/scale",
  ]);
  assert(issues.every((i) => i.message.includes("decode.3df")), JSON.stringify(issues));
});
