/**
 * The materials and textures of a Freelancer model's glTF scene: PBR materials from the material
 * libraries (`Dc`/`Ec`/`Oc`, `Dt`/`Et`, LancerEdit's `Nm`/`Mt`/`Rt` and factors), textures decoded to
 * PNG once per name, and named placeholders where a material is missing or damaged or a texture
 * cannot be decoded — each named in a warning.
 *
 * @module
 */
import { type Document, type Material, type Texture, TextureInfo } from "@gltf-transform/core";
import { KHRMaterialsUnlit, KHRTextureTransform } from "@gltf-transform/extensions";
import type { WarningSink } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { encodeRgbaPng, type RgbaPixels } from "../../../../runtime/scene/png.ts";
import { additiveAsBlend, isAdditive } from "./additive.ts";
import { clamp01, emission, linear, packMetallicRoughness } from "./material_values.ts";
import { materialCaveats } from "./material_caveats.ts";
import { DETAIL_TYPES } from "./detail_map.ts";
import { type DetailTextures, sceneDetailTextures } from "./scene_detail.ts";
import { formatId } from "./crc.ts";
import {
  drawsEt,
  FLAG_CLAMP_U,
  FLAG_CLAMP_V,
  FLAG_SECOND_UV,
  FLIPPING_TYPES,
  isAlphaTested,
  isBlended,
  isDoubleSided,
  isNomad,
  isPbr,
  type MaterialDef,
  nomadSlot,
  type TextureSlot,
  textureSlots,
} from "./material.ts";
import type { FreelancerModel } from "./model.ts";
import { addsNothing, NO_RAMP, nomadImage, rampFacing, type Texel } from "./nomad.ts";
import { placeholderTexturePng, resolveTexture, resolveTexturePixels } from "./texture.ts";

const CLAMP_TO_EDGE = TextureInfo.WrapMode.CLAMP_TO_EDGE;

/**
 * The material lookup of one scene: `material(id)` gives the glTF material for a material id,
 * made on first use (with its textures) and shared after.
 *
 * @example
 * ```ts
 * const material = sceneMaterials(doc, model, warn);
 * primitive.setMaterial(material(0x1077c687));
 * ```
 */
