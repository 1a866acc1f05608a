/**
 * Scenes whose images `export.gltf` renames or merges, made as users' files come: kit-bashed Blender
 * merges repeating `Image`, `diffuse`, `Texture` (other pictures under one name); packed copies
 * `wood.001` of `wood` (the same bytes); images named after their files (`wood.png`, `T_Hull_D.tga`,
 * a Windows path as FBX2glTF leaves it); CAD material libraries past Blender's 63 bytes; a game rip's
 * texture under two spellings (`HULL.TGA`, `hull.tga`: the same bytes); images a tool left unnamed;
 * some with extras of their own (a uuid, a source path, and now and then a `name` of their own). Used by
 * `threejs_image_names_test.ts` to measure what three.js's `GLTFLoader` keeps of each original.
 *
 * @module
 */
import { Document, type Material, type Texture } from "@gltf-transform/core";
import { encodePng } from "../../runtime/scene/png.ts";
import { prng } from "../support/prng.ts";

const STOCK = ["Image", "diffuse", "Texture", "baseColor", "Material_baseColor", "image0"];
const FILES = ["wood.png", "T_Hull_D.tga", "metal_plate.jpg", "decals.PNG", "C:\\Users\\jo\\tex\\panel.png"];
const CAD = "Assembly_Main_Landing_Gear_Door_Actuator_Bracket_Left_Forward_Finish_Map_";
const SLOTS = ["baseColor", "normal", "emissive", "occlusion"] as const;

/** A material slot of the generated scene and the name its image had in the source. */
export interface ImageUse {
  readonly material: string;
  readonly slot: typeof SLOTS[number];
  /** The image's name in the scene given to export (blank: none to keep). */
  readonly original: string;
}

/** A scene of seed `seed` (its materials named `M<i>`, each unique) and the image each slot samples. */
export function renamedImagesScene(seed: number): { scene: Document; uses: ImageUse[] } {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const doc = new Document();
  const buffer = doc.createBuffer();
  let pictures = 0;
  // Distinct pixels per picture: a 2x2 PNG of one grey level (unique up to 250 per scene).
  const picture = () => encodePng(2, 2, new Uint8Array(16).fill(3 + (pictures++ % 250)));
  const images: Texture[] = [];
  const image = (name: string, bytes = picture()) => {
    const texture = doc.createTexture(name).setImage(bytes).setMimeType("image/png");
    const roll = next();
    if (roll < 0.15) texture.setExtras({ uuid: `${seed}-${images.length}` });
    else if (roll < 0.2) texture.setExtras({ source: `//server/textures/${name}` });
    else if (roll < 0.23) texture.setExtras({ name: `${name} (library)` });
    images.push(texture);
    return texture;
  };
  const count = 4 + Math.floor(next() * 8);
  for (let i = 0; i < count; i++) {
    const habit = next();
    if (habit < 0.35) image(pick(STOCK));
    else if (habit < 0.5 && images.length) {
      // Blender's packed copy: the same bytes under `.001`.
      const from = pick(images);
      image(
        `${from.getName() || "Image"}.${String(1 + Math.floor(next() * 3)).padStart(3, "0")}`,
        from.getImage()!,
      );
    } else if (habit < 0.7) image(pick(FILES));
    else if (habit < 0.8) image(`${CAD}${Math.floor(next() * 2)}`);
    else if (habit < 0.9 && images.length) {
      // A rip's texture under another spelling of its name: the same bytes.
      const from = pick(images);
      const name = from.getName() || "HULL.TGA";
      image(name === name.toUpperCase() ? name.toLowerCase() : name.toUpperCase(), from.getImage()!);
    } else image(next() < 0.5 ? "" : "  ");
  }
  const materials: Material[] = [];
  const uses: ImageUse[] = [];
  const order = images.slice().sort(() => next() - 0.5);
  for (let m = 0; order.length; m++) {
    const material = doc.createMaterial(`M${m}`);
    materials.push(material);
    for (const slot of SLOTS) {
      if (!order.length || (slot !== "baseColor" && next() < 0.5)) continue;
      const texture = order.shift()!;
      if (slot === "baseColor") material.setBaseColorTexture(texture);
      else if (slot === "normal") material.setNormalTexture(texture);
      else if (slot === "emissive") material.setEmissiveTexture(texture).setEmissiveFactor([1, 1, 1]);
      else material.setOcclusionTexture(texture);
      uses.push({ material: material.getName(), slot, original: texture.getName() });
    }
  }
  const root = doc.createScene("Scene");
  materials.forEach((material, i) => {
    const position = doc.createAccessor().setBuffer(buffer).setType("VEC3")
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const uv = doc.createAccessor().setBuffer(buffer).setType("VEC2")
      .setArray(new Float32Array([0, 0, 1, 0, 0, 1]));
    const normal = doc.createAccessor().setBuffer(buffer).setType("VEC3")
      .setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]));
    const primitive = doc.createPrimitive().setAttribute("POSITION", position).setAttribute("NORMAL", normal)
      .setAttribute("TEXCOORD_0", uv).setMaterial(material);
    root.addChild(doc.createNode(`Part_${i}`).setMesh(doc.createMesh(`Part_${i}`).addPrimitive(primitive)));
  });
  return { scene: doc, uses };
}
