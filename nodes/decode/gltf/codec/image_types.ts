/**
 * Texture types read from the images' bytes. A `.gltf` writer that embeds every resource alike
 * (`data:application/octet-stream;base64,…` for a PNG, `data:image/jpg`, `data:;base64,`), or a hand
 * edit, leaves a texture whose type glTF-Transform takes from that URI or `mimeType`, and which
 * contradicts its bytes: what reads textures by type (a Flight Simulator normal map's green turned,
 * a specular-glossiness fallback, `textures.to_png`) then passed such an image by, silently.
 *
 * @module
 */
import { type Document, ImageUtils, type Texture } from "@gltf-transform/core";

/**
 * Sets each texture's MIME type to its bytes' (PNG, JPEG; WebP, AVIF and KTX2 with their extensions
 * registered) where the declared one differs, and returns a note per texture set. Bytes of no type
 * glTF carries are left as declared (the legacy-image repair and the export name them).
 */
export function imageTypesFromBytes(doc: Document, label: (texture: Texture) => string): string[] {
  const notes: string[] = [];
  for (const texture of doc.getRoot().listTextures()) {
    const image = texture.getImage();
    const found = image && ImageUtils.getMimeType(image);
    const declared = texture.getMimeType();
    if (!found || found === declared) continue;
    // glTF-Transform makes a "type" of a data: URI without one out of the URI's tail: not worth quoting.
    const said = !declared
      ? "has no MIME type and holds"
      : /^[\w.+-]+\/[\w.+-]+$/.test(declared)
      ? `is declared '${declared}' but holds`
      : "has no MIME type (its data: URI names none) and holds";
    notes.push(`image ${label(texture)} ${said} ${found}; read as ${found}`);
    texture.setMimeType(found);
  }
  return notes;
}
