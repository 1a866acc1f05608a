/**
 * Carnivores texture → RGBA8 PNG. Texels are X1R5G5B5 little-endian words (bit 15 ignored), 256 per
 * row, row 0 on top. The file has no alpha: like the engine's Direct3D path (`GenerateAlphaFlags`),
 * a black texel (RGB 0) becomes transparent only when some face has the sfOpacity flag (0x4). Bit 15
 * plays no part in the key either: Carnivores 2 and Ice Age rebuild every word without it
 * (`BrightenTexture`) before keying, and C3Dit keys on RGB = 0.
 *
 * @module
 */
import { encodeRgbaPng } from "../../../../runtime/scene/png.ts";
import { type Texture16, TEXTURE_WIDTH } from "./model.ts";

/** 5-bit channel → 8-bit, replicating the top bits so that 31 maps to 255. */
export function expand5(channel: number): number {
  return (channel << 3) | (channel >> 2);
}

/** The 15 colour bits of a texel word; bit 15 is not part of the colour. */
const RGB_BITS = 0x7fff;

/**
 * Texture words → RGBA8 pixels (`256 × height × 4` bytes).
 *
 * @example
 * ```ts
 * const rgba = textureToRgba(texture, true); // texels 0x0000 and 0x8000 → alpha 0
 * ```
 */
export function textureToRgba(texture: Texture16, colourKey: boolean): Uint8Array {
  const { words } = texture;
  const rgba = new Uint8Array(words.length * 4);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    rgba[i * 4] = expand5((word >> 10) & 31);
    rgba[i * 4 + 1] = expand5((word >> 5) & 31);
    rgba[i * 4 + 2] = expand5(word & 31);
    rgba[i * 4 + 3] = colourKey && (word & RGB_BITS) === 0 ? 0 : 255;
  }
  return rgba;
}

/**
 * Texture words → PNG bytes (RGBA8, deterministic).
 *
 * @example
 * ```ts
 * const png = textureToPng(model.texture!, hasOpacityFace);
 * ```
 */
export function textureToPng(texture: Texture16, colourKey: boolean): Uint8Array {
  return encodeRgbaPng(TEXTURE_WIDTH, texture.height, textureToRgba(texture, colourKey));
}
