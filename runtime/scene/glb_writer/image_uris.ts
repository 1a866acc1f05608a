/**
 * The names a `.gltf` gives its images, as glTF-Transform 4.5's writer names them.
 *
 * @module
 */
import { type Document, ImageUtils, type Texture } from "@gltf-transform/core";

/**
 * The writer's `imageURIGenerator` (`UniqueURIGenerator`) for a `.gltf`: a texture's own URI, else
 * its first slot's name (`baseColor` of `baseColorTexture`) or `basename`, numbered per name when
 * the document has more than one texture, with the extension of its MIME type.
 */
export function imageURIs(doc: Document, basename: string): (texture: Texture) => string {
  const root = doc.getRoot(), graph = doc.getGraph();
  const multiple = root.listTextures().length > 1;
  const counter = new Map<string, number>();
  return (texture) => {
    const extension = ImageUtils.mimeTypeToExtension(texture.getMimeType());
    if (texture.getURI()) return texture.getURI();
    const edge = graph.listParentEdges(texture).find((edge) => edge.getParent() !== root);
    const name = (edge ? edge.getName().replace(/texture$/i, "") : "") || basename || "texture";
    if (!multiple) return `${name}.${extension}`;
    const n = counter.get(name) ?? 1;
    counter.set(name, n + 1);
    return `${name}_${n}.${extension}`;
  };
}
