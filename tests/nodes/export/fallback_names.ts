/**
 * Scenes of WebP and KTX2 pictures as users' files hold them, for the names `export.gltf` writes for a
 * picture and its PNG fallback: Blender-style names (`paint`, `Hull`, `hull` beside it), a picture
 * already called `paint_1` beside a `paint`, one stock name on several pictures (`Image`), images a
 * tool left unnamed (their name then comes from the material), files that carry their own PNG
 * fallback under the picture's name, under none, or under a name of their own (`paint_png`), and
 * plain PNG pictures between them. Each material samples one picture.
 *
 * `fallbackNameFaults` reads a written GLB as the clients do: three.js names a texture after the
 * extension's image (it reads WebP and KTX2), Blender 3.4 after the core `source` (the fallback).
 *
 * @module
 */
import { Document, type Texture } from "@gltf-transform/core";
import type { EXTTextureWebP, KHRTextureBasisu } from "@gltf-transform/extensions";
import { encodePng } from "../../../runtime/scene/png.ts";
import { type ImageFallback, KHRTextureBasisuFallback } from "../../../runtime/scene/webp_fallback.ts";
import { EXTTextureWebPFallback } from "../../../runtime/scene/webp_fallback.ts";
import { uastcKtx2 } from "../../support/ktx2.ts";
import { prng } from "../../support/prng.ts";
import { losslessWebp } from "../../support/webp.ts";

const NAMES = ["paint", "Paint", "Hull", "hull", "Image", "Image", "decals", "T_Wing_D", "", "canopy"];

/** A scene of seed `seed` (needs `loadPngEncoder()` awaited). */
export async function fallbackNamesScene(seed: number): Promise<Document> {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const doc = new Document();
  const buffer = doc.createBuffer();
  const webpExtension = doc.createExtension(EXTTextureWebPFallback as typeof EXTTextureWebP).setRequired(
    true,
  );
  const ktx2Extension = doc.createExtension(KHRTextureBasisuFallback as typeof KHRTextureBasisu).setRequired(
    true,
  );
  let shade = 10;
  const textures: Texture[] = [];
  const count = 3 + Math.floor(next() * 6);
  const used = new Set<string>();
  for (let i = 0; i < count; i++) {
    let name = pick(NAMES);
    // A picture of its own already called `<name>_1` beside `<name>` (Blender's or three.js's renames kept).
    if (used.has(name) && name && next() < 0.4) name = `${name}_1`;
    used.add(name);
    const grey = shade += 7;
    const rgba = new Uint8Array(4 * 4 * 4).map((_, k) => (k % 4 === 3 ? 255 : grey));
    const roll = next();
    if (roll < 0.2) {
      textures.push(doc.createTexture(name).setImage(encodePng(4, 4, rgba)).setMimeType("image/png"));
      continue;
    }
    const ktx2 = roll < 0.4;
    const texture = doc.createTexture(name).setMimeType(ktx2 ? "image/ktx2" : "image/webp")
      .setImage(ktx2 ? uastcKtx2(4, 4, () => [grey, grey, grey]) : await losslessWebp(4, 4, rgba));
    textures.push(texture);
    const carried = next();
    if (carried < 0.35) {
      // The file's own PNG fallback: under the picture's name, none, or one of its own.
      const own = carried < 0.2 ? name : carried < 0.27 ? "" : `${name || "image"}_png`;
      const png = doc.createTexture(own).setImage(encodePng(4, 4, rgba)).setMimeType("image/png");
      const link = ((ktx2 ? ktx2Extension : webpExtension) as unknown as { createFallback(): ImageFallback })
        .createFallback().setFallback(png);
      texture.setExtension(ktx2 ? "KHR_texture_basisu" : "EXT_texture_webp", link);
    }
  }
  const scene = doc.createScene("Scene");
  textures.forEach((texture, i) => {
    const material = doc.createMaterial(`M${i}`).setBaseColorTexture(texture);
    const accessor = (type: "VEC2" | "VEC3", values: number[]) =>
      doc.createAccessor().setBuffer(buffer).setType(type).setArray(new Float32Array(values));
    const primitive = doc.createPrimitive().setMaterial(material)
      .setAttribute("POSITION", accessor("VEC3", [0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setAttribute("TEXCOORD_0", accessor("VEC2", [0, 0, 1, 0, 0, 1]));
    scene.addChild(doc.createNode(`Part_${i}`).setMesh(doc.createMesh(`Part_${i}`).addPrimitive(primitive)));
  });
  return doc;
}

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/**
 * What is wrong with a written file's picture names, given each material's picture's name in the scene
 * (`originals`, by material name): a texture Blender (its `source`) and three.js (its extension's
 * image) call by different names, and a picture whose name no other picture had (nothing to clash
 * with) that Blender reads under another name.
 */
export function fallbackNameFaults(
  json: Json,
  originals: ReadonlyMap<string, Picture>,
): { textures: number; disagree: string[]; renamed: string[] } {
  const images: Json[] = json.images ?? [];
  const out = { textures: 0, disagree: [] as string[], renamed: [] as string[] };
  const holders = new Map<string, number>();
  for (const { name } of originals.values()) holders.set(name, (holders.get(name) ?? 0) + 1);
  for (const material of json.materials ?? []) {
    const texture = json.textures?.[material.pbrMetallicRoughness?.baseColorTexture?.index];
    if (!texture) continue;
    out.textures++;
    const extension = texture.extensions?.EXT_texture_webp ?? texture.extensions?.KHR_texture_basisu;
    const three = images[extension?.source ?? texture.source]?.name;
    const blender = images[texture.source]?.name;
    const { name: original = "", ownFallback = false } = originals.get(material.name) ?? {};
    // A fallback the file named otherwise (`paint_png`) keeps that name: the user chose it.
    if (three !== blender && !ownFallback) {
      out.disagree.push(`${material.name}: three.js '${three}', Blender '${blender}'`);
    }
    if (!ownFallback && original.trim() && holders.get(original) === 1 && blender !== original) {
      out.renamed.push(`${material.name}: '${original}' read by Blender as '${blender}'`);
    }
  }
  return out;
}

/** A material's picture in the scene given to export. */
export interface Picture {
  readonly name: string;
  /** The file carried a fallback for it under a name of its own (neither the picture's nor blank). */
  readonly ownFallback: boolean;
}

/** Each material's picture in `scene` (`M<i>` samples picture i). */
export function pictureNames(scene: Document): Map<string, Picture> {
  return new Map(
    scene.getRoot().listMaterials().map((m) => {
      const texture = m.getBaseColorTexture();
      const name = texture?.getName() ?? "";
      const fallback = ["EXT_texture_webp", "KHR_texture_basisu"]
        .map((e) => texture?.getExtension<ImageFallback>(e)?.getFallback()?.getName())
        .find((n) => n !== undefined);
      return [m.getName(), {
        name,
        ownFallback: fallback !== undefined && fallback !== name && !!fallback.trim(),
      }];
    }),
  );
}
