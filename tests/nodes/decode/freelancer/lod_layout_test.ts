/**
 * `decode.cmp`'s `lods` layout: by default a part draws LOD 0 only and its other LODs and wireframe
 * stay in the file on no node (viewers do not draw them); `lods: "all"` is LancerEdit's child-node
 * layout. Both keep the same geometry.
 */
import assert from "node:assert/strict";
import type { Document, Mesh } from "@gltf-transform/core";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { buildCompound } from "./fixtures.ts";

async function decode(lods?: string): Promise<Document> {
  const params: Record<string, string> = lods ? { lods } : {};
  const bytes = { bytes: buildCompound().bytes, name: "ship.cmp" };
  const { scene } = await runNode(decodeCmp, { bytes }, params);
  return (await runNode(constraintsResolve, { scene }, { pose: {} })).scene;
}

const meshNamed = (doc: Document, name: string): Mesh => {
  const mesh = doc.getRoot().listMeshes().find((m) => m.getName() === name);
  assert.ok(mesh, `mesh ${name}`);
  return mesh;
};

const positions = (mesh: Mesh) => Array.from(mesh.listPrimitives()[0].getAttribute("POSITION")!.getArray()!);

/** Meshes that some node in the default scene draws. */
function drawnMeshes(doc: Document): Set<Mesh> {
  const drawn = new Set<Mesh>();
  doc.getRoot().getDefaultScene()!.traverse((node) => {
    const mesh = node.getMesh();
    if (mesh) drawn.add(mesh);
  });
  return drawn;
}

Deno.test("default lods 'first': parts draw LOD 0; LOD 1 and the wireframe are kept on no node", async () => {
  const doc = await decode();
  const root = doc.getRoot().listNodes().find((n) => n.getName() === "Root")!;
  const hardpoints = root.listChildren().filter((n) => n.getExtras().hardpoint === true);
  assert.deepEqual(hardpoints.map((n) => n.getName()), ["HpMount01", "HpTurret01"]);
  const freelancer = getPartgraphExtras(root).freelancer as { kept_meshes: string[] };
  assert.deepEqual(freelancer.kept_meshes, ["Root$lod1.mesh", "Root.vmeshwire.mesh"]);
  const drawn = drawnMeshes(doc);
  assert.ok(drawn.has(root.getMesh()!), "LOD 0 is drawn");
  for (const name of freelancer.kept_meshes) assert.ok(!drawn.has(meshNamed(doc, name)), `${name} not drawn`);
  assert.ok(
    doc.getRoot().listNodes().every((n) => !/\$lod\d+$|\.vmeshwire$/.test(n.getName())),
    "no LOD or wireframe node anywhere",
  );

  // Nothing lost: the same geometry as LancerEdit's layout, and it survives export.
  const all = await decode("all");
  for (const name of freelancer.kept_meshes) {
    assert.deepEqual(positions(meshNamed(doc, name)), positions(meshNamed(all, name)), name);
  }
  const { bytes } = await runNode(exportGltf, { scene: doc });
  const report = await validateGltf(bytes.bytes);
  assert.deepEqual([report.errors, report.warnings], [0, 0], report.messages.join("\n"));
  const back = await readGltf(bytes.bytes);
  for (const name of freelancer.kept_meshes) {
    assert.deepEqual(positions(meshNamed(back, name)), positions(meshNamed(doc, name)), `${name} in the GLB`);
  }
});

Deno.test("lods 'all': LancerEdit's $lodN and .vmeshwire child nodes, nothing kept off-node", async () => {
  const doc = await decode("all");
  const root = doc.getRoot().listNodes().find((n) => n.getName() === "Root")!;
  const children = root.listChildren().map((n) => n.getName());
  assert.ok(children.includes("Root$lod1") && children.includes("Root.vmeshwire"), children.join(", "));
  assert.equal((getPartgraphExtras(root).freelancer as { kept_meshes?: string[] }).kept_meshes, undefined);
  const drawn = drawnMeshes(doc);
  assert.equal(drawn.size, doc.getRoot().listMeshes().length, "every mesh is on a node");
});
