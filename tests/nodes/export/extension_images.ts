/**
 * Scenes whose material extensions sample images of the same bytes under other names, as Blender,
 * Substance and Sketchfab export them: a Substance set's `T_Paint_ORM` packed again for clear coat
 * roughness or sheen roughness, Blender's packed copies `wood.001` on a clear coat normal or a
 * thickness map, Sketchfab's `material_0_specular.png` beside `material_0_specularColor.png` of one
 * picture, a grey mask used for transmission and for iridescence thickness under two names; some
 * texture infos with `KHR_texture_transform` (a car paint's flake scale). Each material samples its
 * own base colour and one to three extensions. `export.gltf` merges images of identical bytes; these
 * scenes say which name each extension slot's image had, so a test can count what three.js's
 * `GLTFLoader` and `decode.gltf` keep of it.
 *
 * @module
 */
import { Document, type Material, type Texture } from "@gltf-transform/core";
import {
  KHRMaterialsAnisotropy,
  KHRMaterialsClearcoat,
  KHRMaterialsIridescence,
  KHRMaterialsSheen,
  KHRMaterialsSpecular,
  KHRMaterialsTransmission,
  KHRMaterialsVolume,
  KHRTextureTransform,
} from "@gltf-transform/extensions";
import { encodePng } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";

/** Each extension's texture slots: glTF's property name and three.js's material map. */
export const EXTENSION_SLOTS = {
  KHR_materials_clearcoat: {
    clearcoatTexture: "clearcoatMap",
    clearcoatRoughnessTexture: "clearcoatRoughnessMap",
    clearcoatNormalTexture: "clearcoatNormalMap",
  },
  KHR_materials_sheen: { sheenColorTexture: "sheenColorMap", sheenRoughnessTexture: "sheenRoughnessMap" },
  KHR_materials_transmission: { transmissionTexture: "transmissionMap" },
  KHR_materials_volume: { thicknessTexture: "thicknessMap" },
  KHR_materials_specular: {
    specularTexture: "specularIntensityMap",
    specularColorTexture: "specularColorMap",
  },
  KHR_materials_iridescence: {
    iridescenceTexture: "iridescenceMap",
    iridescenceThicknessTexture: "iridescenceThicknessMap",
  },
  KHR_materials_anisotropy: { anisotropyTexture: "anisotropyMap" },
} as const;

type ExtensionName = keyof typeof EXTENSION_SLOTS;

/** One extension slot of a generated material and the name its image had in the source. */
export interface ExtensionImageUse {
  readonly material: string;
  readonly extension: ExtensionName;
  /** glTF's property name of the slot (`clearcoatRoughnessTexture`). */
  readonly slot: string;
  /** three.js's material property of the slot (`clearcoatRoughnessMap`). */
  readonly map: string;
  /** The image's name in the scene given to export. */
  readonly original: string;
  /** The slot's texture info scales its UVs by 4 (`KHR_texture_transform`). */
  readonly transformed: boolean;
}

const CLASSES = {
  KHR_materials_clearcoat: KHRMaterialsClearcoat,
  KHR_materials_sheen: KHRMaterialsSheen,
  KHR_materials_transmission: KHRMaterialsTransmission,
  KHR_materials_volume: KHRMaterialsVolume,
  KHR_materials_specular: KHRMaterialsSpecular,
  KHR_materials_iridescence: KHRMaterialsIridescence,
  KHR_materials_anisotropy: KHRMaterialsAnisotropy,
} as const;

/** How a tool names an extension slot's image of material `m`. */
const NAMERS: readonly ((m: string, slot: string) => string)[] = [
  (m, slot) => `T_${m}_${slot.replace(/Texture$/, "")}`, // Substance's export preset
  (m, slot) => `material_${m}_${slot.replace(/Texture$/, "")}.png`, // Sketchfab's download
  (_m, slot) => slot.replace(/Texture$/, ""), // Blender's image named after the socket
];

