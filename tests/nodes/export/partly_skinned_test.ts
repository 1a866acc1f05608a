/**
 * A scene built through the API with a skin on a mesh only some of whose primitives carry joint data
 * (what other decoders or a user's nodes can hand to export; decode.gltf splits such meshes itself):
 * the written glTF never has a skinned node with a primitive lacking JOINTS_0 and WEIGHTS_0. The
 * unskinned primitives are drawn by a child node at the node's own place, as three.js draws them,
 * every node drawing the mesh keeps all of it, and a warning names the node and the mesh.
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";

/** One triangle, `skinned` with joint 0 weighted 1 at every vertex. */
function triangle(doc: Document, at: number, skinned: boolean) {
  const buffer = doc.getRoot().listBuffers()[0];
  const primitive = doc.createPrimitive().setAttribute(
    "POSITION",
    doc.createAccessor().setBuffer(buffer).setType("VEC3")
      .setArray(new Float32Array([at, 0, 0, at + 1, 0, 0, at, 1, 0])),
  );
  if (!skinned) return primitive;
  return primitive
    .setAttribute(
      "JOINTS_0",
      doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(new Uint8Array(12)),
    )
    .setAttribute(
      "WEIGHTS_0",
      doc.createAccessor().setBuffer(buffer).setType("VEC4")
        .setArray(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
    );
}

/** `Body` (at 1, 2, 3) skinned to `Bone` drawing mesh `Hull` of `skinned` pattern; `Statue` draws `Hull` unskinned. */
function scene(pattern: readonly boolean[]): Document {
  const doc = new Document();
  doc.createBuffer();
  const mesh = doc.createMesh("Hull");
  pattern.forEach((skinned, i) => mesh.addPrimitive(triangle(doc, 2 * i, skinned)));
  const bone = doc.createNode("Bone");
  const skin = doc.createSkin("Rig").addJoint(bone);
  const body = doc.createNode("Body").setMesh(mesh).setSkin(skin).setTranslation([1, 2, 3]);
  const statue = doc.createNode("Statue").setMesh(mesh).setTranslation([-5, 0, 0]);
  doc.createScene("s").addChild(bone).addChild(body).addChild(statue);
  return doc;
}

type Json = {
  nodes: { name?: string; mesh?: number; skin?: number; children?: number[]; translation?: number[] }[];
  meshes: { name?: string; primitives: { attributes: Record<string, number> }[] }[];
};

function jsonOf(glb: Uint8Array): Json {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + view.getUint32(12, true))));
}

/** The first vertex x of each triangle a node and its descendants draw, sorted. */
function drawn(json: Json, n: number): number[] {
  const node = json.nodes[n];
  const own = node.mesh === undefined
    ? []
    : json.meshes[node.mesh].primitives.map((p) => p.attributes.POSITION);
  return [...own, ...(node.children ?? []).flatMap((c) => drawn(json, c))].sort((a, b) => a - b);
}

for (const pattern of [[true, false], [false, true, false], [true, true, false, true]]) {
  Deno.test(`a skin on a mesh skinned on ${pattern.map(Number).join("")} of its primitives exports as glTF allows`, async () => {
    const ctx = testContext();
    const { bytes } = await runNode(exportGltf, { scene: scene(pattern) }, { format: "glb" }, ctx);
    const json = jsonOf(bytes.bytes);
    // No skinned node draws a primitive without the pair.
    for (const node of json.nodes) {
      if (node.skin === undefined) continue;
      for (const primitive of json.meshes[node.mesh!].primitives) {
        assert.ok("JOINTS_0" in primitive.attributes && "WEIGHTS_0" in primitive.attributes, node.name);
      }
    }
    const body = json.nodes.findIndex((n) => n.name === "Body");
    const statue = json.nodes.findIndex((n) => n.name === "Statue");
    assert.equal(json.nodes[body].skin, 0);
    // Each node still draws every triangle (accessor indices of POSITION, one per triangle), and the
    // moved ones from a child with no transform of its own, unskinned.
    const all = scene(pattern).getRoot().listMeshes()[0].listPrimitives().length;
    for (const n of [body, statue]) assert.equal(drawn(json, n).length, all, json.nodes[n].name);
    assert.deepEqual(drawn(json, body), drawn(json, statue));
    const child = json.nodes[json.nodes[body].children![0]];
    assert.equal(child.translation, undefined);
    assert.equal(child.skin, undefined);
    assert.equal(json.meshes[child.mesh!].primitives.length, pattern.filter((s) => !s).length);
    for (const primitive of json.meshes[child.mesh!].primitives) {
      assert.ok(!("JOINTS_0" in primitive.attributes));
    }
    const warnings = ctx.warnings.map((w) => w.message).join("\n");
    assert.match(warnings, /node 'Body' has skin 'Rig' but \d of the \d primitives of its mesh 'Hull'/);
    const report = await validateGltf(bytes.bytes);
    assert.equal(report.errors, 0, report.messages.join("\n"));
  });
}
