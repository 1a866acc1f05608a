/**
 * The Freelancer materials the game draws unlit and blended, as glTF draws them closest:
 * `KHR_materials_unlit`, `BLEND`, over an image rewritten so that the blend gives the game's picture
 * (`Nebula`/`NebulaTwo`: additive; the nomad types: the ramp's facing texel added).
 *
 * @module
 */
import type { Document, Material } from "@gltf-transform/core";
import { KHRMaterialsUnlit } from "@gltf-transform/extensions";
import { isDoubleSided, type MaterialDef } from "./material.ts";
import type { DerivedTextures, NomadTexture } from "./scene_derived_textures.ts";
import type { SceneTextures } from "./scene_textures.ts";

/**
 * A nomad material as Librelancer's `NomadMaterial` draws it (`nomad.ts`): unlit
 * (`KHR_materials_unlit`), double-sided, `BLEND`, the diffuse texture with the ramp's facing texel
 * added; `Dc`, `Ec` and `Oc` unused, as there. Without a diffuse texture, white with the ramp's alpha.
 *
 * @example
 * ```ts
 * const out = nomadMaterial(doc, def, derived.nomad(def), textures);
 * ```
 */
export function nomadMaterial(
  doc: Document,
  def: MaterialDef,
  drawn: NomadTexture,
  textures: SceneTextures,
): Material {
  const out = doc.createMaterial(def.name).setMetallicFactor(0).setAlphaMode("BLEND").setDoubleSided(true);
  out.setExtension(KHRMaterialsUnlit.EXTENSION_NAME, doc.createExtension(KHRMaterialsUnlit).createUnlit());
  if (drawn.tex) {
    out.setBaseColorTexture(drawn.tex);
    textures.bind(def.diffuseTexture!, out.getBaseColorTextureInfo());
  } else if (!def.diffuseTexture) {
    out.setBaseColorFactor([1, 1, 1, drawn.ramp[3] / 255]);
  }
  return out;
}

/**
 * A `Nebula` / `NebulaTwo` material as Librelancer's `NebulaMaterial` draws it: the diffuse texture
 * times the vertex colour, unlit (`KHR_materials_unlit`), `Dc` and `Ec` unused, added to what is
 * behind — here `BLEND` over the texture rewritten by `additiveAsBlend`, so its black is
 * see-through instead of an opaque, lit black quad.
 *
 * @example
 * ```ts
 * const out = additiveMaterial(doc, def, derived, textures);
 * ```
 */
export function additiveMaterial(
  doc: Document,
  def: MaterialDef,
  derived: DerivedTextures,
  textures: SceneTextures,
): Material {
  const out = doc.createMaterial(def.name).setMetallicFactor(0).setAlphaMode("BLEND");
  out.setExtension(KHRMaterialsUnlit.EXTENSION_NAME, doc.createExtension(KHRMaterialsUnlit).createUnlit());
  const tex = def.diffuseTexture && derived.additive(def.diffuseTexture);
  if (tex) {
    out.setBaseColorTexture(tex);
    textures.bind(def.diffuseTexture!, out.getBaseColorTextureInfo());
  }
  if (isDoubleSided(def)) out.setDoubleSided(true);
  return out;
}