/** A scene of seed `seed` (materials `Paint_<i>`) and the image each extension slot samples. */
export function extensionImagesScene(seed: number): { scene: Document; uses: ExtensionImageUse[] } {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const doc = new Document();
  const buffer = doc.createBuffer();
  let pictures = 0;
  // Distinct pixels per picture: a 2x2 PNG of one grey level.
  const picture = () => encodePng(2, 2, new Uint8Array(16).fill(5 + (pictures++ % 240)));
  const made: Texture[] = [];
  const image = (name: string): Texture => {
    const roll = next();
    let bytes: Uint8Array;
    if (made.length && roll < 0.55) {
      // The same bytes as an earlier image under this slot's own name (a packed set, a `.001` copy).
      const from = pick(made);
      bytes = from.getImage()!.slice();
      if (next() < 0.3) name = `${from.getName()}.${String(1 + Math.floor(next() * 3)).padStart(3, "0")}`;
    } else bytes = picture();
    const texture = doc.createTexture(name).setImage(bytes).setMimeType("image/png");
    made.push(texture);
    return texture;
  };
  const transform = doc.createExtension(KHRTextureTransform);
  const uses: ExtensionImageUse[] = [];
  const materials: Material[] = [];
  const count = 2 + Math.floor(next() * 4);
  const names = Object.keys(EXTENSION_SLOTS) as ExtensionName[];
  for (let i = 0; i < count; i++) {
    const name = `Paint_${i}`;
    const material = doc.createMaterial(name).setBaseColorTexture(image(`T_${name}_BaseColor`));
    materials.push(material);
    const namer = pick(NAMERS);
    const chosen = new Set<ExtensionName>();
    const extensions = 1 + Math.floor(next() * 3);
    while (chosen.size < extensions) chosen.add(pick(names));
    for (const extension of [...chosen].sort()) {
      const property = createOf(doc, extension);
      material.setExtension(extension, property);
      for (const [slot, map] of Object.entries(EXTENSION_SLOTS[extension])) {
        if (next() < 0.25) continue;
        const texture = image(namer(name, slot));
        const setter = `set${slot[0].toUpperCase()}${slot.slice(1)}`;
        property[setter](texture);
        const transformed = next() < 0.3;
        if (transformed) {
          const info = property[`get${slot[0].toUpperCase()}${slot.slice(1)}Info`]();
          info.setExtension("KHR_texture_transform", transform.createTransform().setScale([4, 4]));
        }
        uses.push({ material: name, extension, slot, map, original: texture.getName(), transformed });
      }
    }
  }
  const scene = doc.createScene("Scene");
  materials.forEach((material, i) => {
    const accessor = (type: "VEC2" | "VEC3" | "VEC4", values: number[]) =>
      doc.createAccessor().setBuffer(buffer).setType(type).setArray(new Float32Array(values));
    const primitive = doc.createPrimitive()
      .setAttribute("POSITION", accessor("VEC3", [0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setAttribute("NORMAL", accessor("VEC3", [0, 0, 1, 0, 0, 1, 0, 0, 1]))
      // Blender writes tangents where a material is anisotropic (the validator asks for them).
      .setAttribute("TANGENT", accessor("VEC4", [1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1]))
      .setAttribute("TEXCOORD_0", accessor("VEC2", [0, 0, 1, 0, 0, 1]))
      .setMaterial(material);
    scene.addChild(doc.createNode(`Part_${i}`).setMesh(doc.createMesh(`Part_${i}`).addPrimitive(primitive)));
  });
  return { scene: doc, uses };
}

/** The extension's property, made by its own factory (each extension names it after itself). */
// deno-lint-ignore no-explicit-any
function createOf(doc: Document, extension: ExtensionName): any {
  // deno-lint-ignore no-explicit-any
  const made = doc.createExtension(CLASSES[extension] as typeof KHRMaterialsClearcoat) as any;
  const factory = Object.getOwnPropertyNames(Object.getPrototypeOf(made)).find((key) =>
    key.startsWith("create")
  )!;
  return made[factory]();
}
