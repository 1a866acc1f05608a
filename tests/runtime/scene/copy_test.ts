import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { Document, Node, Property, Scene } from "@gltf-transform/core";
import { copyScene, sceneToChange, settleExtras } from "../../../runtime/scene/copy.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { runNode, testContext } from "../../support/context.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { richScene } from "../../nodes/export/check_scenes.ts";

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

Deno.test("settleExtras gives extras the form a copy gives them, and clones only what JSON would change", () => {
  const doc = new Document();
  const shared = { a: 1 };
  const odd = doc.createNode("odd").setExtras(
    { zero: -0, nan: NaN, gone: undefined, list: [1, undefined] } as never,
  );
  const first = doc.createNode("first").setExtras({ shared });
  const second = doc.createNode("second").setExtras({ shared });
  const plain = doc.createNode("plain").setExtras({ ok: [1, "s", { t: true }], n: -1.5 });
  doc.createScene("s").addChild(odd).addChild(first).addChild(second).addChild(plain);
  const plainExtras = plain.getExtras();
  const copied = copyScene(doc).getRoot().listNodes().map((node) => node.getExtras());

  settleExtras(doc);
  const settled = doc.getRoot().listNodes().map((node) => node.getExtras());
  assertEquals(settled, copied);
  assert(!Object.is((odd.getExtras() as { zero: number }).zero, -0), "-0 reads as 0, as in a copy");
  assert(
    (first.getExtras() as { shared: object }).shared !== (second.getExtras() as { shared: object }).shared,
  );
  strictEqual(plain.getExtras(), plainExtras, "extras JSON keeps as they are stay the same object");
});

Deno.test("sceneToChange: the scene itself when owned, else a copy sharing its vertex data", () => {
  const doc = new Document();
  const array = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const accessor = doc.createAccessor("p").setType("VEC3").setArray(array);
  doc.createScene("s").addChild(
    doc.createNode("n").setMesh(
      doc.createMesh("m").addPrimitive(doc.createPrimitive().setAttribute("POSITION", accessor)),
    ),
  );
  strictEqual(sceneToChange(doc, true), doc);
  const copy = sceneToChange(doc, false);
  assert(copy !== doc);
  strictEqual(copy.getRoot().listAccessors()[0].getArray(), array);
});

Deno.test("copyScene's copies are what glTF-Transform's own copy methods make, on rich and realistic scenes", async () => {
  const ctx = testContext();
  const realistic = (await runNode(decodeCmp, { bytes: { bytes: realisticCmp(2), name: "r.cmp" } }, {
    libraries: "none",
  }, ctx)).scene as Document;
  const odd = sample();
  odd.getRoot().listNodes()[0].setExtras({ nested: { list: [1, { deep: "x" }] }, n: -0 } as never);
  const listed = (doc: Document) => {
    const root = doc.getRoot();
    return [
      ...root.listAccessors(),
      ...root.listNodes(),
      ...root.listMeshes(),
      ...root.listMaterials(),
      ...root.listTextures(),
      ...root.listSkins(),
      ...root.listAnimations(),
      ...root.listCameras(),
      ...root.listScenes(),
    ];
  };
  for (
    const [label, source] of [["rich", richScene()], ["realistic", realistic], ["odd extras", odd]] as const
  ) {
    for (const shareData of [false, true]) {
      const fast = copyScene(source, { shareData });
      // The reference: the same copy with every property's own `copy` method (wrapped, so the
      // faster copy of property_copy.ts does not recognise it and calls it).
      const reference = withWrappedCopies(() => copyScene(source, { shareData }));
      assertEquals(await glb(fast), await glb(reference), `${label}: the same bytes`);
      const [from, a, b] = [listed(source), listed(fast), listed(reference)];
      strictEqual(a.length, b.length);
      a.forEach((property, i) => {
        const where = `${label}: ${property.propertyType} ${i}`;
        assertEquals(property.getExtras(), b[i].getExtras(), where);
        assert(property.getExtras() !== from[i].getExtras(), `${where}: extras are a copy`);
        if (property instanceof Node) {
          assertEquals(property.getTranslation(), (b[i] as Node).getTranslation(), where);
          assert(property.getTranslation() !== (from[i] as Node).getTranslation(), `${where}: own vector`);
        }
      });
    }
  }
});

/** Runs `run` with glTF-Transform's copy methods replaced by wrappers that call them. */
function withWrappedCopies<T>(run: () => T): T {
  const classes = [Property, Node, Scene] as const;
  const originals = classes.map((c) => Object.getOwnPropertyDescriptor(c.prototype, "copy")!);
  classes.forEach((c, i) => {
    const original = originals[i].value;
    Object.defineProperty(c.prototype, "copy", {
      ...originals[i],
      value: function (this: unknown, ...args: unknown[]) {
        return original.apply(this, args);
      },
    });
  });
  try {
    return run();
  } finally {
    classes.forEach((c, i) => Object.defineProperty(c.prototype, "copy", originals[i]));
  }
}
