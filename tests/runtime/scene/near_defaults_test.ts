import assert from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { readGltf, writeGlb, writeGltfJson } from "../../../runtime/scene/gltf_io.ts";
import { decodeValue, encodeValue } from "../../../runtime/cache/codec.ts";
import { GENERATOR } from "../../../runtime/version.ts";

const options = { generator: GENERATOR };

/**
 * A 14-joint mast as FLModelTool's rounded matrices leave it: each joint 2e-6 rad off square and
 * 8e-6 units along, a scale 4e-6 off one — all inside glTF-Transform's writer's 1e-5 tolerance —
 * and one node at exactly the defaults.
 */
function mast(): { doc: Document; joints: Node[]; plain: Node } {
  const doc = new Document();
  const scene = doc.createScene("ship");
  const joints: Node[] = [];
  let parent: Document | Node = doc;
  for (let i = 0; i < 14; i++) {
    const half = (2e-6 * (i + 1)) / 2;
    const joint = doc.createNode(`mast_${i}`)
      .setRotation([Math.sin(half), 0, 0, Math.cos(half)])
      .setTranslation([0, 8e-6 * (i % 3), 0])
      .setScale([1, 1 + 4e-6 * (i % 2), 1]);
    if (parent === doc) scene.addChild(joint);
    else (parent as Node).addChild(joint);
    joints.push(joint);
    parent = joint;
  }
  const plain = doc.createNode("plain");
  scene.addChild(plain);
  return { doc, joints, plain };
}

function transforms(node: Node): number[][] {
  return [node.getTranslation(), node.getRotation(), node.getScale()];
}

Deno.test("a node's transform within 1e-5 of the default is written as the scene holds it (GLB, .gltf)", async () => {
  const { doc, joints } = mast();
  for (const bytes of [await writeGlb(doc, options), await writeGltfJson(doc, options)]) {
    const back = await readGltf(bytes);
    const read = new Map(back.getRoot().listNodes().map((node) => [node.getName(), node]));
    for (const joint of joints) {
      assert.deepEqual(transforms(read.get(joint.getName())!), transforms(joint), joint.getName());
    }
    // The tip's world matrix is where the scene put it: a mast of near-identity joints adds up.
    const tip = read.get("mast_13")!.getWorldMatrix();
    assert.deepEqual(tip, joints[13].getWorldMatrix());
  }
});

Deno.test("a transform exactly the default is still left out of the file", async () => {
  const { doc, plain } = mast();
  const text = new TextDecoder().decode(await writeGltfJson(doc, options));
  const nodes = JSON.parse(text).nodes as Record<string, unknown>[];
  const written = nodes.find((node) => node.name === plain.getName())!;
  assert.deepEqual(Object.keys(written).sort(), ["name"]);
  // A component-wise default (x, z of a scale 1 + 4e-6 in y) does not drop the others.
  assert.deepEqual(nodes.find((node) => node.name === "mast_1")!.scale, [1, 1 + 4e-6, 1]);
});

Deno.test("the scene cache hands a warm run the near-default transforms a cold run saw", async () => {
  const { doc, joints } = mast();
  const stored = await encodeValue("scene", doc);
  const warm = await decodeValue("scene", stored) as Document;
  const read = warm.getRoot().listNodes();
  joints.forEach((joint, i) => assert.deepEqual(transforms(read[i]), transforms(joint), joint.getName()));
});
