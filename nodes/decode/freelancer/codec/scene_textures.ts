/**
 * The textures of one Freelancer scene: each texture library entry a material names, decoded once
 * per name (as a glTF texture, or as pixels to be repacked), with what is missing or undecodable
 * said in a warning and remembered for the materials that name it.
 *
 * @module
 */
import { type Document, type Texture, TextureInfo } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { RgbaPixels } from "../../../../runtime/scene/png.ts";
import { FLAG_CLAMP_U, FLAG_CLAMP_V, FLAG_SECOND_UV, type TextureSlot } from "./material.ts";
import type { FreelancerModel } from "./model.ts";
import { placeholderTexturePng, resolveTexture, resolveTexturePixels } from "./texture.ts";
import { spelledAlike, textureKey } from "./texture_names.ts";
import { describeLibraries, describeTextureUsers, type ModelUsers, modelUsers } from "./users.ts";

const CLAMP_TO_EDGE = TextureInfo.WrapMode.CLAMP_TO_EDGE;

/** A scene's texture lookups (see {@link sceneTextures}). */
export interface SceneTextures {
  /**
   * The glTF texture of a slot's texture, made on first use; null when it is in no library or
   * holds nothing a glTF material takes (warned once). An undecodable image is a named checkerboard.
   */
  texture(slot: TextureSlot): Texture | null;
  /**
   * The decoded pixels of a slot's texture, for an image that is repacked before it is stored; null
   * when there are none, warned once with `without` saying what the material does then.
   */
  pixels(slot: TextureSlot | undefined, without?: string): RgbaPixels | null;
  /** Sets a slot's sampler on a texture info: only what differs from glTF's defaults. */
  bind(slot: TextureSlot, info: TextureInfo | null): void;
  /** True when the slot's texture is DXT1 with transparent texels (alpha-tested as a diffuse map). */
  isCutout(slot: TextureSlot): boolean;
  /** Why the slot's texture is not drawn, when it is not (missing, undecodable, a cube map…). */
  problem(slot: TextureSlot): string | undefined;
}

/**
 * The texture lookups of one scene, each texture decoded at most once per use (glTF texture or pixels).
 *
 * @example
 * ```ts
 * const textures = sceneTextures(doc, model, warn);
 * const tex = textures.texture({ name: "hull.dds", flags: 0x40 });
 * ```
 */
