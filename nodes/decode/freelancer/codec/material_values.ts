/**
 * A Freelancer material's values and maps as glTF takes them: sRGB colours as linear (carried past 1
 * for `Ec`), `Ec` as emission with its strength, and LancerEdit's metallic and roughness maps packed
 * into one image.
 *
 * @module
 */
import type { Document, Material } from "@gltf-transform/core";
import { KHRMaterialsEmissiveStrength } from "@gltf-transform/extensions";
import type { RgbaPixels } from "../../../../runtime/scene/png.ts";

/**
 * One glTF metallic-roughness image from LancerEdit's single-channel maps (their red channel, as
 * Librelancer samples them): roughness in G, metallic in B, R 0, A 255. An absent map's channel is
 * 255 (its factor alone counts). Maps of different sizes are packed at the larger width and height,
 * the smaller sampled at the nearest texel (exact when one size is a whole multiple of the other).
 */
export function packMetallicRoughness(
  metal: RgbaPixels | null,
  rough: RgbaPixels | null,
): RgbaPixels {
  const width = Math.max(metal?.width ?? 0, rough?.width ?? 0);
  const height = Math.max(metal?.height ?? 0, rough?.height ?? 0);
  const data = new Uint8Array(4 * width * height);
  const red = (image: RgbaPixels | null, x: number, y: number): number => {
    if (!image) return 255;
    const sx = Math.floor(((x + 0.5) * image.width) / width);
    const sy = Math.floor(((y + 0.5) * image.height) / height);
    return image.data[4 * (sy * image.width + sx)];
  };
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 4) {
      data[o + 1] = red(rough, x, y);
      data[o + 2] = red(metal, x, y);
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/** An sRGB colour channel, clamped to 0..1, as linear. */
export function linear(c: number): number {
  return linearExtended(clamp01(c));
}

/**
 * sRGB to linear, with the curve carried on past 1 (IEC 61966-2-1's formula, as extended sRGB and
 * CSS Color 4 use it): a colour of 4 in the game's gamma-space sums is linear 25.3. Below 0 is 0.
 */
function linearExtended(c: number): number {
  const v = Math.max(0, c);
  return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
}

/**
 * `Ec` as glTF emission. The game sums colours in gamma space and clamps only the pixel, so an `Ec`
 * past 1 is a brighter glow (a texel of 0.25 under `Ec` 4 is drawn white); glTF's emissive factor
 * stops at 1. As the glTF decoder does with a factor past 1, the brightest channel goes into
 * `KHR_materials_emissive_strength` (which three.js and Blender read) and the factor is scaled
 * into 0..1 by as much, so the light emitted stays. Clamped, a glow of 4 lost nearly all of it.
 */
export function emission(doc: Document, out: Material, ec: readonly number[]): void {
  const light = [linearExtended(ec[0]), linearExtended(ec[1]), linearExtended(ec[2])];
  const brightest = Math.max(...light);
  if (!(brightest > 1)) {
    out.setEmissiveFactor(light as [number, number, number]);
    return;
  }
  out.setEmissiveFactor(light.map((v) => v / brightest) as [number, number, number]);
  const extension = doc.createExtension(KHRMaterialsEmissiveStrength);
  out.setExtension(
    KHRMaterialsEmissiveStrength.EXTENSION_NAME,
    extension.createEmissiveStrength().setEmissiveStrength(brightest),
  );
}

/** `v` clamped to 0..1. */
export function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}
