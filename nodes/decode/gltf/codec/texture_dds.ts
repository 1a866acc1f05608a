/**
 * DDS textures by `MSFT_texture_dds`, as Microsoft Flight Simulator's packages and Babylon's 3ds Max
 * exporter write them: a texture names its DDS image in the extension, often with no `source` of its
 * own for viewers without DDS. glTF-Transform does not implement the extension, so such a texture had
 * no image and its materials were drawn untextured. Before the file is read, a texture without a
 * `source` takes the extension's, whose DDS `legacy_images.ts` then stores as PNG; one with its own
 * `source` keeps that, the image every viewer draws. The extension is then gone from the file.
 *
 * @module
 */
import type { JSONDocument } from "@gltf-transform/core";

const EXTENSION = "MSFT_texture_dds";

/**
 * Points each texture without a `source` at its `MSFT_texture_dds` image and removes the extension
 * (the DDS images are named as they are converted). JSON of any other shape is left to the structure check.
 */
export function adoptDdsTextures(json: JSONDocument["json"]): void {
  const used = json.extensionsUsed;
  if (!Array.isArray(used) || !used.includes(EXTENSION)) return;
  const images = Array.isArray(json.images) ? json.images.length : 0;
  const textures = Array.isArray(json.textures) ? json.textures : [];
  for (let i = 0; i < textures.length; i++) {
    const texture = textures[i] as { source?: unknown; extensions?: Record<string, { source?: unknown }> };
    const dds = texture?.extensions?.[EXTENSION];
    if (!dds || typeof dds !== "object") continue;
    const ddsSource = dds.source;
    if (!Number.isInteger(ddsSource) || (ddsSource as number) < 0 || (ddsSource as number) >= images) {
      continue;
    }
    if (texture.source === undefined) texture.source = ddsSource;
    delete texture.extensions![EXTENSION];
  }
  json.extensionsUsed = used.filter((name) => name !== EXTENSION);
  if (Array.isArray(json.extensionsRequired)) {
    json.extensionsRequired = json.extensionsRequired.filter((name) => name !== EXTENSION);
  }
}
