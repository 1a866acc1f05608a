/**
 * What a lit Freelancer material holds that its glTF form cannot draw as the game does, each said in
 * a warning naming the material: a `Dc` outside 0..1 (clamped), an `Oc` its type does not draw, an
 * emissive texture the game adds to `Ec` and multiplies by the diffuse texture, and a `Bt` detail
 * texture; and, for any material, what its type alone costs ({@link typeCaveats}): a type the game
 * does not know (a mod's shader, a misspelling) and the retail types glTF can only approach
 * (environment-mapped glass, multiplied water, exclusion-zone shells).
 *
 * @module
 */
import { drawsEt, isBlended, isDoubleSided, type MaterialDef } from "./material.ts";
import { KNOWN_MATERIAL_TYPES } from "./material_types.ts";

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

/** The environment-mapped glass types (the Starport's table: "transparent material used for cockpit"). */
const GLASS_TYPES = new Set(["GlassMaterial", "GFGlassMaterial", "HighGlassMaterial"]);

/**
 * The warnings a material's type gives (empty when glTF draws the type as the game does); `def` is
 * the material as drawn, after `[MaterialMap]` and the case repair.
 *
 * @example
 * ```ts
 * for (const message of typeCaveats(def)) warn(message);
 * ```
 */
export function typeCaveats(def: MaterialDef): string[] {
  const name = `material '${def.name}' (${def.writtenType ?? def.type})`;
  if (def.writtenType !== undefined) {
    // Librelancer compares types exactly (Material.cs: a list and a switch) and refuses any other;
    // the name is plainly meant, so it is drawn as the type it spells.
    return [
      `${name}: '${def.writtenType}' is not a material type as written (types are matched exactly); ` +
      `drawn as '${def.type}', the known type it spells in another case`,
    ];
  }
  if (!KNOWN_MATERIAL_TYPES.has(def.type)) {
    const tokens = [
      isBlended(def) ? "blended (its name holds Oc/Ot)" : "",
      isDoubleSided(def) ? "double-sided (Two)" : "",
      drawsEt(def) ? "with its Et (Et)" : "",
    ].filter((t) => t);
    return [
      `${name}: '${def.type}' is not a material type the game or Librelancer knows (a mod's own ` +
      `shader?); drawn as a lit DcDt${tokens.length ? `, ${tokens.join(", ")}` : ""}`,
    ];
  }
  if (GLASS_TYPES.has(def.type)) {
    return [
      `${name}: the game adds an environment-map reflection to this glass; glTF has none to draw, so ` +
      "it is a blended DcDtOcOt without it, as Librelancer draws it",
    ];
  }
  if (def.type === "PlanetWaterMaterial") {
    return [
      `${name}: the game multiplies it over what is behind; glTF has no multiply blend, so it is ` +
      "alpha-blended as a DcDtOcOt, as Librelancer draws it",
    ];
  }
  if (def.type === "ExclusionZoneMaterial") {
    return [
      `${name}: the game draws this zone shell blended, tinted and faded by its nebula's exclusion ` +
      "zone (tint, max_alpha in the system ini), which the model does not hold; drawn blended by Oc " +
      "and the texture's alpha, untinted",
    ];
  }
  return [];
}

/** A number as warnings print it: at most 4 decimals, no trailing zeros. */
function fixed(v: number): string {
  return String(Math.round(v * 1e4) / 1e4);
}
