/**
 * MSFS 2024's material extensions. Emission by time of day (`ASOBO_material_day_night_switch`: emission only at
 * night; `ASOBO_material_emissive`'s day and night multipliers) kept as `KHR_materials_variants`
 * `day` and `night`, the material itself as the file draws it; and dithered transparency
 * (`ASOBO_material_alphamode_dither`) on an `OPAQUE` material drawn blended; `ASOBO_material_clear_coat_v2`
 * as `KHR_materials_clearcoat`, its colour-roughness texture read as Asobo's add-on reads it (red the
 * coat, green its roughness). Before, each was a warning that the extension is not read, the
 * emission drawn always on, the coat lost. Fixtures: the packed box (`tests/support/msfs_packed.ts`)
 * with its materials edited.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document, Material, Primitive } from "@gltf-transform/core";
import type { Clearcoat, EmissiveStrength, MappingList } from "@gltf-transform/extensions";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { packedBoxGlb } from "../../support/msfs_packed.ts";
import { validateGltf } from "../../support/validator.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

const BODY_GLOW = [1, 0.5, 0], GLASS_GLOW = [0.2, 0.2, 0.2];
const MULTIPLIERS = { emissiveDayMultiplier: 0.5, emissiveNightMultiplier: 4 };

async function decoded(edit: (json: Json) => void) {
  const ctx = testContext();
  const bytes = packedBoxGlb({ edit });
  const scene: Document =
    (await runNode(decodeGltf, { bytes: { bytes, name: "lights.glb" } }, {}, ctx)).scene;
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  return {
    scene,
    output: await readGltf(glb),
    warnings: ctx.warnings.map((w) => w.message),
    errors: (await validateGltf(glb)).messages,
  };
}

/** The material each variant maps `primitive` to. */
function variantsOf(primitive: Primitive): Record<string, Material> {
  const list = primitive.getExtension<MappingList>("KHR_materials_variants");
  const out: Record<string, Material> = {};
  for (const mapping of list?.listMappings() ?? []) {
    for (const variant of mapping.listVariants()) out[variant.getName()] = mapping.getMaterial()!;
  }
  return out;
}

const strength = (m: Material) =>
  m.getExtension<EmissiveStrength>("KHR_materials_emissive_strength")?.getEmissiveStrength() ?? 1;

Deno.test("MSFS emission by time of day: KHR_materials_variants 'day' and 'night', the file's own look the default", async () => {
  const { scene, output, warnings, errors } = await decoded((json) => {
    json.extensionsUsed.push("ASOBO_material_day_night_switch", "ASOBO_material_emissive");
    json.materials[0].emissiveFactor = BODY_GLOW;
    json.materials[0].extensions.ASOBO_material_day_night_switch = {};
    json.materials[1].emissiveFactor = GLASS_GLOW;
    json.materials[1].extensions = { ASOBO_material_emissive: MULTIPLIERS };
  });
  const [body, glass] = scene.getRoot().listMeshes()[0].listPrimitives();
  assertEquals([body.getMaterial()!.getName(), glass.getMaterial()!.getName()], ["body", "glass"]);
  // Defaults drawn as the file gives them.
  assertEquals(body.getMaterial()!.getEmissiveFactor(), BODY_GLOW);
  assertEquals(strength(glass.getMaterial()!), 1);
  // Night-only: no emission by day, the material itself by night.
  const bodyLooks = variantsOf(body);
  assertEquals(Object.keys(bodyLooks).sort(), ["day", "night"]);
  assertEquals([bodyLooks.day.getEmissiveFactor(), bodyLooks.day.getEmissiveTexture()], [[0, 0, 0], null]);
  assert(bodyLooks.night === body.getMaterial(), "night is the material itself");
  // Multipliers: the emission's strength times each.
  const glassLooks = variantsOf(glass);
  assertEquals([strength(glassLooks.day), strength(glassLooks.night)], [0.5, 4]);
  assertEquals(glassLooks.day.getEmissiveFactor(), GLASS_GLOW);
  // The written GLB keeps them.
  const written = output.getRoot().listMeshes()[0].listPrimitives().map((p) =>
    Object.keys(variantsOf(p)).sort()
  );
  assertEquals(written, [["day", "night"], ["day", "night"]]);
  assert(
    warnings.some((w) => /materials 'body', 'glass' emit by time of day .*'day' and 'night'/.test(w)),
    warnings.join("\n"),
  );
  assert(warnings.every((w) => !/which partgraph does not read/.test(w)), warnings.join("\n"));
  assertEquals(errors, []);
});

