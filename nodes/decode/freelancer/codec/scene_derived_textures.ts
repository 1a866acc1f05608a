/**
 * The images of one Freelancer scene that are made from stored textures rather than stored as they
 * are: LancerEdit's metallic and roughness maps packed as glTF reads them, a `Nebula` material's
 * texture rewritten for `BLEND` (`additive.ts`) and a nomad material's texture with its ramp added
 * (`nomad.ts`). Each is made once per combination of textures.
 *
 * @module
 */
import type { Document, Texture } from "@gltf-transform/core";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { encodePng } from "../../../../runtime/scene/png.ts";
import { additiveAsBlend } from "./additive.ts";
import { type MaterialDef, nomadSlot, type TextureSlot } from "./material.ts";
import { packMetallicRoughness } from "./material_values.ts";
import { addsNothing, NO_RAMP, nomadImage, rampFacing, type Texel } from "./nomad.ts";
import type { SceneTextures } from "./scene_textures.ts";

/** A nomad material's drawn texture and the ramp texel it adds (see {@link DerivedTextures.nomad}). */
export interface NomadTexture {
  readonly tex: Texture | null;
  readonly ramp: Texel;
}

/** A scene's derived-image makers (see {@link sceneDerivedTextures}). */
export interface DerivedTextures {
  /** LancerEdit's `Mt` and `Rt` maps packed as glTF wants them: roughness in G, metallic in B. */
  metallicRoughness(def: MaterialDef): Texture | null;
  /** A `Nebula` material's diffuse texture rewritten for `BLEND` (`additive.ts`). */
  additive(slot: TextureSlot): Texture | null;
  /**
   * A nomad material's diffuse texture with its ramp's facing texel added (`nomad.ts`), and that
   * texel's alpha (for a material without a diffuse texture). The ramp missing or undecodable adds
   * nothing, with a warning; so does a ramp that is black and opaque where the surface faces.
   */
  nomad(def: MaterialDef): NomadTexture;
}

/**
 * The derived-image makers of one scene, over its texture lookups.
 *
 * @example
 * ```ts
 * const derived = sceneDerivedTextures(doc, sceneTextures(doc, model, warn));
 * const { tex } = derived.nomad(def);
 * ```
 */
export function sceneDerivedTextures(doc: Document, textures: SceneTextures): DerivedTextures {
  const metallicRoughnessMade = new Map<string, Texture | null>();
  const metallicRoughness = (def: MaterialDef): Texture | null => {
    const key = `${def.metallicTexture?.name.toLowerCase() ?? ""}\n${
      def.roughnessTexture?.name.toLowerCase() ?? ""
    }`;
    if (!metallicRoughnessMade.has(key)) {
      const metal = textures.pixels(def.metallicTexture), rough = textures.pixels(def.roughnessTexture);
      let out: Texture | null = null;
      if (metal || rough) {
        const { width, height, data } = packMetallicRoughness(metal, rough);
        const name = [def.metallicTexture?.name, def.roughnessTexture?.name].filter((n) => n).join(" + ");
        out = doc.createTexture(`${name} (metallicRoughness)`)
          .setImage(encodePng(width, height, data)).setMimeType("image/png");
        setPartgraphExtras(out, {
          freelancer: {
            metallic: metal ? def.metallicTexture!.name : null,
            roughness: rough ? def.roughnessTexture!.name : null,
          },
        });
      }
      metallicRoughnessMade.set(key, out);
    }
    return metallicRoughnessMade.get(key)!;
  };

  const additiveMade = new Map<string, Texture | null>();
  const additive = (slot: TextureSlot): Texture | null => {
    const key = slot.name.toLowerCase();
    if (!additiveMade.has(key)) {
      const pixels = textures.pixels(slot, "its material is untextured");
      let out: Texture | null = null;
      if (pixels) {
        const { width, height, data } = additiveAsBlend(pixels);
        out = doc.createTexture(`${slot.name} (additive)`)
          .setImage(encodePng(width, height, data)).setMimeType("image/png");
        setPartgraphExtras(out, { freelancer: { texture: slot.name, additive: true } });
      }
      additiveMade.set(key, out);
    }
    return additiveMade.get(key)!;
  };

  const nomadMade = new Map<string, Texture | null>();
  const nomad = (def: MaterialDef): NomadTexture => {
    const rampSlot = nomadSlot(def);
    const ramp = textures.pixels(rampSlot, "the diffuse texture is drawn without it");
    const texel = ramp && ramp.width > 0 && ramp.height > 0 ? rampFacing(ramp) : NO_RAMP;
    if (!def.diffuseTexture) return { tex: null, ramp: texel };
    if (addsNothing(texel)) return { tex: textures.texture(def.diffuseTexture), ramp: texel };
    const key = `${def.diffuseTexture.name.toLowerCase()}\n${rampSlot.name.toLowerCase()}`;
    if (!nomadMade.has(key)) {
      const pixels = textures.pixels(def.diffuseTexture, "its material is untextured");
      let out: Texture | null = null;
      if (pixels) {
        const { width, height, data } = nomadImage(pixels, texel);
        out = doc.createTexture(`${def.diffuseTexture.name} (nomad)`)
          .setImage(encodePng(width, height, data)).setMimeType("image/png");
        setPartgraphExtras(out, {
          freelancer: { texture: def.diffuseTexture.name, nomad: rampSlot.name, added: [...texel] },
        });
      }
      nomadMade.set(key, out);
    }
    return { tex: nomadMade.get(key)!, ramp: texel };
  };

  return { metallicRoughness, additive, nomad };
}