export function sceneMaterials(
  doc: Document,
  model: FreelancerModel,
  warn: WarningSink,
): (id: number) => Material {
  const materials = new Map<number, Material>();
  const textures = new Map<string, Texture | null>();
  /** Per texture key: why it is not drawn, when it is not (recorded on the materials naming it). */
  const textureProblems = new Map<string, string>();
  /** Texture keys of DXT1 images with transparent texels (drawn alpha-tested as a diffuse map). */
  const cutouts = new Set<string>();
  const texture = (slot: TextureSlot): Texture | null => {
    const key = slot.name.toLowerCase();
    if (!textures.has(key)) {
      const dir = model.textures.get(key);
      const from = model.sources.textures.get(key);
      const where = `Texture library/${dir?.name ?? slot.name}${from ? ` in ${from}` : ""}`;
      let out: Texture | null = null;
      if (!dir) {
        textureProblems.set(key, "in no loaded texture library");
        warn(`texture '${slot.name}' not found in any loaded texture library; its material is untextured`);
      } else {
        const outcome = resolveTexture(
          dir,
          `Texture library/${dir.name}`,
          (name) => model.textures.get(name),
        );
        if (outcome.kind === "png") {
          for (const note of outcome.notes) warn(`${note}${from ? ` (${from})` : ""}`);
          if (outcome.cutout) cutouts.add(key);
          out = doc.createTexture(slot.name).setImage(outcome.png).setMimeType("image/png");
        } else if (outcome.kind === "none") {
          textureProblems.set(key, outcome.reason);
          warn(`texture '${slot.name}' (${where}) holds ${outcome.reason}; its material is untextured`);
        } else {
          // One image in a format we do not read should not cost the model its geometry, nor pass
          // for the material's own colour: a named checkerboard stands in, and the warning says why.
          textureProblems.set(key, `undecodable: ${outcome.reason}`);
          warn(
            `texture '${slot.name}' (${outcome.entry}${from ? ` in ${from}` : ""}) could not be decoded ` +
              `(${outcome.reason}); the placeholder image '${slot.name} (undecodable)' stands in`,
          );
          out = doc.createTexture(`${slot.name} (undecodable)`).setImage(placeholderTexturePng())
            .setMimeType("image/png");
          setPartgraphExtras(out, {
            freelancer: { placeholder: true, texture: slot.name, reason: outcome.reason },
          });
        }
      }
      textures.set(key, out);
    }
    return textures.get(key)!;
  };

  // Only what differs from glTF-Transform's defaults (REPEAT, UV set 0): every setter dispatches events.
  const bindTexture = (slot: TextureSlot, info: TextureInfo | null) => {
    if (!info) return;
    if (slot.flags & FLAG_CLAMP_U) info.setWrapS(CLAMP_TO_EDGE);
    if (slot.flags & FLAG_CLAMP_V) info.setWrapT(CLAMP_TO_EDGE);
    if (slot.flags & FLAG_SECOND_UV) info.setTexCoord(1);
  };

  /**
   * Per texture key: the decoded pixels of a map that is repacked before it is stored, null when
   * it has none; `without` says in the warning what the material does then.
   */
  const channelMaps = new Map<string, RgbaPixels | null>();
  const channelMap = (
    slot: TextureSlot | undefined,
    without = "its factor alone is used",
  ): RgbaPixels | null => {
    if (!slot) return null;
    const key = slot.name.toLowerCase();
    if (!channelMaps.has(key)) {
      const dir = model.textures.get(key);
      const from = model.sources.textures.get(key);
      let out: RgbaPixels | null = null;
      if (!dir) {
        textureProblems.set(key, "in no loaded texture library");
        warn(`texture '${slot.name}' not found in any loaded texture library; ${without}`);
      } else {
        const outcome = resolveTexturePixels(
          dir,
          `Texture library/${dir.name}`,
          (n) => model.textures.get(n),
        );
        if (outcome.kind === "png") {
          for (const note of outcome.notes) warn(`${note}${from ? ` (${from})` : ""}`);
          out = outcome.png;
        } else {
          const reason = outcome.kind === "none" ? outcome.reason : `undecodable: ${outcome.reason}`;
          textureProblems.set(key, reason);
          warn(
            `texture '${slot.name}' (${
              outcome.kind === "none" ? `Texture library/${dir.name}` : outcome.entry
            }${from ? ` in ${from}` : ""}) holds ${reason}; ${without}`,
          );
        }
      }
      channelMaps.set(key, out);
    }
    return channelMaps.get(key)!;
  };
  /** LancerEdit's `Mt` and `Rt` maps packed as glTF wants them: roughness in G, metallic in B. */
  const metallicRoughness = new Map<string, Texture | null>();
  const metallicRoughnessTexture = (def: MaterialDef): Texture | null => {
    const key = `${def.metallicTexture?.name.toLowerCase() ?? ""}\n${
      def.roughnessTexture?.name.toLowerCase() ?? ""
    }`;
    if (!metallicRoughness.has(key)) {
      const metal = channelMap(def.metallicTexture), rough = channelMap(def.roughnessTexture);
      let out: Texture | null = null;
      if (metal || rough) {
        const { width, height, data } = packMetallicRoughness(metal, rough);
        const name = [def.metallicTexture?.name, def.roughnessTexture?.name].filter((n) => n).join(" + ");
        out = doc.createTexture(`${name} (metallicRoughness)`)
          .setImage(encodeRgbaPng(width, height, data)).setMimeType("image/png");
        setPartgraphExtras(out, {
          freelancer: {
            metallic: metal ? def.metallicTexture!.name : null,
            roughness: rough ? def.roughnessTexture!.name : null,
          },
        });
      }
      metallicRoughness.set(key, out);
    }
    return metallicRoughness.get(key)!;
  };

  /** Per texture key: a `Nebula` material's diffuse texture rewritten for `BLEND` (`additive.ts`). */
  const additiveTextures = new Map<string, Texture | null>();
  const additiveTexture = (slot: TextureSlot): Texture | null => {
    const key = slot.name.toLowerCase();
    if (!additiveTextures.has(key)) {
      const pixels = channelMap(slot, "its material is untextured");
      let out: Texture | null = null;
      if (pixels) {
        const { width, height, data } = additiveAsBlend(pixels);
        out = doc.createTexture(`${slot.name} (additive)`)
          .setImage(encodeRgbaPng(width, height, data)).setMimeType("image/png");
        setPartgraphExtras(out, { freelancer: { texture: slot.name, additive: true } });
      }
      additiveTextures.set(key, out);
    }
    return additiveTextures.get(key)!;
  };

  /**
   * A nomad material's diffuse texture with its ramp's facing texel added (`nomad.ts`), and that
   * texel's alpha (for a material without a diffuse texture). The ramp missing or undecodable adds
   * nothing, with a warning; so does a ramp that is black and opaque where the surface faces.
   */
  const nomadTextures = new Map<string, Texture | null>();
  const nomadTexture = (def: MaterialDef): { tex: Texture | null; ramp: Texel } => {
    const rampSlot = nomadSlot(def);
    const ramp = channelMap(rampSlot, "the diffuse texture is drawn without it");
    const texel = ramp && ramp.width > 0 && ramp.height > 0 ? rampFacing(ramp) : NO_RAMP;
    if (!def.diffuseTexture) return { tex: null, ramp: texel };
    if (addsNothing(texel)) return { tex: texture(def.diffuseTexture), ramp: texel };
    const key = `${def.diffuseTexture.name.toLowerCase()}\n${rampSlot.name.toLowerCase()}`;
    if (!nomadTextures.has(key)) {
      const pixels = channelMap(def.diffuseTexture, "its material is untextured");
      let out: Texture | null = null;
      if (pixels) {
        const { width, height, data } = nomadImage(pixels, texel);
        out = doc.createTexture(`${def.diffuseTexture.name} (nomad)`)
          .setImage(encodeRgbaPng(width, height, data)).setMimeType("image/png");
        setPartgraphExtras(out, {
          freelancer: { texture: def.diffuseTexture.name, nomad: rampSlot.name, added: [...texel] },
        });
      }
      nomadTextures.set(key, out);
    }
    return { tex: nomadTextures.get(key)!, ramp: texel };
  };

  const detailTextures = sceneDetailTextures(doc, (slot, without) => channelMap(slot, without));

  const material = (id: number): Material => {
    let out = materials.get(id);
    if (out) return out;
    const def = model.materials.get(id);
    if (!def) {
      warn(`material ${formatId(id)} not found in any loaded material library; placeholder used`);
      out = doc.createMaterial(`material_${formatId(id)}`).setMetallicFactor(0); // roughness 1 is the default
      setPartgraphExtras(out, { freelancer: { material_id: id, placeholder: true } });
    } else if (def.damage) {
      // Named as in the file, so the mesh groups still name it; magenta, as Librelancer draws a
      // material it cannot use (its NullMaterial), so that the damage is seen, not taken for paint.
      const from = model.sources.materials.get(id);
      const entry = `Material library/${def.damage.entry}${from ? ` in ${from}` : ""}`;
      warn(
        `material '${def.name}' (${entry}) is damaged (${def.damage.reason}); ` +
          "a magenta placeholder of its name stands in",
      );
      out = doc.createMaterial(def.name).setMetallicFactor(0).setBaseColorFactor([1, 0, 1, 1]);
      setPartgraphExtras(out, {
        freelancer: {
          material_id: id,
          type: def.type,
          placeholder: true,
          damaged: { entry: `Material library/${def.damage.entry}`, reason: def.damage.reason },
        },
      });
    } else {
      out = isAdditive(def)
        ? additiveMaterial(doc, def, additiveTexture, bindTexture)
        : isNomad(def)
        ? nomadMaterial(doc, def, nomadTexture(def), bindTexture)
        : DETAIL_TYPES.has(def.type)
        ? pbrMaterial(doc, asDetailMap(def), texture, bindTexture, metallicRoughnessTexture, detailTextures)
        : pbrMaterial(doc, def, texture, bindTexture, metallicRoughnessTexture);
      if (!isAdditive(def) && !isNomad(def)) {
        // What a lit material holds that glTF cannot draw as the game does, named, not silent.
        const et = drawsEt(def) && def.emissiveTexture ? texture(def.emissiveTexture) : null;
        const drawn = { diffuse: out.getBaseColorTexture() !== null, emissive: et !== null };
        for (const message of materialCaveats(def, drawn)) warn(message);
      }
      // Librelancer alpha-tests every DXT1 diffuse texture at 0.5 (`BasicMaterial`: "dealing with
      // alpha_mask"), so its transparent texels are holes (grilles, antennas, railings); opaque,
      // glTF would draw them as black paint. A blended material already hides them. It tests any
      // texture of an `alpha_mask*` or `BtDetailMapMaterial` material the same way.
      if (
        out.getAlphaMode() === "OPAQUE" && out.getBaseColorTexture() && def.diffuseTexture &&
        !DETAIL_TYPES.has(def.type) && // the detail-map shaders neither blend nor test alpha
        (cutouts.has(def.diffuseTexture.name.toLowerCase()) || isAlphaTested(def))
      ) {
        out.setAlphaMode("MASK"); // the default cutoff, 0.5, is Librelancer's
      }
      const problems = textureSlots(def)
        .filter((slot) => textureProblems.has(slot.name.toLowerCase()))
        .map((slot) => ({ name: slot.name, problem: textureProblems.get(slot.name.toLowerCase())! }));
      setPartgraphExtras(out, {
        freelancer: {
          material_id: id,
          type: def.type,
          // The game's [MaterialMap] rewrote the stored type (only then, so other extras stay as they were).
          ...(def.storedType === undefined
            ? {}
            : { stored_type: def.storedType, material_map: def.mapRule ?? null }),
          // Textures it names that are not drawn (missing, undecodable or not an image glTF takes).
          ...(problems.length ? { texture_problems: problems } : {}),
        },
      });
    }
    materials.set(id, out);
    return out;
  };
  return material;
}

