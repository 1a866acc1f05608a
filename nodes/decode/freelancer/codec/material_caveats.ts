/**
 * What a lit Freelancer material holds that its glTF form cannot draw as the game does, each said in
 * a warning naming the material: a `Dc` outside 0..1 (clamped), an `Oc` its type does not draw, an
 * emissive texture the game adds to `Ec` and multiplies by the diffuse texture, and a `Bt` detail
 * texture.
 *
 * @module
 */
import { drawsEt, isBlended, type MaterialDef } from "./material.ts";

/** What the glTF material ended up drawing (the textures found and decoded). */
export interface DrawnMaps {
  /** A base colour texture is drawn. */
  readonly diffuse: boolean;
  /** The material's own `Et` is drawn as the emissive texture. */
  readonly emissive: boolean;
}

/**
 * The warnings of one lit (basic or detail-map) material; empty when glTF draws it as the game does.
 *
 * @example
 * ```ts
 * for (const message of materialCaveats(def, { diffuse: true, emissive: false })) warn(message);
 * ```
 */
export function materialCaveats(def: MaterialDef, drawn: DrawnMaps): string[] {
  const name = `material '${def.name}' (${def.type})`;
  const out: string[] = [];
  const dc = def.dc;
  if (dc?.some((c) => c > 1 || c < 0)) {
    // Librelancer's lighting.inc (as Direct3D's fixed-function lighting): the light a texel receives,
    // ambient plus Σ Dc × light, is clamped to 0..1 before the texture modulates it. A Dc past 1 reaches
    // full brightness under weaker light but never draws brighter than the texture (so it is not a
    // glow); below 0 it darkens to black. glTF's factor is 0..1, so each channel is clamped.
    out.push(
      `${name}: Dc (${dc.map(fixed).join(", ")}) is outside 0..1; the game clamps the lit colour to ` +
        "0..1 before the texture modulates it (a Dc past 1 saturates under weaker light, never " +
        `brighter than the texture), and glTF's base colour factor stops at 1: clamped to (${
          dc.map((c) => fixed(Math.min(1, Math.max(0, c)))).join(", ")
        })`,
    );
  }
  const oc = def.oc;
  if (oc !== undefined && /^(Dc|Ec)/.test(def.type) && !isBlended(def) && oc < 1) {
    // A basic type (DcDt…; not the special ones, such as ExclusionZoneMaterial, whose own renderer
    // draws them). The game picks the shader by Type, whose tokens name what it reads (treewyrm's MATERIAL.md,
    // from the engine's property tables); Librelancer multiplies the alpha by Oc on every basic type
    // and blends when Oc is present, but still draws the material in its opaque pass, unsorted.
    out.push(
      `${name}: Oc ${fixed(oc)} on a type without Oc/Ot; the game draws the type named, which is ` +
        "opaque, so the material is opaque (Librelancer alone blends it)",
    );
  } else if (oc !== undefined && (oc > 1 || oc < 0)) {
    out.push(`${name}: Oc ${fixed(oc)} is outside 0..1; clamped to ${fixed(Math.min(1, Math.max(0, oc)))}`);
  }
  const ecGlows = def.ec?.some((c) => c > 0) ?? false;
  if (drawsEt(def) && drawn.emissive && (drawn.diffuse || ecGlows)) {
    // Basic_Fragment.inc: ec = Ec + Et, then lighting.inc draws ec × Dt: a sum of two textured terms
    // times a third texture, where glTF's emission is one factor times one texture.
    out.push(
      `${name}: the game draws its glow as (Ec + Et) × Dt; glTF's emission is one factor times one ` +
        `texture, so it is Et × ${ecGlows ? "Ec" : "1"}${
          drawn.diffuse ? ", not darkened by the diffuse texture" : ""
        }`,
    );
  }
  if (def.btTexture) {
    // Librelancer's basic shaders never sample Bt (BtDetailMapMaterial included); the Starport's
    // material table says the game blends it over the diffuse texture with the second UV set.
    out.push(
      `${name}: its detail texture Bt '${def.btTexture.name}' is not drawn (glTF has no detail layer, and ` +
        "Librelancer does not draw it either)",
    );
  }
  return out;
}

/** A number as warnings print it: at most 4 decimals, no trailing zeros. */
function fixed(v: number): string {
  return String(Math.round(v * 1e4) / 1e4);
}
