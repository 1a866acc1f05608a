/**
 * A material's textured slots and the UV set each samples — what a decoder naming a missing UV set and
 * an exporter repairing one both read.
 *
 * @module
 */
import { type Material, Texture, TextureInfo } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";

/** A material's texture slot: its name in the file (an extension's prefixed by it) and its texture info. */
export interface TextureSlot {
  readonly name: string;
  readonly info: TextureInfo;
}

/**
 * The slots of `material` that hold a texture, core and its extensions' (specular-glossiness's diffuse,
 * clear coat's, …).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * const doc = new Document();
 * const material = doc.createMaterial().setBaseColorTexture(doc.createTexture());
 * textureSlots(material).map((slot) => slot.name); // ["baseColorTexture"]
 * ```
 */
export function textureSlots(material: Material): TextureSlot[] {
  const core: [string, Texture | null, TextureInfo | null][] = [
    ["baseColorTexture", material.getBaseColorTexture(), material.getBaseColorTextureInfo()],
    [
      "metallicRoughnessTexture",
      material.getMetallicRoughnessTexture(),
      material.getMetallicRoughnessTextureInfo(),
    ],
    ["normalTexture", material.getNormalTexture(), material.getNormalTextureInfo()],
    ["occlusionTexture", material.getOcclusionTexture(), material.getOcclusionTextureInfo()],
    ["emissiveTexture", material.getEmissiveTexture(), material.getEmissiveTextureInfo()],
  ];
  const slots: TextureSlot[] = core.filter(([, texture, info]) => texture && info)
    .map(([name, , info]) => ({ name, info: info! }));
  // An extension's texture is the reference `xTexture`, its texture info `xTextureInfo` (which exists,
  // unused, without a texture).
  const graph = material.getGraph();
  for (const extension of material.listExtensions()) {
    const edges = graph.listChildEdges(extension);
    const textured = new Set(edges.filter((e) => e.getChild() instanceof Texture).map((e) => e.getName()));
    for (const edge of edges) {
      const child = edge.getChild(), name = edge.getName().replace(/Info$/, "");
      if (child instanceof TextureInfo && textured.has(name)) {
        slots.push({ name: `${extension.extensionName}.${name}`, info: child });
      }
    }
  }
  return slots;
}

/** The UV set a texture reference samples: the one its `KHR_texture_transform` names, else its own. */
export function uvSetOf(info: TextureInfo): number {
  return info.getExtension<Transform>("KHR_texture_transform")?.getTexCoord() ?? info.getTexCoord();
}
