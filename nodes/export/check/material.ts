/**
 * Materials, textures, samplers and images of a written glTF: factor ranges, enums, texture
 * references, UV sets each primitive must have for its material, and which buffer views hold
 * images of which declared type (checked against their bytes later).
 *
 * @module
 */
import { collection, int, type Json, keys, number, numbers, optionalInt, shaped } from "./json.ts";
import type { ViewLayout } from "./layout.ts";
import type { MeshFacts } from "./mesh.ts";
import type { Plan, Usages } from "./plan.ts";
import { readDataUri } from "./data_uri.ts";
import { outside } from "./verdict.ts";

const MATERIAL_KEYS = keys(
  "pbrMetallicRoughness",
  "normalTexture",
  "occlusionTexture",
  "emissiveTexture",
  "emissiveFactor",
  "alphaMode",
  "alphaCutoff",
  "doubleSided",
);
const PBR_KEYS = keys(
  "baseColorFactor",
  "baseColorTexture",
  "metallicFactor",
  "roughnessFactor",
  "metallicRoughnessTexture",
);
const SAMPLER_KEYS = keys("magFilter", "minFilter", "wrapS", "wrapT");
const IMAGE_KEYS = keys("bufferView", "mimeType", "uri");
const TEXTURE_KEYS = keys("sampler", "source");
const INFO_KEYS = {
  plain: keys("index", "texCoord"),
  scale: keys("index", "texCoord", "scale"),
  strength: keys("index", "texCoord", "strength"),
};
const MAG_FILTERS = new Set([9728, 9729]);
const MIN_FILTERS = new Set([9728, 9729, 9984, 9985, 9986, 9987]);
const WRAPS = new Set([33071, 33648, 10497]);
/** Image types glTF 2.0 core allows without an extension. */
const CORE_MIME_TYPES = new Set(["image/png", "image/jpeg"]);

/** Reads materials, textures, samplers and images, adding image checks to `plan`. */
export function readMaterials(
  root: Json,
  meshes: readonly MeshFacts[],
  views: readonly ViewLayout[],
  usages: Usages,
  plan: Plan,
): void {
  collection(root, "samplers").forEach((value, i) => {
    const pointer = `/samplers/${i}`;
    const sampler = shaped(value, pointer, SAMPLER_KEYS);
    const enumerated = (key: string, allowed: Set<number>) => {
      if (sampler[key] !== undefined && !allowed.has(sampler[key] as number)) {
        outside("sampler enum", `${pointer}/${key}`);
      }
    };
    enumerated("magFilter", MAG_FILTERS);
    enumerated("minFilter", MIN_FILTERS);
    enumerated("wrapS", WRAPS);
    enumerated("wrapT", WRAPS);
  });
  const images = collection(root, "images").map((value, i) => {
    const pointer = `/images/${i}`;
    const image = shaped(value, pointer, IMAGE_KEYS);
    const mimeType = image.mimeType;
    if (typeof mimeType !== "string" || !CORE_MIME_TYPES.has(mimeType)) {
      outside("image type", `${pointer}/mimeType`);
    }
    if (image.uri !== undefined) {
      // .gltf output: the image is a data URI of its declared type.
      if (image.bufferView !== undefined) outside("image with both uri and bufferView", pointer);
      const { mediaType, bytes } = readDataUri(image.uri, `${pointer}/uri`);
      if (mediaType !== mimeType) outside("data URI type differs from mimeType", `${pointer}/uri`);
      plan.images.push({ bytes, mimeType, pointer });
      return mimeType;
    }
    const view = int(image.bufferView, `${pointer}/bufferView`, views.length);
    if (views[view].byteStride !== undefined || views[view].target !== undefined) {
      outside("image in a strided or targeted view", pointer);
    }
    usages.view(view, "image", pointer);
    plan.images.push({ view, mimeType, pointer });
    return mimeType;
  });
  const samplers = collection(root, "samplers").length;
  const textures = collection(root, "textures").map((value, i) => {
    const pointer = `/textures/${i}`;
    const texture = shaped(value, pointer, TEXTURE_KEYS);
    optionalInt(texture.sampler, `${pointer}/sampler`, samplers);
    return int(texture.source, `${pointer}/source`, images.length);
  });

  const texCoordsNeeded = collection(root, "materials").map((value, i) => {
    const pointer = `/materials/${i}`;
    const material = shaped(value, pointer, MATERIAL_KEYS);
    let needed = 0; // the highest texCoord + 1 of the material's textures
    const textureInfo = (info: unknown, at: string, extra?: "scale" | "strength") => {
      if (info === undefined) return;
      const item = shaped(info, at, INFO_KEYS[extra ?? "plain"]);
      int(item.index, `${at}/index`, textures.length);
      needed = Math.max(needed, (optionalInt(item.texCoord, `${at}/texCoord`) ?? 0) + 1);
      if (extra === "scale" && item.scale !== undefined) number(item.scale, `${at}/scale`);
      if (extra === "strength" && item.strength !== undefined) number(item.strength, `${at}/strength`, 0, 1);
    };
    if (material.pbrMetallicRoughness !== undefined) {
      const at = `${pointer}/pbrMetallicRoughness`;
      const pbr = shaped(material.pbrMetallicRoughness, at, PBR_KEYS);
      if (pbr.baseColorFactor !== undefined) numbers(pbr.baseColorFactor, `${at}/baseColorFactor`, 4, 0, 1);
      if (pbr.metallicFactor !== undefined) number(pbr.metallicFactor, `${at}/metallicFactor`, 0, 1);
      if (pbr.roughnessFactor !== undefined) number(pbr.roughnessFactor, `${at}/roughnessFactor`, 0, 1);
      textureInfo(pbr.baseColorTexture, `${at}/baseColorTexture`);
      textureInfo(pbr.metallicRoughnessTexture, `${at}/metallicRoughnessTexture`);
    }
    textureInfo(material.normalTexture, `${pointer}/normalTexture`, "scale");
    textureInfo(material.occlusionTexture, `${pointer}/occlusionTexture`, "strength");
    textureInfo(material.emissiveTexture, `${pointer}/emissiveTexture`);
    if (material.emissiveFactor !== undefined) {
      numbers(material.emissiveFactor, `${pointer}/emissiveFactor`, 3, 0, 1);
    }
    if (
      material.alphaMode !== undefined && !["OPAQUE", "MASK", "BLEND"].includes(material.alphaMode as string)
    ) {
      outside("alphaMode", `${pointer}/alphaMode`);
    }
    if (material.alphaCutoff !== undefined) number(material.alphaCutoff, `${pointer}/alphaCutoff`, 0);
    if (material.doubleSided !== undefined && typeof material.doubleSided !== "boolean") {
      outside("doubleSided not a boolean", `${pointer}/doubleSided`);
    }
    return needed;
  });
  for (const mesh of meshes) {
    for (const primitive of mesh.primitives) {
      if (primitive.material === undefined) continue;
      if (texCoordsNeeded[primitive.material] > primitive.texCoords) {
        outside("material samples a UV set the primitive lacks", `${primitive.pointer}/material`);
      }
    }
  }
}
