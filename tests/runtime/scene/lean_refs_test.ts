/**
 * A scene copy's bare nodes, and a read file's, share their empty reference collections
 * (`lean_refs.ts`): counted, not timed — the Sets, Maps and objects their nodes hold, at 2,000 and at
 * 20,000 bare nodes — and the shared collections behave as glTF-Transform's own when later filled.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { type Document, type Node, RefMap, RefSet } from "@gltf-transform/core";
import { KHRNodeVisibility } from "@gltf-transform/extensions";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { ATTRIBUTES, IMMUTABLE_KEYS } from "../../../runtime/scene/graph_internals.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { richScene } from "../../nodes/export/check_scenes.ts";
import { prng } from "../../support/prng.ts";

/**
 * The hostile fuzz's many-nodes habit on a small real scene: `count` bare nodes (`{}` in the file),
 * half of them tops of the scene and half under one node (as the family draws either), with an odd
 * one carrying a name, a visibility extension or a child of its own.
 */
function manyNodes(count: number, seed: number): Document {
  const doc = richScene();
  const random = prng(seed);
  const visibility = doc.createExtension(KHRNodeVisibility);
  const scene = doc.getRoot().listScenes()[0];
  const holder = doc.createNode("");
  scene.addChild(holder);
  for (let i = 0; i < count; i++) {
    const node = doc.createNode("");
    (i % 2 ? holder : scene).addChild(node);
    const r = random();
    if (r < 0.01) node.setName(`Node_${i}.001`);
    else if (r < 0.015) {
      node.setExtension("KHR_node_visibility", visibility.createVisibility().setVisible(false));
    } else if (r < 0.02) node.addChild(doc.createNode(`stray ${i}`));
  }
  return doc;
}

// deno-lint-ignore no-explicit-any
type Internals = Record<symbol, any>;

/** Distinct Sets, Maps and RefMap objects that a document's nodes hold in their reference collections. */
function collectionsHeld(doc: Document): number {
  const held = new Set<object>();
  for (const node of doc.getRoot().listNodes()) {
    const self = node as unknown as Internals;
    held.add(self[IMMUTABLE_KEYS!]);
    const { children, extensions } = self[ATTRIBUTES!];
    held.add(children.set).add(children.map).add(extensions.map);
  }
  return held.size;
}

Deno.test("lean refs: a copy's bare nodes hold no collections of their own (2,000 vs 20,000 nodes)", () => {
  assert(ATTRIBUTES && IMMUTABLE_KEYS, "glTF-Transform's attribute symbols are found");
  const held = [2_000, 20_000].map((count) =>
    collectionsHeld(copyScene(manyNodes(count, 17), { shareData: true }))
  );
  const perNode = (held[1] - held[0]) / 18_000;
  // Before: an immutable-key Set, a children Set and Map and an extensions object per node, 4.0.
  assert(
    perNode < 0.1,
    `a copy holds ${perNode.toFixed(2)} collections per added bare node (${held.join(" → ")})`,
  );
});

Deno.test("lean refs: a decoded file's bare nodes hold no collections of their own (2,000 vs 20,000)", async () => {
  // A decoded scene is held from its decode to its export: read as a copy is made (`leanDocument`).
  const held = [];
  for (const count of [2_000, 20_000]) {
    held.push(
      collectionsHeld(await readGltf(await writeGlb(manyNodes(count, 19), { generator: GENERATOR }))),
    );
  }
  const perNode = (held[1] - held[0]) / 18_000;
  // Before: 4.0 per node, as copies held before they were made lean.
  assert(
    perNode < 0.1,
    `a decoded file holds ${perNode.toFixed(2)} collections per added bare node (${held.join(" → ")})`,
  );
});

Deno.test("lean refs: shared empty collections filled, emptied and disposed as glTF-Transform's own", async () => {
  const source = manyNodes(300, 23);
  const before = await writeGlb(source, { generator: GENERATOR });
  const copy = copyScene(source, { shareData: true });
  assertEquals(await writeGlb(copy, { generator: GENERATOR }), before, "the copy serialises as its source");
  const leaves = copy.getRoot().listNodes().filter((n) =>
    !n.listChildren().length && !n.getName() && !n.listExtensions().length
  );
  assert(leaves.length > 200);
  const [a, b, c, d] = leaves;
  // A child added, moved to another leaf, a visibility set and removed; a leaf disposed.
  const pivot = copy.createNode("pivot");
  a.addChild(pivot);
  b.addChild(pivot);
  strictEqual(a.listChildren().length, 0);
  assertEquals(b.listChildren(), [pivot]);
  const visibility = copy.getRoot().listExtensionsUsed()[0] as KHRNodeVisibility;
  c.setExtension("KHR_node_visibility", visibility.createVisibility().setVisible(false));
  strictEqual(c.listExtensions().length, 1);
  c.setExtension("KHR_node_visibility", null);
  d.dispose();
  // Every other leaf still reads empty: what was added went to the node's own collections.
  for (const leaf of leaves.slice(4)) {
    strictEqual(leaf.listChildren().length, 0);
    strictEqual(leaf.listExtensions().length, 0);
    assert(!leaf.getExtension("KHR_node_visibility"));
  }
  strictEqual(pivot.getParentNode(), b);
  assertEquals(await writeGlb(source, { generator: GENERATOR }), before, "the source is untouched");
  // A copy of the changed copy serialises as it does (its lean collections copy as empty ones).
  const again = copyScene(copy);
  assertEquals(
    await writeGlb(again, { generator: GENERATOR }),
    await writeGlb(copy, { generator: GENERATOR }),
  );
  const named = (doc: Document) => doc.getRoot().listNodes().find((n: Node) => n.getName() === "pivot");
  strictEqual(named(again)?.getParentNode()?.getName(), "");
});

Deno.test("a copy lists no collection of a property it just made (2,000 vs 20,000 bare nodes)", () => {
  // `copyProperty` first removes the references a property holds; a copy's are fresh and hold none.
  const listed = [2_000, 20_000].map((count) => {
    const source = manyNodes(count, 29);
    const set = RefSet.prototype.values, map = RefMap.prototype.values;
    let calls = 0;
    RefSet.prototype.values = function (this: RefSet) {
      calls++;
      return set.call(this);
    };
    RefMap.prototype.values = function (this: RefMap) {
      calls++;
      return map.call(this);
    };
    try {
      copyScene(source, { shareData: true });
    } finally {
      RefSet.prototype.values = set, RefMap.prototype.values = map;
    }
    return calls;
  });
  const perNode = (listed[1] - listed[0]) / 18_000;
  // Each source node's children are listed once to be copied; before, the copy's own (empty) children
  // and extensions were listed too (3.0 a node).
  assert(
    perNode < 1.1,
    `${perNode.toFixed(2)} collections listed per added bare node (${listed.join(" → ")})`,
  );
});