export function sceneTextures(
  doc: Document,
  model: FreelancerModel,
  warn: WarningSink,
  users: ModelUsers = modelUsers(model),
): SceneTextures {
  // A warning about a texture names the materials that lose it and the parts drawing those.
  const usedBy = (slot: TextureSlot) => `; used by ${describeTextureUsers(model, users, slot.name)}`;
  // A texture in no library names the files looked in, as a missing material or mesh does: a user
  // sees at once whether the .txm holding it was loaded at all.
  const lookedIn = () => `; looked in ${describeLibraries(model)}`;
  const textures = new Map<string, Texture | null>();
  // An entry spelt alike but for separators or a leading `.\` is another texture to the game: named.
  // One searched but not loaded (the search's finding) is said in the same warning.
  const nearMiss = (slot: TextureSlot) => {
    const near = spelledAlike(slot.name, [...model.textures.values()].map((dir) => dir.name));
    const searched = model.nearMisses?.get(textureKey(slot.name));
    return near
      ? ` (a library has ${near}, which the game keys as another texture)`
      : searched
      ? ` (${searched}, which the game keys as another texture)`
      : "";
  };
  /** Per texture key: why it is not drawn, when it is not (recorded on the materials naming it). */
  const problems = new Map<string, string>();
  /** Texture keys of DXT1 images with transparent texels (drawn alpha-tested as a diffuse map). */
  const cutouts = new Set<string>();
  const texture = (slot: TextureSlot): Texture | null => {
    const key = textureKey(slot.name);
    if (!textures.has(key)) {
      const dir = model.textures.get(key);
      const from = model.sources.textures.get(key);
      const where = `Texture library/${dir?.name ?? slot.name}${from ? ` in ${from}` : ""}`;
      let out: Texture | null = null;
      if (!dir) {
        problems.set(key, "in no loaded texture library");
        warn(
          `texture '${slot.name}' not found in any loaded texture library${
            nearMiss(slot)
          }; its material is untextured${usedBy(slot)}${lookedIn()}`,
        );
      } else {
        const outcome = resolveTexture(
          dir,
          `Texture library/${dir.name}`,
          (name) => model.textures.get(name),
        );
        if (outcome.kind === "png") {
          for (const note of outcome.notes) warn(`${note}${from ? ` (${from})` : ""}${usedBy(slot)}`);
          if (outcome.cutout) cutouts.add(key);
          out = doc.createTexture(slot.name).setImage(outcome.png).setMimeType("image/png");
        } else if (outcome.kind === "none") {
          problems.set(key, outcome.reason);
          warn(
            `texture '${slot.name}' (${where}) holds ${outcome.reason}; its material is untextured${
              usedBy(slot)
            }`,
          );
        } else {
          // One image in a format we do not read should not cost the model its geometry, nor pass
          // for the material's own colour: a named checkerboard stands in, and the warning says why.
          problems.set(key, `undecodable: ${outcome.reason}`);
          warn(
            `texture '${slot.name}' (${outcome.entry}${from ? ` in ${from}` : ""}) could not be decoded ` +
              `(${outcome.reason}); the placeholder image '${slot.name} (undecodable)' stands in${
                usedBy(slot)
              }`,
          );
          out = doc.createTexture(`${slot.name} (undecodable)`).setImage(placeholderTexturePng())
            .setMimeType("image/png");
          setPartgraphExtras(out, {
            freelancer: { placeholder: true, texture: slot.name, reason: outcome.reason },
          });
        }
      }
      textures.set(key, out);
    }
    return textures.get(key)!;
  };

  const decoded = new Map<string, RgbaPixels | null>();
  const pixels = (slot: TextureSlot | undefined, without = "its factor alone is used"): RgbaPixels | null => {
    if (!slot) return null;
    const key = textureKey(slot.name);
    if (!decoded.has(key)) {
      const dir = model.textures.get(key);
      const from = model.sources.textures.get(key);
      let out: RgbaPixels | null = null;
      if (!dir) {
        problems.set(key, "in no loaded texture library");
        warn(
          `texture '${slot.name}' not found in any loaded texture library${nearMiss(slot)}; ${without}${
            usedBy(slot)
          }${lookedIn()}`,
        );
      } else {
        const outcome = resolveTexturePixels(
          dir,
          `Texture library/${dir.name}`,
          (n) => model.textures.get(n),
        );
        if (outcome.kind === "png") {
          for (const note of outcome.notes) warn(`${note}${from ? ` (${from})` : ""}${usedBy(slot)}`);
          out = outcome.png;
        } else {
          const reason = outcome.kind === "none" ? outcome.reason : `undecodable: ${outcome.reason}`;
          problems.set(key, reason);
          warn(
            `texture '${slot.name}' (${
              outcome.kind === "none" ? `Texture library/${dir.name}` : outcome.entry
            }${from ? ` in ${from}` : ""}) holds ${reason}; ${without}${usedBy(slot)}`,
          );
        }
      }
      decoded.set(key, out);
    }
    return decoded.get(key)!;
  };

  // Only what differs from glTF-Transform's defaults (REPEAT, UV set 0): every setter dispatches events.
  const bind = (slot: TextureSlot, info: TextureInfo | null) => {
    if (!info) return;
    if (slot.flags & FLAG_CLAMP_U) info.setWrapS(CLAMP_TO_EDGE);
    if (slot.flags & FLAG_CLAMP_V) info.setWrapT(CLAMP_TO_EDGE);
    if (slot.flags & FLAG_SECOND_UV) info.setTexCoord(1);
  };

  return {
    texture,
    pixels,
    bind,
    isCutout: (slot) => cutouts.has(textureKey(slot.name)),
    problem: (slot) => problems.get(textureKey(slot.name)),
  };
}