Deno.test("MSFS emission by time of day: a night-only material that emits nothing is left as it is", async () => {
  const { scene, warnings } = await decoded((json) => {
    json.extensionsUsed.push("ASOBO_material_day_night_switch");
    json.materials[0].extensions.ASOBO_material_day_night_switch = { enabled: true };
  });
  const [body] = scene.getRoot().listMeshes()[0].listPrimitives();
  assertEquals(variantsOf(body), {});
  assert(warnings.every((w) => !/time of day|does not read/.test(w)), warnings.join("\n"));
});

Deno.test("MSFS dithered transparency: an OPAQUE textured material is blended", async () => {
  const { scene, warnings, errors } = await decoded((json) => {
    json.extensionsUsed.push("ASOBO_material_alphamode_dither");
    json.materials[0].extensions.ASOBO_material_alphamode_dither = {};
  });
  assertEquals(scene.getRoot().listMaterials()[0].getAlphaMode(), "BLEND");
  assert(warnings.some((w) => /dithered material 'body' .*blended/.test(w)), warnings.join("\n"));
  assertEquals(errors, []);
});

Deno.test("MSFS 2024 clear coat (v2): its colour-roughness texture is the coat (red) and its roughness (green)", async () => {
  const { scene, warnings, errors } = await decoded((json) => {
    json.extensionsUsed.push("ASOBO_material_clear_coat_v2");
    json.materials[1].extensions = {
      ASOBO_material_clear_coat_v2: {
        clearcoatColorRoughnessTexture: { index: 0, texCoord: 1 },
        clearcoatNormalTexture: { index: 0 },
        clearcoatColorRoughnessTiling: 1,
        clearcoatNormalTiling: 4,
      },
    };
  });
  const glass = scene.getRoot().listMaterials().find((m) => m.getName() === "glass")!;
  const coat = glass.getExtension<Clearcoat>("KHR_materials_clearcoat")!;
  assert(coat, "coated");
  const body = scene.getRoot().listMaterials()[0].getBaseColorTexture();
  assert(
    coat.getClearcoatTexture() === body && coat.getClearcoatRoughnessTexture() === body,
    "the file's texture 0",
  );
  assertEquals([coat.getClearcoatFactor(), coat.getClearcoatRoughnessFactor()], [1, 1]);
  assertEquals(coat.getClearcoatTextureInfo()!.getTexCoord(), 1);
  assert(
    warnings.some((w) =>
      /ASOBO_material_clear_coat_v2 of 'glass' kept as KHR_materials_clearcoat: its clearcoatColorRoughnessTexture's red/
        .test(w)
    ),
    warnings.join("\n"),
  );
  // Set and not at their defaults: the normal texture and its tiling (not the colour tiling of 1).
  assert(
    warnings.some((w) =>
      /clear_coat_v2 of 'glass' \(clearcoatNormalTexture, clearcoatNormalTiling\): these settings/.test(w)
    ),
    warnings.join("\n"),
  );
  assert(warnings.every((w) => !/which partgraph does not read/.test(w)), warnings.join("\n"));
  assertEquals(errors, []);
});

Deno.test("MSFS detail map: the base is drawn alone and the detail layer named per material", async () => {
  const { scene, warnings, errors } = await decoded((json) => {
    json.extensionsUsed.push("ASOBO_material_detail_map");
    json.materials[0].extensions.ASOBO_material_detail_map = {
      UVScale: 8,
      detailColorTexture: { index: 0 },
      detailNormalTexture: { index: 0, scale: 0.5 },
    };
  });
  const body = scene.getRoot().listMaterials()[0];
  assert(body.getBaseColorTexture(), "the base texture is kept");
  assertEquals(body.getNormalTexture(), null);
  assert(
    warnings.some((w) =>
      /material 'body' \(colour, normal; ×8\) carries a detail layer .*drawn with the base alone/.test(w)
    ),
    warnings.join("\n"),
  );
  assert(warnings.every((w) => !/which partgraph does not read/.test(w)), warnings.join("\n"));
  assertEquals(errors, []);
});
