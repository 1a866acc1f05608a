/**
 * The game's `NullMaterial` ("plain transparent"; retail's `[MaterialMap]` gives it to a material
 * named `null`) draws nothing: its triangles are left out with a warning naming the part, the mesh
 * and the material; with `material_map: "none"` the stored type is drawn. Fixtures are built by code.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { encodeUtf } from "../../../support/freelancer/encode_utf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { assertValid, triangleModel } from "./triangle_models.ts";

const decode = async (model: ReturnType<typeof triangleModel>, params: Record<string, string> = {}) => {
  const ctx = testContext();
  const { scene } = await runNode(
    decodeCmp,
    { bytes: { bytes: encodeUtf(model), name: "buoy.3db" } },
    params as never,
    ctx,
  );
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
};

Deno.test("NullMaterial: its triangles are left out with a warning; the rest of the mesh is drawn", async () => {
  // Three triangles: hull, null (stored as DcDt, as an artist would leave it), plate.
  const model = triangleModel([
    { name: "hull", dc: [0.5, 0.5, 0.5] },
    { name: "null", type: "DcDt", dtName: "gone.dds" },
    { name: "plate", dc: [0.2, 0.2, 0.2] },
  ]);
  const { scene, warnings } = await decode(model, { libraries: "none" });
  const root = scene.getRoot();
  const mesh = root.listNodes().find((n) => n.getName() === "Root")!.getMesh()!;
  assert.deepEqual(mesh.listPrimitives().map((p) => p.getMaterial()!.getName()), ["hull", "plate"]);
  assert.deepEqual(root.listMaterials().map((m) => m.getName()), ["hull", "plate"]);
  // The null material's texture is neither drawn nor missed.
  assert.deepEqual(warnings, [
    "part 'Root' LOD 0 (VMeshPart/VMeshRef in buoy.3db): 1 triangle of material 'null' (NullMaterial) of " +
    "mesh 'm.vms' left out: the game draws a NullMaterial as nothing (plain transparent)",
  ]);
  await assertValid(scene);
  // Library search does not look for it either.
  const searched = await decode(model, { libraries: "auto" });
  const report = getPartgraphExtras(searched.scene.getRoot().getDefaultScene()!).libraries as {
    textures: unknown[];
    missing: { textures: string[] };
  };
  assert.deepEqual([report.textures, report.missing.textures], [[], []]);

  // material_map "none": the stored DcDt is drawn, both triangles of it.
  const stored = await decode(model, { libraries: "none", material_map: "none" });
  const prims = stored.scene.getRoot().listMeshes()[0].listPrimitives();
  assert.deepEqual(prims.map((p) => p.getMaterial()!.getName()), ["hull", "null", "plate"]);
  assert.deepEqual(stored.warnings, [
    "texture 'gone.dds' not found in any loaded texture library; its material is untextured; used by " +
    "material 'null' (part 'Root' LOD 0); looked in buoy.3db",
  ]);
});

Deno.test("NullMaterial: a part drawn only with it keeps its node, without a mesh", async () => {
  const { scene, warnings } = await decode(triangleModel([{ name: "NULL", type: "DcDt" }]), {
    libraries: "none",
  });
  const root = scene.getRoot();
  assert.equal(root.listMeshes().length, 0);
  assert.equal(root.listNodes().find((n) => n.getName() === "Root")!.getMesh(), null);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /1 triangle of material 'NULL' \(NullMaterial\) of mesh 'm\.vms' left out/);
  await assertValid(scene);
});
