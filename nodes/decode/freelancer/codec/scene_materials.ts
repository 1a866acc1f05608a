/**
 * The materials of a Freelancer model's glTF scene, one per material id, made on first use: each
 * drawn the way its type is (`pbr_material.ts` for the lit types, `unlit_materials.ts` for `Nebula`
 * and the nomad types, `atmosphere_material.ts` for planet haze), with named placeholders where a material is missing or damaged, what glTF
 * cannot draw as the game does said in a warning (`material_caveats.ts`), and the Freelancer facts
 * (id as `0x` hex text, type, the `[MaterialMap]` rule, textures not drawn) in its extras.
 *
 * @module
 */
import type { Document, Material } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { isAdditive } from "./additive.ts";
import { materialCaveats, typeCaveats } from "./material_caveats.ts";
import { atmosphereMaterial, isAtmosphere } from "./atmosphere_material.ts";
import { DETAIL_TYPES } from "./detail_map.ts";
import { sceneDetailTextures } from "./scene_detail.ts";
import { formatId } from "./crc.ts";
import { drawsEt, isAlphaTested, isNomad, textureSlots } from "./material.ts";
import type { FreelancerModel } from "./model.ts";
import { describeAnimation } from "./material_anim.ts";
import { asDetailMap, pbrMaterial } from "./pbr_material.ts";
import { sceneDerivedTextures } from "./scene_derived_textures.ts";
import { sceneTextures } from "./scene_textures.ts";
import { describeLibraries, describeMaterialUsers, type ModelUsers, modelUsers } from "./users.ts";
import { additiveMaterial, nomadMaterial } from "./unlit_materials.ts";

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
  users: ModelUsers = modelUsers(model),
): (id: number) => Material {
  const materials = new Map<number, Material>();
  const textures = sceneTextures(doc, model, warn, users);
  const derived = sceneDerivedTextures(doc, textures);
  const detailTextures = sceneDetailTextures(doc, (slot, without) => textures.pixels(slot, without));

  const material = (id: number): Material => {
    let out = materials.get(id);
    if (out) return out;
    const def = model.materials.get(id);
    const on = () => describeMaterialUsers(users, id);
    if (!def) {
      // The placeholder is glTF's default colour, white, unlit by no texture: grey where lit, as a
      // user sees it; naming the parts tells which part of the ship that is.
      warn(
        `material ${formatId(id)} not found in any loaded material library (looked in ${
          describeLibraries(model)
        }); placeholder used, plain white (grey where lit), named 'material_${formatId(id)}', on ${on()}`,
      );
      out = doc.createMaterial(`material_${formatId(id)}`).setMetallicFactor(0); // roughness 1 is the default
      setPartgraphExtras(out, { freelancer: { material_id: formatId(id), placeholder: true } });
    } else if (def.damage) {
      // Named as in the file, so the mesh groups still name it; magenta, as Librelancer draws a
      // material it cannot use (its NullMaterial), so that the damage is seen, not taken for paint.
      const from = model.sources.materials.get(id);
      const entry = `Material library/${def.damage.entry}${from ? ` in ${from}` : ""}`;
      warn(
        `material '${def.name}' (${entry}) is damaged (${def.damage.reason}); ` +
          `a magenta placeholder of its name stands in, on ${on()}`,
      );
      out = doc.createMaterial(def.name).setMetallicFactor(0).setBaseColorFactor([1, 0, 1, 1]);
      setPartgraphExtras(out, {
        freelancer: {
          material_id: formatId(id),
          type: def.type,
          placeholder: true,
          damaged: { entry: `Material library/${def.damage.entry}`, reason: def.damage.reason },
        },
      });
    } else {
      out = isAdditive(def)
        ? additiveMaterial(doc, def, derived, textures)
        : isNomad(def)
        ? nomadMaterial(doc, def, derived.nomad(def), textures)
        : isAtmosphere(def)
        ? atmosphereMaterial(doc, def, textures, (message) => warn(`${message}; on ${on()}`))
        : DETAIL_TYPES.has(def.type)
        ? pbrMaterial(doc, asDetailMap(def), textures, derived.metallicRoughness, detailTextures)
        : pbrMaterial(doc, def, textures, derived.metallicRoughness);
      for (const message of typeCaveats(def)) warn(`${message}; on ${on()}`);
      if (!isAdditive(def) && !isNomad(def)) {
        // What a lit material holds that glTF cannot draw as the game does, named, not silent.
        const et = drawsEt(def) && def.emissiveTexture ? textures.texture(def.emissiveTexture) : null;
        const drawn = { diffuse: out.getBaseColorTexture() !== null, emissive: et !== null };
        for (const message of materialCaveats(def, drawn)) warn(`${message}; on ${on()}`);
      }
      // Librelancer alpha-tests every DXT1 diffuse texture at 0.5 (`BasicMaterial`: "dealing with
      // alpha_mask"), so its transparent texels are holes (grilles, antennas, railings); opaque,
      // glTF would draw them as black paint. A blended material already hides them. It tests any
      // texture of an `alpha_mask*` or `BtDetailMapMaterial` material the same way.
      if (
        out.getAlphaMode() === "OPAQUE" && out.getBaseColorTexture() && def.diffuseTexture &&
        !DETAIL_TYPES.has(def.type) && // the detail-map shaders neither blend nor test alpha
        (textures.isCutout(def.diffuseTexture) || isAlphaTested(def))
      ) {
        out.setAlphaMode("MASK"); // the default cutoff, 0.5, is Librelancer's
      }
      const anim = model.materialAnims.get(def.name.toLowerCase());
      const problems = textureSlots(def).flatMap((slot) => {
        const problem = textures.problem(slot);
        return problem ? [{ name: slot.name, problem }] : [];
      });
      setPartgraphExtras(out, {
        freelancer: {
          material_id: formatId(id),
          type: def.type,
          // The game's [MaterialMap] rewrote the stored type (only then, so other extras stay as they were).
          ...(def.storedType === undefined
            ? {}
            : { stored_type: def.storedType, material_map: def.mapRule ?? null }),
          // A known type spelt in another case, drawn as that type.
          ...(def.writtenType === undefined ? {} : { written_type: def.writtenType }),
          // Textures it names that are not drawn (missing, undecodable or not an image glTF takes).
          ...(problems.length ? { texture_problems: problems } : {}),
          // The game's texture animation, which no target viewer would play (material_anim.ts).
          ...(anim
            ? { uv_animation: { count: anim.count, flags: anim.flags, deltas: [...anim.deltas] } }
            : {}),
        },
      });
      if (anim) {
        warn(
          `material '${def.name}' is animated in the game (MaterialAnim/${anim.name}: ${
            describeAnimation(anim)
          }); ` +
            "glTF viewers (three.js, Blender 3.4) play no texture animation (KHR_animation_pointer), so it is " +
            `drawn still; the animation is kept in its extras.partgraph.freelancer.uv_animation; on ${on()}`,
        );
      }
    }
    materials.set(id, out);
    return out;
  };
  return material;
}
