/**
 * Freelancer's `AtmosphereMaterial` (39 retail materials: the haze shells around planets) as glTF
 * can draw it. Librelancer's `AtmosphereMaterial` (`Atmosphere.frag.hlsl`,
 * `AtmosphereMaterial_PositionTexture.frag`) draws, lit and alpha-blended (`BlendMode.Normal`,
 * `IsTransparent`), one-sided:
 *
 * ```glsl
 * ratio = clamp(dot(normalize(V), normalize(N)), 0, 1); // 1 facing the viewer, 0 edge-on
 * tex = texture(Dt, vec2(ratio, 0));                    // a ramp along the first row
 * out = tex * vec4(light(Ac, 0, Dc).rgb, Alpha);         // Oc is set from the Alpha leaf
 * ```
 *
 * The mesh's texture coordinates play no part, and `Fade` and `Scale` are not drawn (Librelancer:
 * "unimplemented in shader"). glTF has no view-dependent colour, so, as for the nomad ramp, the ramp is
 * read where a surface faces the viewer (ratio 1: the last texel of the first stored row) and the
 * material is that one colour, `Dc × texel` at opacity `Alpha × texel alpha`, lit, `BLEND`, without a
 * texture; the rim, which the game draws with the ramp's other end, is not drawn, and a warning says so.
 *
 * @module
 */
import type { Document, Material } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { clamp01, linear } from "./material_values.ts";
import type { MaterialDef } from "./material.ts";
import { rampFacing, type Texel } from "./nomad.ts";
import type { SceneTextures } from "./scene_textures.ts";

/** The type, compared case-sensitively as Librelancer's `Material.cs` does. */
export function isAtmosphere(material: MaterialDef): boolean {
  return material.type === "AtmosphereMaterial";
}

/** What the shader multiplies by where no ramp is drawn (Librelancer binds white for a null texture). */
const WHITE: Texel = [255, 255, 255, 255];

/**
 * An `AtmosphereMaterial` as one lit, blended colour: `Dc` times its ramp's facing texel, opacity
 * `Alpha` (1 when absent) times the texel's alpha; a warning names the material and the colour.
 *
 * @example
 * ```ts
 * const out = atmosphereMaterial(doc, def, textures, warn);
 * ```
 */
export function atmosphereMaterial(
  doc: Document,
  def: MaterialDef,
  textures: SceneTextures,
  warn: WarningSink,
): Material {
  const ramp = def.diffuseTexture ? textures.pixels(def.diffuseTexture, "its colour is Dc alone") : null;
  const texel = ramp && ramp.width > 0 && ramp.height > 0 ? rampFacing(ramp) : WHITE;
  const dc = def.dc ?? [1, 1, 1];
  // The light multiplies Dc before the texture (the product of the stored 8-bit values, as the
  // shader multiplies them), and Dc is clamped as the lit colour is.
  const rgb = [0, 1, 2].map((c) => clamp01(dc[c]) * (texel[c] / 255));
  const alpha = clamp01(def.alpha ?? 1) * (texel[3] / 255);
  const out = doc.createMaterial(def.name).setMetallicFactor(0).setAlphaMode("BLEND");
  out.setBaseColorFactor([linear(rgb[0]), linear(rgb[1]), linear(rgb[2]), alpha]);
  const ramped = ramp
    ? `Dc × its ramp Dt '${def.diffuseTexture!.name}' where the surface faces the viewer`
    : "Dc";
  warn(
    `material '${def.name}' (AtmosphereMaterial): the game colours it by the angle it is seen at (its Dt ` +
      "read along a ramp, a glow towards the rim); glTF has no view-dependent colour, so it is one " +
      `colour, ${ramped}: (${rgb.map(fixed).join(", ")}) at opacity ${fixed(alpha)}`,
  );
  return out;
}

/** A number as warnings print it: at most 4 decimals, no trailing zeros. */
function fixed(v: number): string {
  return String(Math.round(v * 1e4) / 1e4);
}
