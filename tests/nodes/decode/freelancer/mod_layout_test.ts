/**
 * Fragment layouts mod tools write that retail never does: `MultiLevel` levels named with padded or
 * spaced numbers (`Level00`, `Level 1`), which Librelancer reads by the number after `level`; materials
 * whose texture flags sample a UV set the mesh they are put on lacks.
 */
import assert from "node:assert/strict";
import { encodeVMeshRef, materialLibrary, meshLibrary } from "../../../support/freelancer/encode_model.ts";
import { encodeFloats, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import {
  assertValid,
  decodeTree,
  refTo,
  texelTexture,
  triangleMesh,
  triangleModel,
} from "./triangle_models.ts";

const level = (name: string, groups: number): UtfNode =>
  utfDir(name, [utfDir("VMeshPart", [utfLeaf("VMeshRef", encodeVMeshRef(refTo("m.vms", groups)))])]);

function model(levels: UtfNode[]): UtfNode {
  return utfDir("\\", [
    meshLibrary([{ name: "m.vms", data: triangleMesh(["hull", "hull", "hull"]) }]),
    materialLibrary([{ name: "hull" }]),
    utfDir("MultiLevel", [...levels, utfLeaf("Switch2", encodeFloats([0, 100, 200, 400]))]),
  ]);
}

/** The part's LOD meshes: LOD 0 on the node, the rest kept off-node (`kept_meshes`). */
async function lods(levels: UtfNode[]) {
  const { scene, warnings } = await decodeTree(model(levels), "mod.3db");
  const part = scene.getRoot().getDefaultScene()!.listChildren()[0];
  const info = (part.getExtras().partgraph as { freelancer: { kept_meshes?: string[] } }).freelancer;
  const triangles = part.getMesh()?.listPrimitives().reduce((n, p) => n + p.getIndices()!.getCount() / 3, 0);
  return { scene, warnings, triangles, kept: info.kept_meshes ?? [] };
}

Deno.test("MultiLevel levels named Level00, Level01, 'Level 2' are levels 0, 1, 2 (before: no mesh at all)", async () => {
  const { scene, warnings, triangles, kept } = await lods([
    level("Level00", 3),
    level("Level01", 2),
    level("Level 2", 1),
  ]);
  assert.equal(triangles, 3, "LOD 0 draws its three triangles");
  assert.equal(kept.length, 2, `LODs 1 and 2 kept: ${kept}`);
  for (const name of ["Level00", "Level01", "Level 2"]) {
    assert.ok(warnings.some((w) => w.includes(`MultiLevel/${name} is read as Level`)), warnings.join("\n"));
  }
  await assertValid(scene);
});

Deno.test("retail level names give no warning; a second level of one number is named and the first kept", async () => {
  const plain = await lods([level("Level0", 3), level("level1", 2)]);
  assert.deepEqual([plain.triangles, plain.kept.length, plain.warnings], [3, 1, []]);
  const twice = await lods([level("Level0", 3), level("Level00", 1)]);
  assert.equal(twice.triangles, 3);
  assert.ok(
    twice.warnings.some((w) => w.includes("Level00 is a second level 0 (after Level0)")),
    twice.warnings.join("\n"),
  );
});

Deno.test("a material sampling a UV set its mesh lacks (Dt_flags 0x10 on a one-set mesh, any texture on none) is named", async () => {
  const texel = [200, 40, 40, 255];
  const texture = texelTexture("t.dds", [[texel, texel, texel, texel], [texel, texel, texel, texel]]);
  const material = { name: "second_uv", dtName: "t.dds", dtFlags: 0x50 };
  const warned = async (fvf: number) =>
    (await decodeTree(triangleModel([material], { textures: [texture], fvf }), "m.3db")).warnings
      .filter((w) => w.includes("material 'second_uv' samples UV set"));
  assert.deepEqual(await warned(0x212), [], "two UV sets: the flag is met");
  const one = await warned(0x112);
  assert.equal(one.length, 1, one.join("\n"));
  assert.ok(
    one[0].includes(
      "samples UV set 2 (its texture flags), but mesh 'm.vms' (drawn on part 'Root' LOD 0) has 1 UV set",
    ),
    one[0],
  );
  const none = await warned(0x012);
  assert.ok(none[0]?.includes("has 0 UV sets; its textures cannot be placed on it"), none.join("\n"));
});
