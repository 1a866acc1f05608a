/**
 * One image per distinct picture: a scene may hold the same image bytes more than once — a Freelancer
 * ship whose materials name one texture two ways, DSON surfaces sharing a map, a Blender export with
 * packed `.001` copies, a Sketchbook or Sketchfab download — and a file that stores each copy is
 * bigger by every copy. Images of identical bytes, MIME type and extras are merged into the first
 * (file order), which every material then samples (a repeat's other name kept in the material's
 * `extras.image_names`, by slot); glTF-Transform's writer then writes one glTF
 * texture per distinct (image, sampler), so textures merge with their images. Materials, meshes and
 * every other property are left as they are: users and the rig address them by name.
 *
 * glTF-Transform's `dedup({ propertyTypes: [TEXTURE] })` merges the same images, but it ignores extras
 * (a Freelancer placeholder's `extras.partgraph` would be lost), compares every pair byte by byte
 * (n² over images that share a size, as MSFS's uncompressed DDS files do), and skips images whose size
 * it cannot read from their header (DDS, KTX2 without the extension registered).
 *
 * @module
 */
import { type Document, type Property, PropertyType, type Texture } from "@gltf-transform/core";
import { canonicalJson, sha256Hex } from "../../runtime/canonical.ts";
import { sceneToChange } from "../../runtime/scene/copy.ts";

/**
 * `scene` with repeated images merged ({@link mergeImages}): `scene` itself when every image is
 * distinct, else `scene` changed in place when `owned()` says nothing else sees it, else a copy
 * sharing its vertex data. `owned` is asked only when there is something to merge: asking readies
 * the scene for change and forgets the GLB the writer remembers of it.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { withImagesMerged } from "./merge_images.ts";
 *
 * const scene = new Document();
 * const png = new Uint8Array([137, 80, 78, 71]);
 * scene.createTexture("skin").setImage(png).setMimeType("image/png");
 * scene.createTexture("skin.001").setImage(png.slice()).setMimeType("image/png");
 * const written = withImagesMerged(scene, () => false); // a copy with one texture; `scene` keeps two
 * ```
 */
export function withImagesMerged(scene: Document, owned: () => boolean): Document {
  const duplicates = duplicateImages(scene);
  if (!duplicates.size) return scene;
  const changed = sceneToChange(scene, owned());
  mergeImages(changed, duplicates);
  return changed;
}

/**
 * For each texture (by index in `root.listTextures()`) that repeats an earlier one's image, the index
 * of that earlier texture. Empty when every image is distinct. Only images that share a MIME type and
 * byte length with another are hashed, so a scene of distinct PNGs costs a pass over the list.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { duplicateImages } from "./merge_images.ts";
 *
 * const doc = new Document();
 * const png = new Uint8Array([137, 80, 78, 71]);
 * doc.createTexture("skin").setImage(png).setMimeType("image/png");
 * doc.createTexture("skin.001").setImage(png.slice()).setMimeType("image/png");
 * duplicateImages(doc); // Map { 1 => 0 }
 * ```
 */
export function duplicateImages(doc: Document): Map<number, number> {
  const textures = doc.getRoot().listTextures();
  const bySize = new Map<string, number[]>();
  for (let i = 0; i < textures.length; i++) {
    const image = textures[i].getImage();
    if (!image?.byteLength || textures[i].listExtensions().length) continue;
    const key = `${textures[i].getMimeType()}\n${image.byteLength}`;
    const group = bySize.get(key);
    if (group) group.push(i);
    else bySize.set(key, [i]);
  }
  const into = new Map<number, number>();
  for (const group of bySize.values()) {
    if (group.length < 2) continue;
    const first = new Map<string, number>();
    for (const i of group) {
      const extras = extrasKey(textures[i]);
      if (extras === undefined) continue;
      // SHA-256, as the cache addresses content by: equal digests are equal bytes.
      const key = `${sha256Hex(textures[i].getImage()!)}\n${extras}`;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, i);
      else into.set(i, earlier);
    }
  }
  return into;
}

