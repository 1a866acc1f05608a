/**
 * `KHR_materials_common` in a glTF 2.0 file: glTF 1.0's Blinn/Phong/Lambert/constant materials, which
 * FBX2glTF (2017–18, `--khr-materials-common`) wrote into 2.0 files as a draft (`type`
 * `commonBlinn`/`commonPhong`/`commonLambert`/`commonConstant`, `diffuseFactor`, `diffuseTexture`,
 * `shininess`, `specularFactor`), required when it wrote no metal-rough values beside them, as COLLADA2GLTF
 * 2.x did (`--materialsCommon`) in 1.0's shape (`technique`, `values.diffuse` a colour or a texture
 * reference). Colours are taken as the writer's metal-rough output writes the same source colour: as
 * linear 2.0 factors (a 1.0 file's, which 1.0 shaders used as stored, the 1.0 upgrade linearises). The draft
 * was never ratified and glTF-Transform does not read it; viewers draw the metal-rough values (three.js)
 * or refuse the file (Babylon.js when required). partgraph reads it as the 1.0 upgrade reads 1.0's
 * `KHR_materials_common`: a material with metal-rough values keeps them (what viewers draw); one
 * without is given them from the extension — its diffuse factor (a 2.0 factor: linear) and texture
 * as base colour, metallic 0, roughness from its shininess, and a constant one unlit. 1.0 files are
 * left to the 1.0 upgrade. Works on the file's JSON before anything reads it.
 *
 * @module
 */
import type { Json } from "./checker.ts";
import { roughnessOf } from "./gltf1_materials.ts";

const NAME = "KHR_materials_common";

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const list = (value: unknown): unknown[] => Array.isArray(value) ? value : [];
const isColour = (value: unknown): value is number[] =>
  Array.isArray(value) && (value.length === 3 || value.length === 4) &&
  value.every((v) => typeof v === "number" && Number.isFinite(v));

/**
 * Reads the 2.0 file `file`'s KHR_materials_common materials as described above, in place (the
 * extension leaves `extensionsUsed`, `extensionsRequired` and the materials). Returns the notes to warn.
 *
 * @example
 * ```ts
 * const json = { asset: { version: "2.0" }, extensionsRequired: ["KHR_materials_common"], materials: [{
 *   extensions: { KHR_materials_common: { type: "commonLambert", diffuseFactor: [1, 0, 0, 1] } } }] };
 * adoptMaterialsCommon(json); // one note; materials[0].pbrMetallicRoughness.baseColorFactor [1, 0, 0, 1]
 * ```
 */
export function adoptMaterialsCommon(file: object): string[] {
  const json = file as Json;
  const version = isObject(json.asset) ? String(json.asset.version ?? "") : "";
  const required = list(json.extensionsRequired).includes(NAME);
  if (!version.startsWith("2") || !(required || list(json.extensionsUsed).includes(NAME))) return [];
  const textures = list(json.textures).length;
  const kept: string[] = [], given: string[] = [], unlit: string[] = [];
  list(json.materials).forEach((material, m) => {
    if (!isObject(material) || !isObject(material.extensions) || !isObject(material.extensions[NAME])) return;
    const common = material.extensions[NAME] as Json;
    delete material.extensions[NAME];
    const label = typeof material.name === "string" && material.name ? `'${material.name}'` : `#${m}`;
    if (material.pbrMetallicRoughness !== undefined) {
      kept.push(label);
    } else {
      // The 2.0 draft's fields, or 1.0's `technique` and `values` where a writer kept them.
      const values = isObject(common.values) ? common.values : {};
      const type = String(common.type ?? common.technique ?? "").toLowerCase();
      const diffuse = common.diffuseFactor ?? (isColour(values.diffuse) ? values.diffuse : undefined);
      const texture = common.diffuseTexture ?? (isObject(values.diffuse) ? values.diffuse : undefined);
      const shininess = common.shininess ?? values.shininess;
      const specular = common.specularFactor ?? values.specular;
      const pbr: Json = {
        metallicFactor: 0,
        roughnessFactor: roughnessOf(
          { specular },
          typeof shininess === "number" ? shininess : undefined,
        ),
      };
      if (isColour(diffuse)) {
        pbr.baseColorFactor = [...diffuse.slice(0, 3), diffuse[3] ?? 1].map((v) =>
          Math.min(1, Math.max(0, v))
        );
      }
      if (
        isObject(texture) && Number.isInteger(texture.index) && (texture.index as number) >= 0 &&
        (texture.index as number) < textures
      ) {
        pbr.baseColorTexture = {
          index: texture.index,
          ...(Number.isInteger(texture.texCoord) ? { texCoord: texture.texCoord } : {}),
        };
      }
      material.pbrMetallicRoughness = pbr;
      given.push(label);
      if (type.endsWith("constant")) {
        material.extensions.KHR_materials_unlit = {};
        if (!list(json.extensionsUsed).includes("KHR_materials_unlit")) {
          json.extensionsUsed = [...list(json.extensionsUsed), "KHR_materials_unlit"];
        }
        unlit.push(label);
      }
    }
    if (!Object.keys(material.extensions).length) delete material.extensions;
  });
  json.extensionsUsed = list(json.extensionsUsed).filter((n) => n !== NAME);
  json.extensionsRequired = list(json.extensionsRequired).filter((n) => n !== NAME);
  if (!list(json.extensionsRequired).length) delete json.extensionsRequired;
  const few = (labels: string[]) =>
    labels.slice(0, 3).join(", ") + (labels.length > 3 ? ` and ${labels.length - 3} more` : "");
  const notes = [
    `${required ? "requires" : "uses"} ${NAME} (glTF 1.0's Blinn/Phong/Lambert/constant materials, a draft ` +
    "FBX2glTF wrote into 2.0 files; three.js draws each material's metal-rough values instead" +
    `${required ? ", Babylon.js refuses the file" : ""}): read as the 1.0 upgrade reads it`,
  ];
  if (kept.length) {
    notes.push(
      `${kept.length} material${kept.length > 1 ? "s" : ""} drawn by their metal-rough values beside it: ${
        few(kept)
      }`,
    );
  }
  if (given.length) {
    notes.push(
      `${given.length} material${
        given.length > 1 ? "s" : ""
      } without metal-rough values (three.js draws glTF's ` +
        `default white metal there) given them from its diffuse and shininess: ${few(given)}` +
        (unlit.length ? `; ${unlit.length} constant (unlit): ${few(unlit)}` : ""),
    );
  }
  return [notes.join("; ")];
}
