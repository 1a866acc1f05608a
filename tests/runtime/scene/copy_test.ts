import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";

function sample(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor("p", buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  );
  const indices = doc.createAccessor("i", buffer).setType("SCALAR").setArray(new Uint16Array([0, 1, 2]));
  const prim = doc.createPrimitive().setAttribute("POSITION", position).setIndices(indices);
  const node = doc.createNode("panel").setMesh(doc.createMesh("m").addPrimitive(prim)).setExtras({ a: 1 });
  doc.createScene("s").addChild(doc.createNode("root").addChild(node));
  return doc;
}

const glb = (doc: Document) => writeGlb(doc, { generator: GENERATOR });

for (const shareData of [false, true]) {
  Deno.test(`copyScene (shareData: ${shareData}) gives an equal, independent document`, async () => {
    const source = sample();
    const before = await glb(source);
    const copy = copyScene(source, { shareData });
    assertEquals(await glb(copy), before, "the copy serialises identically");
    const [panel] = copy.getRoot().listNodes().filter((n) => n.getName() === "panel");
    panel.setTranslation([1, 2, 3]).setExtras({ b: 2 });
    copy.getRoot().listNodes()[0].addChild(copy.createNode("pivot"));
    assertEquals(await glb(source), before, "changing the copy leaves the source as it was");
    const [a, b] = [source, copy].map((d) => d.getRoot().listAccessors()[1]);
    assertEquals(b.getComponentType(), a.getComponentType());
    if (shareData) strictEqual(b.getArray(), a.getArray(), "vertex data is shared, not copied");
    else assert(b.getArray() !== a.getArray(), "vertex data is copied");
  });
}
