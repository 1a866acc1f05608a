/**
 * Every material type Freelancer knows, read from a separate `.mat` (as a modder converts a retail
 * ship with its family's library), gets the glTF form closest to how the game draws it: alpha mode,
 * sides, lighting and colour per type; `AtmosphereMaterial` as one lit, blended colour from its ramp;
 * an `ExclusionZoneMaterial` shell blended; a type the game does not know, or knows in another case,
 * named in a warning. Expected numbers come from the shaders' sums and the sRGB formula.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { linear } from "../../../../nodes/decode/freelancer/codec/material_values.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import {
  fragmentChildren,
  materialLibrary,
  type MaterialSpec,
  meshLibrary,
} from "../../../support/freelancer/encode_model.ts";
import {
  encodeFloats,
  encodeUtf,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import {
  assertValid,
  freelancerExtras as extrasOf,
  materialNamed as material,
  refTo,
  texelTexture,
  triangleMesh,
} from "./triangle_models.ts";

await loadPngEncoder();

/**
 * Decodes a `.3db` drawing one triangle per material, whose materials and textures are all in a
 * separate `.mat` given as the `materials` input (no library search).
 */
async function decodeWithMat(materials: readonly MaterialSpec[], textures: readonly UtfNode[]) {
  const model = utfDir("\\", [
    meshLibrary([{ name: "m.vms", data: triangleMesh(materials.map((m) => m.name)) }]),
    ...fragmentChildren({ lods: [refTo("m.vms", materials.length)] }),
  ]);
  const mat = utfDir("\\", [materialLibrary(materials), utfDir("Texture library", textures)]);
  const ctx = testContext();
  const { scene } = await runNode(
    decodeCmp,
    {
      bytes: { bytes: encodeUtf(model), name: "kinds.3db" },
      materials: { bytes: encodeUtf(mat), name: "kinds.mat" },
    },
    { libraries: "none" },
    ctx,
  );
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const unlit = (scene: Document, name: string) =>
  material(scene, name).getExtension("KHR_materials_unlit") !== null;

Deno.test("every known type from a separate .mat: alpha mode, sides, lighting and colour as the game draws it", async () => {
  // [type, alpha mode, double-sided, unlit]; NullMaterial draws nothing (its own test).
  const kinds: readonly (readonly [string, string, boolean, boolean])[] = [
    ["DcDt", "OPAQUE", false, false],
    ["DcDtEc", "OPAQUE", false, false],
    ["DcDtOcOt", "BLEND", false, false],
    ["DcDtEt", "OPAQUE", false, false],
    ["DcDtBt", "OPAQUE", false, false],
    ["Nebula", "BLEND", false, true],
    ["DcDtBtEc", "OPAQUE", false, false],
    ["DcDtEcOcOt", "BLEND", false, false],
    ["DcDtTwo", "OPAQUE", true, false],
    ["DcDtEcOcOtTwo", "BLEND", true, false],
    ["DcDtEcEt", "OPAQUE", false, false],
    ["AtmosphereMaterial", "BLEND", false, false],
    ["DetailMapMaterial", "OPAQUE", false, false],
    ["Masked2DetailMapMaterial", "OPAQUE", false, false],
    ["DcDtOcOtTwo", "BLEND", true, false],
    ["DetailMap2Dm1Msk2PassMaterial", "OPAQUE", false, false],
    ["DcDtBtOcOtTwo", "BLEND", true, false],
    ["DcDtEcTwo", "OPAQUE", true, false],
    ["IllumDetailMapMaterial", "OPAQUE", false, false],
    ["DcDtBtOcOt", "BLEND", false, false],
    ["DcDtBtEcEt", "OPAQUE", false, false],
    ["DcDtBtTwo", "OPAQUE", true, false],
    ["DcDtEtTwo", "OPAQUE", true, false],
    ["NebulaTwo", "BLEND", true, true],
    ["EcEt", "OPAQUE", false, false],
    ["BtDetailMapMaterial", "MASK", false, false],
    ["BtDetailMapMaterialTwo", "OPAQUE", true, false],
    ["NomadMaterial", "BLEND", true, true],
    ["NomadMaterialNoBendy", "BLEND", true, true],
    ["GlassMaterial", "BLEND", false, false],
    ["GFGlassMaterial", "BLEND", false, false],
    ["HighGlassMaterial", "BLEND", false, false],
    ["PlanetWaterMaterial", "BLEND", false, false],
    ["ExclusionZoneMaterial", "BLEND", false, false],
    ["HUDIconMaterial", "BLEND", false, false],
    ["HUDAnimMaterial", "BLEND", false, false],
    ["Dc", "OPAQUE", false, false],
  ];
  const { scene, warnings } = await decodeWithMat(
    kinds.map(([type]) => ({ name: `as_${type}`, type, dc: [0.5, 0.25, 1], dtName: "grey.dds" })),
    [
      // Half-transparent grey: BLEND shows the alpha, OPAQUE ignores it (not DXT1, so no cut-out).
      texelTexture("grey.dds", [[[128, 128, 128, 128]]]),
      // A nomad ramp that adds nothing where the surface faces the viewer (black, opaque).
      texelTexture("NomadRGB1_NomadAlpha1", [[[0, 0, 0, 255], [0, 0, 0, 255]]]),
    ],
  );
  const lit = [linear(0.5), linear(0.25), 1, 1];
  for (const [type, alphaMode, doubleSided, isUnlit] of kinds) {
    const name = `as_${type}`;
    const m = material(scene, name);
    assert.equal(m.getAlphaMode(), alphaMode, type);
    assert.equal(m.getDoubleSided(), doubleSided, type);
    assert.equal(unlit(scene, name), isUnlit, type);
    assert.equal(m.getMetallicFactor(), 0, type);
    assert.equal(m.getRoughnessFactor(), 1, type);
    if (type === "AtmosphereMaterial") {
      // Dc × the ramp's facing texel (the 1×1 grey), opacity Alpha (absent: 1) × its alpha; no texture.
      assert.deepEqual(m.getBaseColorFactor(), [
        linear(0.5 * 128 / 255),
        linear(0.25 * 128 / 255),
        linear(128 / 255),
        128 / 255,
      ]);
      assert.ok(m.getBaseColorTexture() === null, type);
    } else if (isUnlit) {
      assert.deepEqual(m.getBaseColorFactor(), [1, 1, 1, 1], `${type}: Dc unused`);
    } else {
      assert.deepEqual(m.getBaseColorFactor(), lit, type);
      assert.ok(m.getBaseColorTexture(), type);
    }
  }
  assert.equal(extrasOf(material(scene, "as_DcDtEcEt")).type, "DcDtEt", "retail's map rewrites DcDtEcEt");
  const name = (type: string) => `material 'as_${type}' (${type})`;
  assert.deepEqual(warnings, [
    `${
      name("AtmosphereMaterial")
    }: the game colours it by the angle it is seen at (its Dt read along a ramp, ` +
    "a glow towards the rim); glTF has no view-dependent colour, so it is one colour, Dc × its ramp Dt " +
    "'grey.dds' where the surface faces the viewer: (0.251, 0.1255, 0.502) at opacity 0.502; on 1 group of part 'Root' LOD 0",
    ...["GlassMaterial", "GFGlassMaterial", "HighGlassMaterial"].map((type) =>
      `${name(type)}: the game adds an environment-map reflection to this glass; glTF has none to draw, so ` +
      "it is a blended DcDtOcOt without it, as Librelancer draws it; on 1 group of part 'Root' LOD 0"
    ),
    `${
      name("PlanetWaterMaterial")
    }: the game multiplies it over what is behind; glTF has no multiply blend, ` +
    "so it is alpha-blended as a DcDtOcOt, as Librelancer draws it; on 1 group of part 'Root' LOD 0",
    `${name("ExclusionZoneMaterial")}: the game draws this zone shell blended, tinted and faded by its ` +
    "nebula's exclusion zone (tint, max_alpha in the system ini), which the model does not hold; drawn " +
    "blended by Oc and the texture's alpha, untinted; on 1 group of part 'Root' LOD 0",
  ]);
  await assertValid(scene);
});

Deno.test("AtmosphereMaterial: Dc × the ramp's facing texel at opacity Alpha × its alpha, lit and blended, the mesh's UVs unused", async () => {
  const ramp = [
    [[10, 20, 30, 40], [50, 60, 70, 80], [200, 100, 50, 153]], // ratio 1 (facing) is the last of this row
    [[255, 255, 255, 255], [255, 255, 255, 255], [255, 255, 255, 255]],
  ];
  // A function: the test encoder lays out each node object once.
  const atmosphereLeaves = () => [
    utfLeaf("Ac", encodeFloats([0.2, 0.2, 0.2])),
    utfLeaf("Alpha", encodeFloats([0.6])),
    utfLeaf("Fade", encodeFloats([1.1])),
    utfLeaf("Scale", encodeFloats([1.03])),
  ];
  const { scene, warnings } = await decodeWithMat(
    [
      {
        name: "haze",
        type: "AtmosphereMaterial",
        dc: [0.8, 0.4, 1],
        dtName: "ramp.dds",
        leaves: atmosphereLeaves(),
      },
      {
        name: "haze_gone",
        type: "AtmosphereMaterial",
        dc: [0.8, 0.4, 1],
        dtName: "gone.dds",
        leaves: atmosphereLeaves(),
      },
    ],
    [texelTexture("ramp.dds", ramp)],
  );
  const haze = material(scene, "haze");
  // The leaves are f32, as the file stores them.
  const [r, g, alpha] = [Math.fround(0.8), Math.fround(0.4), Math.fround(0.6)];
  assert.deepEqual(haze.getBaseColorFactor(), [
    linear(r * 200 / 255),
    linear(g * 100 / 255),
    linear(50 / 255),
    alpha * 153 / 255,
  ]);
  assert.equal(haze.getAlphaMode(), "BLEND");
  assert.ok(haze.getBaseColorTexture() === null, "the ramp is not laid over the mesh's UVs");
  assert.equal(scene.getRoot().listTextures().length, 0, "no image is stored");
  const gone = material(scene, "haze_gone");
  assert.deepEqual(
    gone.getBaseColorFactor(),
    [linear(r), linear(g), 1, alpha],
    "without its ramp: Dc at Alpha",
  );
  assert.deepEqual(extrasOf(gone).texture_problems, [{
    name: "gone.dds",
    problem: "in no loaded texture library",
  }]);
  assert.deepEqual(warnings, [
    "material 'haze' (AtmosphereMaterial): the game colours it by the angle it is seen at (its Dt read along " +
    "a ramp, a glow towards the rim); glTF has no view-dependent colour, so it is one colour, Dc × its ramp " +
    "Dt 'ramp.dds' where the surface faces the viewer: (0.6275, 0.1569, 0.1961) at opacity 0.36; on 1 group of part 'Root' LOD 0",
    "texture 'gone.dds' not found in any loaded texture library; its colour is Dc alone; used by material " +
    "'haze_gone' (part 'Root' LOD 0); looked in kinds.3db and kinds.mat",
    "material 'haze_gone' (AtmosphereMaterial): the game colours it by the angle it is seen at (its Dt read " +
    "along a ramp, a glow towards the rim); glTF has no view-dependent colour, so it is one colour, Dc: " +
    "(0.8, 0.4, 1) at opacity 0.6; on 1 group of part 'Root' LOD 0",
  ]);
  await assertValid(scene);
});

Deno.test("a type the game does not know is a warning naming it, drawn lit by its tokens; a known type in another case is drawn as that type", async () => {
  const { scene, warnings } = await decodeWithMat(
    [
      { name: "mod_two", type: "MyShaderTwo", dc: [1, 1, 1], dtName: "grey.dds" },
      { name: "mod_blend", type: "FancyOcOt", dc: [1, 1, 1], oc: 0.5, dtName: "grey.dds" },
      { name: "shouty", type: "DCDT", dc: [1, 1, 1], dtName: "grey.dds" },
      { name: "glassy", type: "dcdtocot", dc: [1, 1, 1], oc: 0.5, dtName: "grey.dds" },
      { name: "smoke", type: "nebulatwo", dtName: "grey.dds" },
    ],
    [texelTexture("grey.dds", [[[128, 128, 128, 128]]])],
  );
  const modTwo = material(scene, "mod_two");
  assert.equal(modTwo.getAlphaMode(), "OPAQUE");
  assert.equal(modTwo.getDoubleSided(), true);
  assert.equal(material(scene, "mod_blend").getAlphaMode(), "BLEND");
  assert.equal(material(scene, "mod_blend").getBaseColorFactor()[3], 0.5);
  assert.equal(
    extrasOf(material(scene, "mod_two")).type,
    "MyShaderTwo",
    "an unknown type is kept as written",
  );
  assert.equal(material(scene, "shouty").getAlphaMode(), "OPAQUE");
  assert.deepEqual(
    [extrasOf(material(scene, "glassy")).type, extrasOf(material(scene, "glassy")).written_type],
    ["DcDtOcOt", "dcdtocot"],
  );
  assert.equal(material(scene, "glassy").getAlphaMode(), "BLEND", "dcdtocot is blended, as DcDtOcOt");
  const smoke = material(scene, "smoke");
  assert.equal(unlit(scene, "smoke"), true, "nebulatwo is drawn as NebulaTwo: unlit, additive");
  assert.equal(smoke.getDoubleSided(), true);
  assert.equal(smoke.getBaseColorTexture()!.getName(), "grey.dds (additive)");
  assert.deepEqual(warnings, [
    "material 'mod_two' (MyShaderTwo): 'MyShaderTwo' is not a material type the game or Librelancer knows " +
    "(a mod's own shader?); drawn as a lit DcDt, double-sided (Two); on 1 group of part 'Root' LOD 0",
    "material 'mod_blend' (FancyOcOt): 'FancyOcOt' is not a material type the game or Librelancer knows " +
    "(a mod's own shader?); drawn as a lit DcDt, blended (its name holds Oc/Ot); on 1 group of part 'Root' LOD 0",
    "material 'shouty' (DCDT): 'DCDT' is not a material type as written (types are matched exactly); drawn as " +
    "'DcDt', the known type it spells in another case; on 1 group of part 'Root' LOD 0",
    "material 'glassy' (dcdtocot): 'dcdtocot' is not a material type as written (types are matched exactly); " +
    "drawn as 'DcDtOcOt', the known type it spells in another case; on 1 group of part 'Root' LOD 0",
    "material 'smoke' (nebulatwo): 'nebulatwo' is not a material type as written (types are matched exactly); " +
    "drawn as 'NebulaTwo', the known type it spells in another case; on 1 group of part 'Root' LOD 0",
  ]);
  await assertValid(scene);
});
