/**
 * A lit Freelancer material (the basic `DcDt…` types, the glass-like types Librelancer draws as
 * `DcDtOcOt`, and the detail-map types with their detail baked) as a glTF metallic-roughness
 * material: `Dc`/`Oc` as the base colour, `Dt` as its texture, `Ec`/`Et` as emission, LancerEdit's
 * `Nm`/`Mt`/`Rt` maps and factors, and `flip u`/`flip v` as `KHR_texture_transform`.
 *
 * @module
 */
import { type Document, type Material, type Texture, TextureInfo } from "@gltf-transform/core";
import { KHRTextureTransform } from "@gltf-transform/extensions";
import { clamp01, emission, linear } from "./material_values.ts";
import type { DetailTextures } from "./scene_detail.ts";
import {
  drawsEt,
  FLAG_SECOND_UV,
  FLIPPING_TYPES,
  isBlended,
  isDoubleSided,
  isPbr,
  type MaterialDef,
  type TextureSlot,
} from "./material.ts";
import type { SceneTextures } from "./scene_textures.ts";

/**
 * The glTF material of a lit material. `metallicRoughness` packs LancerEdit's maps; `detail`, given
 * for a detail-map type, bakes its detail into the diffuse texture (and the illum glow).
 *
 * @example
 * ```ts
 * const out = pbrMaterial(doc, def, textures, derived.metallicRoughness);
 * ```
 */
export function pbrMaterial(
  doc: Document,
  def: MaterialDef,
  textures: SceneTextures,
  metallicRoughness: (def: MaterialDef) => Texture | null,
  detail?: (def: MaterialDef) => DetailTextures,
): Material {
  const bind = textures.bind;
  const out = doc.createMaterial(def.name).setMetallicFactor(0); // roughness 1 is the default
  const dc = def.dc ?? [1, 1, 1];
  out.setBaseColorFactor([linear(dc[0]), linear(dc[1]), linear(dc[2]), clamp01(def.oc ?? 1)]);
  if (def.ec) emission(doc, out, def.ec);
  if (def.diffuseTexture && detail) {
    // A detail-map type: its diffuse texture with the detail baked in, and IllumDetailMapMaterial's
    // glow as the emissive texture, both on the diffuse texture's sampler.
    const { base, glow } = detail(def);
    if (base) {
      out.setBaseColorTexture(base);
      bind(def.diffuseTexture, out.getBaseColorTextureInfo());
    }
    if (glow) {
      out.setEmissiveTexture(glow).setEmissiveFactor([1, 1, 1]);
      bind(def.diffuseTexture, out.getEmissiveTextureInfo());
    }
  } else if (def.diffuseTexture) {
    const tex = textures.texture(def.diffuseTexture);
    if (tex) {
      out.setBaseColorTexture(tex);
      bind(def.diffuseTexture, out.getBaseColorTextureInfo());
    }
  }
  if (def.emissiveTexture && drawsEt(def)) {
    const tex = textures.texture(def.emissiveTexture);
    if (tex) {
      out.setEmissiveTexture(tex);
      // An emissive texture without a factor would be multiplied by black; the game adds Et to Ec,
      // so a black (or absent) Ec leaves Et alone.
      if (!def.ec?.some((c) => c > 0)) out.setEmissiveFactor([1, 1, 1]);
      bind(def.emissiveTexture, out.getEmissiveTextureInfo());
    }
  }
  // The game's lighting adds `Ec` to the light a texel receives before the diffuse texture
  // modulates it (Librelancer's `lighting.inc`: `ec.rgb * tex.rgb + tex.rgb * color`), so a glow
  // without an emissive texture lights the diffuse picture itself: glTF's emissive texture is the
  // diffuse one, with its sampler. Left out, `Ec` would be a flat colour over the whole surface.
  const baseColor = out.getBaseColorTexture();
  if (baseColor && !out.getEmissiveTexture() && def.ec?.some((c) => c > 0)) {
    out.setEmissiveTexture(baseColor);
    bind(def.diffuseTexture!, out.getEmissiveTextureInfo());
  }
  // LancerEdit's extensions, only when present (retail materials never carry them). Librelancer's
  // PBR shader samples every map with the first UV set and the slot's wrap flags.
  const wrapOnly = (slot: TextureSlot): TextureSlot => ({
    name: slot.name,
    flags: slot.flags & ~FLAG_SECOND_UV,
  });
  if (def.normalTexture) {
    const tex = textures.texture(def.normalTexture);
    if (tex) {
      out.setNormalTexture(tex);
      bind(wrapOnly(def.normalTexture), out.getNormalTextureInfo());
    }
  }
  if (isPbr(def)) {
    // Librelancer: metallic = clamp(Mt.r × M_factor), roughness = clamp(Rt.r × R_factor), an absent
    // factor 1 — glTF's factor × texture, with an absent map's channel 1.
    out.setMetallicFactor(clamp01(def.metallic ?? 1)).setRoughnessFactor(clamp01(def.roughness ?? 1));
    const tex = metallicRoughness(def);
    if (tex) {
      out.setMetallicRoughnessTexture(tex);
      bind(wrapOnly(def.metallicTexture ?? def.roughnessTexture!), out.getMetallicRoughnessTextureInfo());
    }
  }
  if (isBlended(def)) out.setAlphaMode("BLEND");
  if (isDoubleSided(def)) out.setDoubleSided(true);
  // Read only for a stored flipping type; drawn only while the type the game uses still flips.
  if ((def.flipU || def.flipV) && FLIPPING_TYPES.has(def.type)) flipTextures(doc, out, def);
  return out;
}

/**
 * A detail-map material as its shader reads it: no `Ec` (the shaders light with `Ac` and an emission
 * of 0) and every texture on the first UV set (`PositionTextureFlip.inc`'s one texture coordinate).
 */
export function asDetailMap(def: MaterialDef): MaterialDef {
  const { ec: _ec, ...rest } = def;
  const dt = def.diffuseTexture;
  return dt ? { ...rest, diffuseTexture: { name: dt.name, flags: dt.flags & ~FLAG_SECOND_UV } } : rest;
}

/**
 * `flip u` / `flip v`: the shader samples at `1 − u` / `1 − v` (Librelancer's
 * `IllumDetailMapMaterial.glsl`), which is KHR_texture_transform's `offset + scale · uv` with scale
 * −1 and offset 1 on the flipped axis, set on every texture the material draws.
 */
function flipTextures(doc: Document, out: Material, def: MaterialDef): void {
  const infos = [
    out.getBaseColorTexture() && out.getBaseColorTextureInfo(),
    out.getEmissiveTexture() && out.getEmissiveTextureInfo(),
    out.getNormalTexture() && out.getNormalTextureInfo(),
    out.getMetallicRoughnessTexture() && out.getMetallicRoughnessTextureInfo(),
  ].filter((info) => info instanceof TextureInfo);
  if (!infos.length) return; // nothing drawn: no extension declared
  const extension = doc.createExtension(KHRTextureTransform);
  const scale: [number, number] = [def.flipU ? -1 : 1, def.flipV ? -1 : 1];
  const offset: [number, number] = [def.flipU ? 1 : 0, def.flipV ? 1 : 0];
  for (const info of infos) {
    info.setExtension(
      KHRTextureTransform.EXTENSION_NAME,
      extension.createTransform().setScale(scale).setOffset(offset),
    );
  }
}
