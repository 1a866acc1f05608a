/**
 * The glTF textures of a detail-map material (`DetailMapMaterial`, `Masked2DetailMapMaterial`,
 * `DetailMap2Dm1Msk2PassMaterial`, `IllumDetailMapMaterial`): its diffuse texture with the detail
 * maps baked in (`detail_map.ts`), and `IllumDetailMapMaterial`'s glow, made once per combination.
 *
 * @module
 */
import type { Document, Texture } from "@gltf-transform/core";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { encodePng, type RgbaPixels } from "../../../../runtime/scene/png.ts";
import { bakeDetail, type DetailLayer } from "./detail_map.ts";
import {
  detailLayers,
  type DetailLayerSlot,
  FLAG_CLAMP_U,
  FLAG_CLAMP_V,
  type MaterialDef,
} from "./material.ts";
import type { TextureSlot } from "./material.ts";

/** A detail-map material's baked textures; `base` null when nothing could be baked. */
export interface DetailTextures {
  readonly base: Texture | null;
  readonly glow: Texture | null;
}

/**
 * The maker of detail-map textures for one scene. `pixels(slot, without)` decodes a texture (warning,
 * with `without` saying what the material does then, when it cannot).
 *
 * @example
 * ```ts
 * const detail = sceneDetailTextures(doc, channelMap);
 * const { base, glow } = detail(def);
 * ```
 */
export function sceneDetailTextures(
  doc: Document,
  pixels: (slot: TextureSlot, without: string) => RgbaPixels | null,
): (def: MaterialDef) => DetailTextures {
  const made = new Map<string, DetailTextures>();
  return (def) => {
    const layers = detailLayers(def)!;
    const dtSlot = def.diffuseTexture!;
    // Only what changes the picture: a bake is megabytes, and an output holds each texture's image
    // on its own, so materials that differ in name, or in flag bits the bake does not read (the
    // always-set 0x40, the second-UV bit), share one.
    const key = JSON.stringify([
      def.type,
      shareKey(dtSlot),
      layers.detail ? [shareKey(layers.detail.slot), layers.detail.rate] : null,
      layers.detail1 ? [shareKey(layers.detail1.slot), layers.detail1.rate] : null,
    ]);
    let out = made.get(key);
    if (out) return out;
    out = { base: null, glow: null };
    const dt = layer(dtSlot, 1, pixels(dtSlot, "its material is untextured"));
    if (dt) {
      const detail = layers.detail &&
        layer(
          layers.detail.slot,
          layers.detail.rate,
          pixels(layers.detail.slot, "its detail layer is left out"),
        );
      const detail1 = layers.detail1 &&
        layer(
          layers.detail1.slot,
          layers.detail1.rate,
          pixels(layers.detail1.slot, "its detail layer is left out"),
        );
      const baked = bakeDetail(def.type, dt, detail ?? null, detail1 ?? null);
      const used = [layers.detail, layers.detail1].filter((l): l is DetailLayerSlot => l !== undefined);
      const extras = {
        texture: dtSlot.name,
        detail_maps: used.map((l) => ({ texture: l.slot.name, tile_rate: l.rate })),
        size: [baked.base.width, baked.base.height],
        // The detail drawn at a lower resolution than TileRate × its size (the bake's bound).
        ...(baked.capped ? { capped: true } : {}),
      };
      const names = [dtSlot.name, ...used.map((l) => l.slot.name)].join(" + ");
      const texture = (image: RgbaPixels, kind: string) => {
        const tex = doc.createTexture(`${names} (${kind})`).setMimeType("image/png")
          .setImage(encodePng(image.width, image.height, image.data));
        setPartgraphExtras(tex, { freelancer: { ...extras, [kind]: true } });
        return tex;
      };
      out = { base: texture(baked.base, "detail"), glow: baked.glow ? texture(baked.glow, "illum") : null };
    }
    made.set(key, out);
    return out;
  };
}

/** A slot as the bake reads it: the texture (names are case-insensitive) and its clamp bits. */
function shareKey(slot: TextureSlot): [string, number] {
  return [slot.name.toLowerCase(), slot.flags & (FLAG_CLAMP_U | FLAG_CLAMP_V)];
}

function layer(slot: TextureSlot, rate: number, pixels: RgbaPixels | null): DetailLayer | null {
  if (!pixels || pixels.width < 1 || pixels.height < 1) return null;
  return {
    pixels,
    rate,
    clampU: (slot.flags & FLAG_CLAMP_U) !== 0,
    clampV: (slot.flags & FLAG_CLAMP_V) !== 0,
  };
}
