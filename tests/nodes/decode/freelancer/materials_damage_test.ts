/**
 * Materials beyond `DcDt` and damage that should not cost a whole model: LancerEdit's extension
 * properties (normal, metallic and roughness maps and factors) as glTF PBR, the retail glass-like
 * types Librelancer draws alpha-blended, a damaged material leaf and a mesh reference that does
 * not fit its mesh. Fixtures are built by code; expected pixels and factors come from the rules
 * stated in each test (Librelancer's `PBR.glsl`, `Material.cs`), not from the decoder.
 */
import assert from "node:assert/strict";
import { decodePng } from "./png_pixels.ts";
import type { Document, Node } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import {
  compoundTree,
  materialLibrary,
  type MaterialSpec,
} from "../../../support/freelancer/encode_model.ts";
import {
  encodeFloats,
  encodeUtf,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { dxt1Dds } from "./fixtures.ts";
import {
  assertValid,
  decodeTree as decode,
  freelancerExtras as extrasOf,
  materialNamed as material,
  refTo,
  triangleMesh,
  triangleModel,
} from "./triangle_models.ts";

/** A .3db drawing one triangle per material, with its material and texture libraries. */
const model3db = (materials: readonly MaterialSpec[], textures: readonly UtfNode[] = []) =>
  triangleModel(materials, { textures });
import { concat } from "../../../support/freelancer/images.ts";

await loadPngEncoder();

/** A DDS file with a fourCC pixel format and the given blocks (no mip chain). */
function fourCcDds(fourCC: string, width: number, height: number, blocks: readonly number[]): Uint8Array {
  const header = new Uint8Array(128);
  const view = new DataView(header.buffer);
  view.setUint32(0, 0x20534444, true);
  view.setUint32(4, 124, true);
  view.setUint32(8, 0x100f, true);
  view.setUint32(12, height, true);
  view.setUint32(16, width, true);
  view.setUint32(76, 32, true);
  view.setUint32(80, 0x4, true);
  header.set([...fourCC].map((c) => c.charCodeAt(0)), 84);
  return concat(header, blocks);
}

/** A BC4 (ATI1) image of uniform 4×4 blocks, `values` row-major by block: every index 0 → red0. */
const bc4 = (width: number, height: number, values: readonly number[]) =>
  fourCcDds("ATI1", width, height, values.flatMap((v) => [v, 0, 0, 0, 0, 0, 0, 0]));

const node = (scene: Document, name: string): Node => {
  const found = scene.getRoot().listNodes().find((n) => n.getName() === name);
  assert.ok(found, `node '${name}'`);
  return found;
};

// ---------------------------------------------------------------------------------------------
// LancerEdit's extension properties

Deno.test("LancerEdit Nm/Mt/Rt maps and M_factor/R_factor become glTF normal and metallic-roughness", async () => {
  const root = model3db(
    [
      {
        name: "pbr",
        dtName: "paint.dds",
        nmName: "normal.dds",
        mtName: "metal.dds",
        mtFlags: 0x40 | 0x2, // clamp U
        rtName: "rough.dds",
        mFactor: 0.5,
        rFactor: 0.25,
      },
      // A factor alone turns Librelancer's PBR path on; the other factor is then 1 (BasicMaterial.Use).
      { name: "rough_only", rFactor: 0.75 },
      { name: "metal_map", mtName: "metal.dds" },
      { name: "retail", dtName: "paint.dds" },
    ],
    [
      utfDir("paint.dds", [utfLeaf("MIPS", dxt1Dds(0x07e0))]),
      utfDir("normal.dds", [utfLeaf("MIPS", fourCcDds("ATI2", 4, 4, new Array(16).fill(0)))]),
      // Metal 8×4: left block 100, right block 200. Rough 8×8: blocks 10, 20 / 30, 40.
      utfDir("metal.dds", [utfLeaf("MIPS", bc4(8, 4, [100, 200]))]),
      utfDir("rough.dds", [utfLeaf("MIPS", bc4(8, 8, [10, 20, 30, 40]))]),
    ],
  );
  const { scene, warnings } = await decode(root, "lancer.3db");
  assert.deepEqual(warnings, []);

  const pbr = material(scene, "pbr");
  assert.equal(pbr.getNormalTexture()?.getName(), "normal.dds");
  assert.equal(pbr.getNormalTextureInfo()?.getTexCoord(), 0);
  assert.equal(pbr.getMetallicFactor(), 0.5);
  assert.equal(pbr.getRoughnessFactor(), 0.25);
  const packed = pbr.getMetallicRoughnessTexture()!;
  assert.equal(packed.getName(), "metal.dds + rough.dds (metallicRoughness)");
  assert.equal(pbr.getMetallicRoughnessTextureInfo()?.getWrapS(), 33071, "Mt_flags clamp U");
  const image = decodePng(packed.getImage()!);
  assert.deepEqual([image.width, image.height], [8, 8], "the larger of 8×4 and 8×8");
  const at = (x: number, y: number) => Array.from(image.data.subarray(4 * (8 * y + x), 4 * (8 * y + x) + 4));
  // glTF: roughness in G, metallic in B. The 8×4 metal map stretches over 8 rows (nearest texel).
  assert.deepEqual(at(0, 0), [0, 10, 100, 255]);
  assert.deepEqual(at(7, 0), [0, 20, 200, 255]);
  assert.deepEqual(at(0, 7), [0, 30, 100, 255]);
  assert.deepEqual(at(7, 7), [0, 40, 200, 255]);

  const roughOnly = material(scene, "rough_only");
  assert.deepEqual([roughOnly.getMetallicFactor(), roughOnly.getRoughnessFactor()], [1, 0.75]);
  assert.equal(roughOnly.getMetallicRoughnessTexture(), null);

  // One map: the absent one's channel is 255, so its factor (1) alone counts, as in Librelancer.
  const metalMap = decodePng(material(scene, "metal_map").getMetallicRoughnessTexture()!.getImage()!);
  assert.deepEqual(Array.from(metalMap.data.subarray(0, 4)), [0, 255, 100, 255]);
  assert.deepEqual([material(scene, "metal_map").getMetallicFactor()], [1]);

  // Without the extension properties nothing changes: metallic 0, roughness 1, no maps.
  const retail = material(scene, "retail");
  assert.deepEqual([retail.getMetallicFactor(), retail.getRoughnessFactor()], [0, 1]);
  assert.equal(retail.getNormalTexture(), null);
  assert.equal(retail.getMetallicRoughnessTexture(), null);
  await assertValid(scene);
});

Deno.test("LancerEdit maps that are missing or undecodable are named; the factors still apply", async () => {
  const root = model3db(
    [{ name: "pbr", mtName: "gone.dds", rtName: "bad.dds", mFactor: 0.5, nmName: "gone_n.dds" }],
    [utfDir("bad.dds", [utfLeaf("MIPS", fourCcDds("DXT9", 4, 4, new Array(8).fill(0)))])],
  );
  const { scene, warnings } = await decode(root, "lost.3db");
  const pbr = material(scene, "pbr");
  assert.equal(pbr.getMetallicFactor(), 0.5);
  assert.equal(pbr.getMetallicRoughnessTexture(), null);
  const problems = (extrasOf(pbr).texture_problems as { name: string }[]).map((p) => p.name);
  assert.deepEqual(problems.sort(), ["bad.dds", "gone.dds", "gone_n.dds"]);
  assert.ok(
    warnings.some((w) => w.includes("Texture library/bad.dds/MIPS in lost.3db")),
    warnings.join("\n"),
  );
  await assertValid(scene);
});

// ---------------------------------------------------------------------------------------------
// Retail glass-like types

Deno.test("glass-like retail types are alpha-blended as Librelancer draws them (DcDtOcOt), and so is an ExclusionZoneMaterial shell", async () => {
  const types = [
    "HighGlassMaterial",
    "GlassMaterial",
    "HUDAnimMaterial",
    "HUDIconMaterial",
    "PlanetWaterMaterial",
    "ExclusionZoneMaterial",
  ];
  const root = model3db(types.map((type, i) => ({ name: `m${i}`, type, dc: [1, 1, 1], oc: 0.25 })));
  const { scene, warnings } = await decode(root, "glass.3db");
  // What glTF cannot draw of them (an environment map, a multiply blend, the zone's tint) is named.
  assert.deepEqual(
    warnings.map((w) => w.slice(0, w.indexOf(":"))),
    [
      "material 'm0' (HighGlassMaterial)",
      "material 'm1' (GlassMaterial)",
      "material 'm4' (PlanetWaterMaterial)",
      "material 'm5' (ExclusionZoneMaterial)",
    ],
  );
  types.forEach((type, i) => {
    const m = material(scene, `m${i}`);
    assert.equal(extrasOf(m).type, type, "the original type is kept");
    // Librelancer's nebula renderer draws an exclusion shell blended (RenderExclusionZone: Oc, AlphaEnabled).
    assert.equal(m.getAlphaMode(), "BLEND", type);
    assert.equal(m.getBaseColorFactor()[3], 0.25);
    assert.equal(m.getDoubleSided(), false);
  });
  // Librelancer draws them through its lit shader: no unlit extension.
  assert.deepEqual(scene.getRoot().listExtensionsUsed(), []);
  await assertValid(scene);
});

// ---------------------------------------------------------------------------------------------
// Damage that costs one material or one mesh reference, not the model

Deno.test("a material with a short or non-finite leaf is a named magenta placeholder and a warning with its entry path", async () => {
  const nan = new Uint8Array(encodeFloats([0.5, Number.NaN, 0.5]));
  const root = model3db([
    { name: "short_dc", leaves: [utfLeaf("Dc", encodeFloats([1, 0]))] },
    { name: "nan_ec", dc: [0.5, 0.5, 0.5], leaves: [utfLeaf("Ec", nan)] },
    { name: "fine", dc: [0, 0, 1] },
  ]);
  const { scene, warnings } = await decode(root, "damaged.3db");
  for (const [name, leaf] of [["short_dc", "Dc"], ["nan_ec", "Ec"]]) {
    const m = material(scene, name);
    assert.deepEqual(m.getBaseColorFactor(), [1, 0, 1, 1]);
    const extras = extrasOf(m);
    assert.equal(extras.placeholder, true);
    assert.equal(Number(extras.material_id), flCrc32(name));
    assert.equal((extras.damaged as { entry: string }).entry, `Material library/${name}/${leaf}`);
    assert.ok(
      warnings.some((w) =>
        w.includes(`material '${name}' (Material library/${name}/${leaf} in damaged.3db)`)
      ),
      warnings.join("\n"),
    );
  }
  assert.ok(warnings.some((w) => w.includes("a finite float")), warnings.join("\n"));
  assert.deepEqual(material(scene, "fine").getBaseColorFactor(), [0, 0, 1, 1]);
  assert.equal(scene.getRoot().listMeshes()[0].listPrimitives().length, 3, "every triangle is kept");
  assert.equal(warnings.length, 2, warnings.join("\n"));
  await assertValid(scene);
});

Deno.test("a VMeshRef selecting groups past its mesh loses its geometry only: the part, its hardpoints and its children stay", async () => {
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const mesh = triangleMesh(["hull", "hull"]);
  const tree = compoundTree({
    meshes: [{ name: "m.vms", data: mesh }],
    parts: [
      { name: "Root", fileName: "root.3db", fragment: { lods: [refTo("m.vms", 2)] } },
      {
        name: "Wing",
        fileName: "wing.3db",
        fragment: {
          // LOD 0 asks for groups 1–2 of a 2-group mesh; LOD 1 is fine.
          lods: [refTo("m.vms", 2, { groupStart: 1 }), refTo("m.vms", 1)],
          hardpoints: [{ name: "HpWingtip", kind: "fix", position: [3, 0, 0], orientation: identity }],
        },
      },
      { name: "Flap", fileName: "flap.3db", fragment: { lods: [refTo("m.vms", 1)] } },
    ],
    constraints: [
      { kind: "fix", parent: "Root", child: "Wing", translation: [5, 0, 0], rotation: identity },
      { kind: "fix", parent: "Wing", child: "Flap", translation: [0, 0, -1], rotation: identity },
    ],
    extra: [materialLibrary([{ name: "hull" }])],
  });
  const { scene, warnings } = await decode(tree, "past.cmp", true);
  const wing = node(scene, "Wing");
  assert.equal(wing.getMesh(), null, "LOD 0 is left out");
  assert.deepEqual(wing.getTranslation(), [5, 0, 0]);
  assert.ok(wing.listChildren().some((c) => c.getName() === "HpWingtip"));
  assert.equal(node(scene, "Flap").getParentNode(), wing, "the child part is still attached");
  assert.deepEqual(node(scene, "Flap").getWorldTranslation(), [5, 0, -1]);
  assert.ok(node(scene, "Root").getMesh());
  assert.deepEqual(
    warnings.filter((w) => w.includes("left out")).map((w) => w.slice(0, w.indexOf(":"))),
    ["part 'Wing' LOD 0 (wing.3db/MultiLevel/Level0/VMeshPart/VMeshRef in past.cmp)"],
  );
  assert.match(
    warnings.find((w) => w.includes("left out"))!,
    /select groups within the mesh's 2, found 1\+2/,
  );
  // LOD 1 of the same part still decodes (kept off-node, as every LOD ≥ 1 with lods: "first").
  assert.ok(scene.getRoot().listMeshes().some((m) => m.getName() === "Wing$lod1.mesh"));
  await assertValid(scene);
});

Deno.test("damage to the container itself stays a DecodeError", async () => {
  const bytes = encodeUtf(model3db([{ name: "fine" }]));
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(20, 40, true); // entry size 44 → 40
  const ctx = testContext();
  const error = await runNode(decodeCmp, { bytes: { bytes, name: "header.3db" } }, {}, ctx)
    .then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  assert.match(error.message, /entry size 44/);
});