function pbrMaterial(
  doc: Document,
  def: MaterialDef,
  texture: (slot: TextureSlot) => Texture | null,
  bind: (slot: TextureSlot, info: TextureInfo | null) => void,
  metallicRoughness: (def: MaterialDef) => Texture | null,
  detail?: (def: MaterialDef) => DetailTextures,
): Material {
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
    const tex = texture(def.diffuseTexture);
    if (tex) {
      out.setBaseColorTexture(tex);
      bind(def.diffuseTexture, out.getBaseColorTextureInfo());
    }
  }
  if (def.emissiveTexture && drawsEt(def)) {
    const tex = texture(def.emissiveTexture);
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
    const tex = texture(def.normalTexture);
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
function asDetailMap(def: MaterialDef): MaterialDef {
  const { ec: _ec, ...rest } = def;
  const dt = def.diffuseTexture;
  return dt ? { ...rest, diffuseTexture: { name: dt.name, flags: dt.flags & ~FLAG_SECOND_UV } } : rest;
}

/**
 * A nomad material as Librelancer's `NomadMaterial` draws it (`nomad.ts`): unlit
 * (`KHR_materials_unlit`), double-sided, `BLEND`, the diffuse texture with the ramp's facing texel
 * added; `Dc`, `Ec` and `Oc` unused, as there. Without a diffuse texture, white with the ramp's alpha.
 */
function nomadMaterial(
  doc: Document,
  def: MaterialDef,
  drawn: { tex: Texture | null; ramp: Texel },
  bind: (slot: TextureSlot, info: TextureInfo | null) => void,
): Material {
  const out = doc.createMaterial(def.name).setMetallicFactor(0).setAlphaMode("BLEND").setDoubleSided(true);
  out.setExtension(KHRMaterialsUnlit.EXTENSION_NAME, doc.createExtension(KHRMaterialsUnlit).createUnlit());
  if (drawn.tex) {
    out.setBaseColorTexture(drawn.tex);
    bind(def.diffuseTexture!, out.getBaseColorTextureInfo());
  } else if (!def.diffuseTexture) {
    out.setBaseColorFactor([1, 1, 1, drawn.ramp[3] / 255]);
  }
  return out;
}

/**
 * A `Nebula` / `NebulaTwo` material as Librelancer's `NebulaMaterial` draws it: the diffuse texture
 * times the vertex colour, unlit (`KHR_materials_unlit`), `Dc` and `Ec` unused, added to what is
 * behind — here `BLEND` over the texture rewritten by {@link additiveAsBlend}, so its black is
 * see-through instead of an opaque, lit black quad.
 */
function additiveMaterial(
  doc: Document,
  def: MaterialDef,
  texture: (slot: TextureSlot) => Texture | null,
  bind: (slot: TextureSlot, info: TextureInfo | null) => void,
): Material {
  const out = doc.createMaterial(def.name).setMetallicFactor(0).setAlphaMode("BLEND");
  out.setExtension(KHRMaterialsUnlit.EXTENSION_NAME, doc.createExtension(KHRMaterialsUnlit).createUnlit());
  const tex = def.diffuseTexture && texture(def.diffuseTexture);
  if (tex) {
    out.setBaseColorTexture(tex);
    bind(def.diffuseTexture!, out.getBaseColorTextureInfo());
  }
  if (isDoubleSided(def)) out.setDoubleSided(true);
  return out;
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
