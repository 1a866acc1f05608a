/**
 * A mesh no node draws (a Freelancer part's kept LOD and wireframe meshes) is written by `export.gltf`,
 * but Blender 3.4 brings it in nowhere, so a file saved from Blender lacks it: the export warns, naming
 * it, and Blender's round trip shows the warning true.
 * Skipped (the Blender half) with a message when Blender is absent.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode, testContext } from "../support/context.ts";
import { throughBlender } from "./blender.ts";
import { glbJson } from "./converted_names_clients.ts";

/** A hull drawn by a node, its LOD mesh kept beside it undrawn, and a placeholder material nothing uses. */
function hullWithLod(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const triangle = () =>
    doc.createPrimitive().setAttribute(
      "POSITION",
      doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
        new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
      ),
    );
  const paint = doc.createMaterial("Hull_Paint");
  doc.createMaterial("placeholder");
  const hull = doc.createMesh("Root.mesh").addPrimitive(triangle().setMaterial(paint));
  doc.createMesh("Root$lod1.mesh").addPrimitive(triangle().setMaterial(paint));
  doc.createScene("ship").addChild(doc.createNode("Root").setMesh(hull));
  return doc;
}

Deno.test("a mesh no node draws is named: Blender's round trip loses it", async () => {
  const ctx = testContext();
  const glb = (await runNode(exportGltf, { scene: hullWithLod() }, {}, ctx)).bytes.bytes;
  const warning = ctx.warnings.map((w) => w.message).find((w) => w.includes("drawn by no node")) ?? "";
  assert(warning.includes("mesh 'Root$lod1.mesh'"), `${warning}`);
  assert(!warning.includes("'Root.mesh'"), warning);
  const trip = await throughBlender([{ glb, extras: false }]);
  if ("skip" in trip) return console.warn(`skipped Blender: ${trip.skip}`);
  const out = trip.outputs[0];
  if ("error" in out) throw new Error(out.error);
  const back = glbJson(out.glb);
  assertEquals(back.meshes.map((m: { name: string }) => m.name), ["Root.mesh"]);
  // The unused material is lost too (not warned of: an unused placeholder is the usual case).
  assertEquals(back.materials.map((m: { name: string }) => m.name), ["Hull_Paint"]);
});

Deno.test("a node's own kept alternates (a Freelancer part's LODs) are not warned of; others still are", async () => {
  const doc = hullWithLod();
  doc.createMesh("Stray.mesh").addPrimitive(doc.getRoot().listMeshes()[0].listPrimitives()[0].clone());
  const root = doc.getRoot().listNodes()[0];
  root.setExtras({ partgraph: { freelancer: { kept_meshes: ["Root$lod1.mesh"] } } });
  const ctx = testContext();
  await runNode(exportGltf, { scene: doc }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message).filter((w) => w.includes("drawn by no node"));
  assertEquals(warnings.length, 1);
  assert(warnings[0].includes("mesh 'Stray.mesh'") && !warnings[0].includes("lod1"), warnings[0]);
});

Deno.test("a file whose every mesh is drawn gets no such warning", async () => {
  const doc = hullWithLod();
  doc.getRoot().listMeshes()[1].dispose();
  const ctx = testContext();
  await runNode(exportGltf, { scene: doc }, {}, ctx);
  assertEquals(ctx.warnings.filter((w) => w.message.includes("drawn by no node")), []);
});
