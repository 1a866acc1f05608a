/**
 * NaN and ±Infinity in extras: JSON has no such numbers, so the written file holds `null` there and
 * every client reads `null`. `export.gltf` (v33) names each property and place; before, silently.
 *
 * @module
 */
import { deepStrictEqual as equal, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { prng } from "../../support/prng.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** Extras a decoder computed from a damaged file: a ratio over a zero length, a log of 0, a 0/0 mean. */
function computedExtras(seed: number, broken: boolean): Document {
  const rng = prng(seed);
  const doc = new Document();
  const scene = doc.createScene("Scene");
  for (let i = 0; i < 6; i++) {
    const length = broken && i % 3 === 1 ? 0 : 1 + rng();
    scene.addChild(
      doc.createNode(`part_${i}`).setExtras({
        partgraph: { fit: { ratio: rng() / length, log: Math.log(length), mean: [0, rng() * 0 / length] } },
      }),
    );
  }
  doc.createMaterial("Paint").setExtras({ gloss: broken ? -1 / 0 : 0.5 });
  return doc;
}

Deno.test("NaN and Infinity in extras are written null, each property named with its places", async () => {
  const ctx = testContext();
  const glb = (await runNode(exportGltf, { scene: computedExtras(7, true) }, {}, ctx)).bytes.bytes;
  const json = glbJson(glb);
  const warned = ctx.warnings.map((w) => w.message).filter((w) => w.includes("NaN or Infinity"));
  // part_1 and part_4 divided by a zero length: every place whose number the file lost is named.
  for (const name of ["part_1", "part_4"]) {
    const node = json.nodes.find((n: Json) => n.name === name);
    equal(node.extras.partgraph.fit.ratio, null);
    const message = warned.find((w) => w.includes(`node '${name}'`)) ?? "";
    assert(
      message?.includes("extras.partgraph.fit.ratio") && message.includes("extras.partgraph.fit.log"),
      `${warned}`,
    );
    assert(message.includes("extras.partgraph.fit.mean[1]"), message);
  }
  assert(warned.some((w) => w.includes("material 'Paint'") && w.includes("extras.gloss")), `${warned}`);
  equal(warned.length, 3, warned.join("\n"));
});

Deno.test("finite extras bring no such warning", async () => {
  const ctx = testContext();
  await runNode(exportGltf, { scene: computedExtras(7, false) }, {}, ctx);
  equal(ctx.warnings.filter((w) => w.message.includes("NaN or Infinity")), []);
});

Deno.test("NaN in extras is named when the scene also needs a repair (the repair copy turns it into null)", async () => {
  for (const seed of [11, 12, 13]) {
    const doc = computedExtras(seed, true);
    // A damaged file's vertex: a NaN coordinate, which the repair sets to 0 in a copy of the scene.
    const rng = prng(seed);
    const position = doc.createAccessor().setType("VEC3")
      .setArray(new Float32Array([0, 0, 0, 1, rng(), 0, NaN, 1, 0]));
    const mesh = doc.createMesh("Hull").addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position),
    );
    mesh.listPrimitives()[0].setExtras({ area: 0 / 0 });
    doc.getRoot().listScenes()[0].addChild(doc.createNode("hull").setMesh(mesh));
    doc.getRoot().setExtras({ scale: 1 / 0 });
    const ctx = testContext();
    const glb = (await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes;
    const json = glbJson(glb);
    const messages = ctx.warnings.map((w) => w.message);
    assert(messages.some((w) => w.includes("non-finite value(s) in accessor")), messages.join("\n"));
    const warned = messages.filter((w) => w.includes("NaN or Infinity"));
    equal(json.nodes.find((n: Json) => n.name === "part_1").extras.partgraph.fit.ratio, null);
    assert(
      warned.some((w) => w.includes("node 'part_1'") && w.includes("extras.partgraph.fit.ratio")),
      `${warned}`,
    );
    assert(warned.some((w) => w.includes("material 'Paint'") && w.includes("extras.gloss")), `${warned}`);
    assert(warned.some((w) => w.includes("primitive") && w.includes("extras.area")), `${warned}`);
    assert(warned.some((w) => w.includes("the file") && w.includes("extras.scale")), `${warned}`);
    equal(json.extras.scale, null);
    equal(warned.length, 5, warned.join("\n"));
  }
});

Deno.test("NaN in extras is named when a node before the export copied the scene (the copy wrote null)", async () => {
  const { copyScene, sceneToChange, settleExtras } = await import("../../../runtime/scene/copy.ts");
  const paths = {
    "a rig node's copy sharing the data": (doc: Document) => sceneToChange(doc, false),
    "a full copy, twice": (doc: Document) => copyScene(copyScene(doc)),
    "a run handing the scene to its owner": (doc: Document) => (settleExtras(doc), doc),
  };
  for (const [path, carry] of Object.entries(paths)) {
    const doc = carry(computedExtras(21, true));
    equal(doc.getRoot().listNodes()[1].getExtras(), {
      partgraph: { fit: { ratio: null, log: null, mean: [0, null] } },
    });
    // A node after the copy wrote a number at one place: that one is no longer lost.
    const extras = doc.getRoot().listNodes()[4].getExtras() as Json;
    extras.partgraph.fit.ratio = 2;
    const ctx = testContext();
    await runNode(exportGltf, { scene: doc }, {}, ctx);
    const warned = ctx.warnings.map((w) => w.message).filter((w) => w.includes("NaN or Infinity"));
    const part1 = warned.find((w) => w.includes("node 'part_1'")) ?? "";
    for (
      const place of [
        "extras.partgraph.fit.ratio",
        "extras.partgraph.fit.log",
        "extras.partgraph.fit.mean[1]",
      ]
    ) {
      assert(part1.includes(place), `${path}: ${warned}`);
    }
    const part4 = warned.find((w) => w.includes("node 'part_4'")) ?? "";
    assert(part4.includes("extras.partgraph.fit.log") && !part4.includes("fit.ratio"), `${path}: ${part4}`);
    assert(
      warned.some((w) => w.includes("material 'Paint'") && w.includes("extras.gloss")),
      `${path}: ${warned}`,
    );
    equal(warned.length, 3, `${path}: ${warned.join("\n")}`);
  }
});