/**
 * Merges each texture of `duplicates` ({@link duplicateImages} of this document or of one copied from
 * it, which lists textures in the same order) into the one it repeats, in place: every material (or extension property) that sampled
 * it samples the kept one, and the repeat is removed. A kept texture without a name takes the first
 * name among its repeats, so Blender's image list still says what the picture is.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { duplicateImages, mergeImages } from "./merge_images.ts";
 *
 * const doc = new Document();
 * const png = new Uint8Array([137, 80, 78, 71]);
 * const skin = doc.createTexture("skin").setImage(png).setMimeType("image/png");
 * const copy = doc.createTexture("skin.001").setImage(png.slice()).setMimeType("image/png");
 * doc.createMaterial("hull").setBaseColorTexture(skin);
 * doc.createMaterial("wing").setBaseColorTexture(copy);
 * mergeImages(doc, duplicateImages(doc)); // both materials sample `skin`; `skin.001` is gone
 * ```
 */
export function mergeImages(doc: Document, duplicates: ReadonlyMap<number, number>): void {
  const textures = doc.getRoot().listTextures();
  for (const [repeat, kept] of [...duplicates].sort((a, b) => a[0] - b[0])) {
    const from = textures[repeat], to = textures[kept];
    if (!to.getName() && from.getName()) to.setName(from.getName());
    keepImageNames(doc, from, to);
    for (const parent of from.listParents()) {
      if (parent.propertyType !== "Root") parent.swap(from, to);
    }
  }
  for (const repeat of duplicates.keys()) textures[repeat].dispose();
}

/** A material's core texture slots, as glTF-Transform names the references (and glTF the texture infos). */
const SLOTS = new Set([
  "baseColorTexture",
  "metallicRoughnessTexture",
  "normalTexture",
  "occlusionTexture",
  "emissiveTexture",
]);

/**
 * Records, in the extras of each material whose slot samples `from` (a repeat merged into `to`), the
 * name `from` had, when it differs from `to`'s: `extras.image_names.<slot>`. three.js gives every
 * material sampling one image one texture named after it, so the repeat's name was nowhere (a packed
 * `wood.001`, a rip's `HULL.TGA` beside `hull.tga`); the material's extras reach its `userData`, and
 * Blender keeps them. `decode.gltf` gives the slot an image of that name back and drops the record.
 * A slot of a material extension (clear coat, sheen, specular…) is recorded under glTF's name of it
 * (`clearcoatRoughnessTexture`), on each material that uses the extension: those names are unique
 * across the Khronos extensions, and Substance's and Blender's packed maps share bytes there most.
 */
function keepImageNames(doc: Document, from: Texture, to: Texture): void {
  const name = from.getName();
  if (!name.trim() || name === to.getName()) return;
  for (const edge of doc.getGraph().listParentEdges(from)) {
    const slot = edge.getName();
    for (const material of materialsOf(edge.getParent() as Property, slot)) {
      const extras = material.getExtras() as Record<string, unknown>;
      const own = extras.image_names;
      // A user's own `image_names` of another shape is left alone.
      if (own !== undefined && (typeof own !== "object" || own === null || Array.isArray(own))) continue;
      material.setExtras({ ...extras, image_names: { ...own as object, [slot]: name } });
    }
  }
}

/**
 * The materials whose `slot` is the reference from `parent`: the material itself for a core slot, the
 * materials using an extension's property for one of its texture slots, else none.
 */
function materialsOf(parent: Property, slot: string): Property[] {
  if (parent.propertyType === PropertyType.MATERIAL) return SLOTS.has(slot) ? [parent] : [];
  if (!slot.endsWith("Texture")) return [];
  return parent.listParents().filter((p) => p.propertyType === PropertyType.MATERIAL);
}

/** A texture's extras as canonical JSON; undefined when they have no JSON form (never merged then). */
function extrasKey(texture: Texture): string | undefined {
  try {
    return canonicalJson(texture.getExtras());
  } catch {
    return undefined;
  }
}
