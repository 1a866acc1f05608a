/**
 * Freelancer's nomad materials (`NomadMaterial`, `NomadMaterialNoBendy`: retail's `[MaterialMap]`
 * gives them to every material named `nomad*` or `n-texture*`) as glTF can draw them. Librelancer's
 * `NomadMaterial` (`Nomad.glsl`) draws, unlit, double-sided and alpha-blended:
 *
 * ```glsl
 * ratio = clamp((dot(normalize(V), normalize(N)) + 1) / 2, 0, 1); // 1 facing the viewer, ½ edge-on
 * nt = texture(Nt, vec2(ratio, 0));                               // a ramp along the first row
 * out = vec4(Dt.rgb + nt.rgb, Dt.a * nt.a);
 * ```
 *
 * with `Dc`, `Oc` and `Bt` unused. glTF has no view-dependent colour, so the ramp is read where a
 * surface faces the viewer (ratio 1: the last texel of the first stored row, as a clamped sampler
 * reads it) and added to the diffuse texture once, in the stored 8-bit (gamma) values the shader
 * sums. Surfaces seen edge-on, which the game tints with the middle of the ramp, get the same
 * colour as the rest.
 *
 * @module
 */
import type { RgbaPixels } from "../../../../runtime/scene/png.ts";

/** An RGBA texel, 0–255 per channel. */
export type Texel = readonly [number, number, number, number];

/** What the ramp adds where nothing is found: nothing (black, opaque). */
export const NO_RAMP: Texel = [0, 0, 0, 255];

/** The ramp's texel at ratio 1 (a surface facing the viewer): the last of the first stored row. */
export function rampFacing(ramp: RgbaPixels): Texel {
  const o = 4 * (ramp.width - 1);
  const d = ramp.data;
  return [d[o], d[o + 1], d[o + 2], d[o + 3]];
}

/** The diffuse image as the nomad shader draws it under a fixed ramp texel: `rgb + n.rgb`, `a · n.a`. */
export function nomadImage(diffuse: RgbaPixels, n: Texel): RgbaPixels {
  const src = diffuse.data;
  const data = new Uint8Array(src.length);
  for (let o = 0; o < src.length; o += 4) {
    data[o] = Math.min(255, src[o] + n[0]);
    data[o + 1] = Math.min(255, src[o + 1] + n[1]);
    data[o + 2] = Math.min(255, src[o + 2] + n[2]);
    data[o + 3] = Math.round((src[o + 3] * n[3]) / 255);
  }
  return { width: diffuse.width, height: diffuse.height, data };
}

/** True when the texel changes no image (`rgb + 0`, `a · 1`). */
export function addsNothing(n: Texel): boolean {
  return n[0] === 0 && n[1] === 0 && n[2] === 0 && n[3] === 255;
}
