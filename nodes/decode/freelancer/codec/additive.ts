/**
 * Freelancer's additive materials (`Nebula`, `NebulaTwo`) as glTF can draw them. Librelancer's
 * `NebulaMaterial` draws the diffuse texture times the vertex colour, unlit, blended by
 * `SrcAlpha, One` (additive): `Dc` and the scene's lights play no part, and black adds nothing.
 * glTF has no additive blend, so the texture is rewritten for ordinary alpha blending.
 *
 * @module
 */
import type { RgbaPixels } from "../../../../runtime/scene/png.ts";
import type { MaterialDef } from "./material.ts";

/** `Nebula` or `NebulaTwo`, compared case-sensitively as Librelancer's `Material.cs` does. */
export function isAdditive(material: MaterialDef): boolean {
  return material.type === "Nebula" || material.type === "NebulaTwo";
}

/**
 * An image drawn `SrcAlpha, One` (each texel adds `rgb × a` to what is behind it) rewritten for
 * glTF's `BLEND` (`rgb' × a' + behind × (1 − a')`): `a'` is the brightest channel of the light it
 * adds and `rgb'` that light divided by `a'`. Over black, as space is, the two draw the same pixel
 * (to 8-bit rounding); over something bright, `BLEND` dims it by `1 − a'` where the game does not.
 * A texel that adds nothing becomes transparent black.
 */
export function additiveAsBlend(image: RgbaPixels): RgbaPixels {
  const src = image.data;
  const data = new Uint8Array(src.length);
  for (let o = 0; o < src.length; o += 4) {
    const a = src[o + 3] / 255;
    const r = src[o] * a, g = src[o + 1] * a, b = src[o + 2] * a;
    const most = Math.max(r, g, b);
    if (most === 0) continue;
    data[o] = Math.round((r * 255) / most);
    data[o + 1] = Math.round((g * 255) / most);
    data[o + 2] = Math.round((b * 255) / most);
    data[o + 3] = Math.round(most);
  }
  return { width: image.width, height: image.height, data };
}
