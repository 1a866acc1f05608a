/**
 * `withQuietRootLists`: properties made inside are listed on the root as glTF-Transform lists them,
 * without the root's change events, and the root is as it was afterwards, also when the build throws.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { withQuietRootLists } from "../../../runtime/scene/quiet_root.ts";

/** Counts the change events the root of `doc` dispatches while `run` runs. */
function rootChanges(doc: Document, run: () => void): number {
  let changes = 0;
  const listener = () => changes++;
  doc.getRoot().addEventListener("change", listener);
  try {
    run();
  } finally {
    doc.getRoot().removeEventListener("change", listener);
  }
  return changes;
}

Deno.test("properties made inside are listed in order, with no root change event", () => {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const names = ["hull", "wing", "hull"];
  const changes = rootChanges(doc, () =>
    withQuietRootLists(doc, () => {
      for (const name of names) {
        const mesh = doc.createMesh(name);
        mesh.addPrimitive(doc.createPrimitive().setAttribute("POSITION", doc.createAccessor(name, buffer)));
        doc.createNode(name).setMesh(mesh);
      }
    }));
  assert.equal(changes, 0);
  const root = doc.getRoot();
  assert.deepEqual(root.listMeshes().map((m) => m.getName()), names);
  assert.deepEqual(root.listNodes().map((n) => n.getMesh()), root.listMeshes());
  assert.equal(root.listAccessors().length, 3);
  // Listed as addRef lists them: disposing a property takes it off the root's list.
  root.listMeshes()[1].dispose();
  assert.deepEqual(root.listMeshes().map((m) => m.getName()), ["hull", "hull"]);
  // Outside, the root's addRef is glTF-Transform's again, with its event.
  assert.ok(!Object.hasOwn(root, "addRef"));
  assert.equal(rootChanges(doc, () => doc.createMesh("late")), 1);
});

Deno.test("a build that throws leaves the root's addRef as it was", () => {
  const doc = new Document();
  assert.throws(() =>
    withQuietRootLists(doc, () => {
      doc.createMaterial("m");
      throw new Error("build failed");
    }), /build failed/);
  assert.ok(!Object.hasOwn(doc.getRoot(), "addRef"));
  assert.equal(doc.getRoot().listMaterials().length, 1);
  // Nested: the inner call leaves the outer's quiet addRef in place.
  withQuietRootLists(doc, () => {
    withQuietRootLists(doc, () => doc.createTexture("t"));
    assert.ok(Object.hasOwn(doc.getRoot(), "addRef"));
  });
  assert.ok(!Object.hasOwn(doc.getRoot(), "addRef"));
});
