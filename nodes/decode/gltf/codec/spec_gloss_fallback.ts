/**
 * Metal-rough fallbacks for specular-glossiness materials. Older Sketchfab downloads and 3ds Max,
 * Babylon and Substance exports of their time drew materials with `KHR_materials_pbrSpecularGlossiness`
 * alone, leaving `pbrMetallicRoughness` at its defaults — white, fully metallic, fully rough. The
 * extension was archived in favour of `KHR_materials_specular`; three.js dropped it in r147, and
 * with it most web viewers, which now draw such a material as that default: dark grey metal,
 * untextured. The extension asks files to carry a metal-rough fallback; where one has none, it is
 * given one — the diffuse texture and factor as base colour, metallic 0, and roughness from the
 * glossiness. A fallback that draws a metal where the extension draws a non-metal (an exporter wrote the
 * base colour and left metallicFactor at glTF's default of 1; three.js draws it dark metal) is made the
 * same way: the extension is what viewers reading it draw ("should always render", says its Best
 * practices), and glTF-Transform's own `metalRough` conversion derives the metal-rough material from the
 * extension alone, metallic 0, whatever fallback the file had. The extension is kept, so Blender and
 * other viewers that read it draw the material as before, and no longer required, since every such
 * material now has a fallback.
 *
 * @module
 */
import type { Document, Material, Texture } from "@gltf-transform/core";
import type { PBRSpecularGlossiness } from "@gltf-transform/extensions";
import { pngDataSizeFault } from "../../../../runtime/scene/png_data_size.ts";

const EXTENSION = "KHR_materials_pbrSpecularGlossiness";
/** The largest gloss map read for its mean; a larger one leaves the factor alone. */
const MAX_PIXELS = 4096 * 4096;

/**
 * Gives each specular-glossiness material whose metal-rough properties are all defaults, or draw a metal
 * where the extension draws a non-metal, a fallback made from the extension, and makes the extension
 * optional; returns a message per material given one. `label` names a material.
 */
export async function specGlossFallbacks(
  doc: Document,
  label: (material: Material) => string,
): Promise<string[]> {
  const extension = doc.getRoot().listExtensionsUsed().find((e) => e.extensionName === EXTENSION);
  if (!extension) return [];
  const messages: string[] = [];
  for (const material of doc.getRoot().listMaterials()) {
    const specGloss = material.getExtension<PBRSpecularGlossiness>(EXTENSION);
    if (!specGloss) continue;
    const unset = metalRoughUnset(material);
    const metal = unset ? undefined : metalOverDielectric(material, specGloss);
    if (!unset && metal === undefined) continue;
    const gloss = specGloss.getGlossinessFactor() *
      await meanGloss(specGloss.getSpecularGlossinessTexture());
    const roughness = Math.round((1 - gloss) * 1000) / 1000;
    material.setBaseColorFactor(specGloss.getDiffuseFactor()).setMetallicFactor(0).setRoughnessFactor(
      roughness,
    );
    const diffuse = specGloss.getDiffuseTexture();
    // The extension's diffuse is the base colour, its texture too: a fallback's own texture goes.
    material.setBaseColorTexture(diffuse);
    if (diffuse) material.getBaseColorTextureInfo()!.copy(specGloss.getDiffuseTextureInfo()!);
    if (metal !== undefined) {
      messages.push(
        `material ${label(material)} is specular-glossiness with a metal-rough fallback that contradicts ` +
          `it: metallic ${metal} (three.js and most web viewers draw that: metal, no diffuse, dark without ` +
          `a bright environment), where the extension says a non-metal (specular ${
            specGloss.getSpecularFactor().map(round3).join(", ")
          }, diffuse ${specGloss.getDiffuseFactor().slice(0, 3).map(round3).join(", ")}${
            diffuse ? " × its texture" : ""
          }); the fallback is made from the extension, as glTF-Transform's metalRough converts it — its ` +
          `diffuse as base colour, metallic 0, roughness ${roughness} from its glossiness; viewers that read ` +
          `${EXTENSION}, Blender among them, draw it as before`,
      );
      continue;
    }
    messages.push(
      `material ${label(material)} is specular-glossiness alone, which three.js and most web viewers ` +
        "no longer read (they draw grey metal): given a metal-rough fallback — its diffuse as base colour, " +
        `metallic 0, roughness ${roughness} from its glossiness; viewers that read ${EXTENSION}, Blender ` +
        "among them, draw it as before",
    );
  }
  extension.setRequired(false);
  return messages;
}

/** The largest specular colour only non-metals have (metals reflect 50 % and more; dielectrics 2–8 %). */
const DIELECTRIC_SPECULAR = 0.25;

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The fallback's metallic factor when it draws a metal (0.5 or more, no metal-rough texture to lower it)
 * where the extension draws a non-metal (a specular colour no brighter than {@link DIELECTRIC_SPECULAR},
 * which its texture can only darken); else undefined. Such fallbacks come of an exporter writing the base
 * colour but leaving metallicFactor out, at glTF's default of 1.
 */
function metalOverDielectric(material: Material, specGloss: PBRSpecularGlossiness): number | undefined {
  const metallic = material.getMetallicFactor();
  if (metallic < 0.5 || material.getMetallicRoughnessTexture()) return undefined;
  return Math.max(...specGloss.getSpecularFactor()) <= DIELECTRIC_SPECULAR ? metallic : undefined;
}

/** True when a material's metal-rough properties are the defaults, as a file that sets none reads. */
function metalRoughUnset(material: Material): boolean {
  return !material.getBaseColorTexture() && !material.getMetallicRoughnessTexture() &&
    material.getBaseColorFactor().every((v) => v === 1) && material.getMetallicFactor() === 1 &&
    material.getRoughnessFactor() === 1;
}

/**
 * The mean glossiness a specular-glossiness texture holds in its alpha: 1 for an image without
 * alpha (a JPEG), as the extension reads it, and for one that is no PNG this reads or past
 * {@link MAX_PIXELS} (its factor stands).
 */
async function meanGloss(texture: Texture | null): Promise<number> {
  const image = texture?.getImage();
  if (!image || texture!.getMimeType() !== "image/png" || image.length < 24) return 1;
  // The size IHDR declares, before anything is allocated: a mean needs no more than 4096².
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  if (view.getUint32(16) * view.getUint32(20) > MAX_PIXELS) return 1;
  const { decode } = await import("fast-png"); // only for such files
  // Data of another size than the header's would be read sheared: the factor stands.
  if (pngDataSizeFault(image)) return 1;
  let png;
  try {
    png = decode(image);
  } catch {
    return 1;
  }
  const { data, channels, palette, width, height, depth } = png;
  // Values as fast-png gives them: one per channel from 8 bits on, packed into bytes below.
  const values = depth < 8 ? Math.ceil((width * depth * channels) / 8) * height : width * channels * height;
  if (!width || !height || data.length < values) return 1;
  if (palette) {
    // Indices of fewer than 8 bits are packed, each row starting on a byte.
    const rowBytes = Math.ceil((width * depth) / 8), mask = (1 << depth) - 1;
    let sum = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = x * depth;
        const index = (data[y * rowBytes + (bit >> 3)] >> (8 - depth - (bit & 7))) & mask;
        sum += palette[index]?.[3] ?? 255;
      }
    }
    return sum / (width * height) / 255;
  }
  if (channels !== 2 && channels !== 4) return 1;
  const max = depth === 16 ? 65535 : 255;
  let sum = 0;
  for (let i = channels - 1; i < data.length; i += channels) sum += data[i];
  return sum / (data.length / channels) / max;
}
