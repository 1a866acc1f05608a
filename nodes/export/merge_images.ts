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
 * of that earlier texture. Empty when every image is distinct. Only images that share a MIME type,
 * byte length, extras and a sample of their bytes with another are read whole, so a scene of distinct
 * textures costs a pass over the list; `work`, when given, counts the bytes so read.
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
export function duplicateImages(doc: Document, work?: ImageWork): Map<number, number> {
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
    // Then by extras and a sample of bytes: a game's textures of one format and size (Freelancer's
    // DXT, MSFS's uncompressed DDS) share a length and header but not their texels, and are told
    // apart here without reading them whole.
    const candidates = new Map<string, number[]>();
    for (const i of group) {
      const extras = extrasKey(textures[i]);
      if (extras === undefined) continue;
      const key = `${sampleKey(textures[i].getImage()!)}\n${extras}`;
      const same = candidates.get(key);
      if (same) same.push(i);
      else candidates.set(key, [i]);
    }
    for (const same of candidates.values()) {
      if (same.length > 1) equalImages(textures, same, into, work);
    }
  }
  return into;
}

/** What {@link duplicateImages} read of the images in full: for tests, which count it. */
export interface ImageWork {
  /** Bytes compared or hashed (a sampled byte not counted). */
  bytesRead: number;
}

/** Bytes sampled from each image of a shared length before any is read whole. */
const SAMPLES = 64;

/** A few bytes spread over the image (its length fixed by the group), as text: equal images give equal keys. */
function sampleKey(image: Uint8Array): string {
  const step = image.byteLength / SAMPLES;
  let key = "";
  for (let k = 0; k < SAMPLES; k++) key += String.fromCharCode(image[Math.floor(k * step)]);
  // The last bytes too, where a smaller mip level or a trailer differs.
  return key + String.fromCharCode(image[image.byteLength - 1]);
}

/**
 * Records in `into` each of `same` (texture indices, in order, of one length, MIME type, extras and
 * byte sample) whose image equals an earlier one's: two are compared byte by byte (stopping at the
 * first difference); more are hashed with SHA-256, as the cache addresses content by (equal digests
 * are equal bytes), so many alike images cost one read each, not one per pair.
 */
function equalImages(
  textures: readonly Texture[],
  same: readonly number[],
  into: Map<number, number>,
  work: ImageWork | undefined,
): void {
  if (same.length === 2) {
    const [a, b] = same;
    const first = textures[a].getImage()!, second = textures[b].getImage()!;
    const differs = firstDifference(first, second);
    if (work) work.bytesRead += 2 * (differs < 0 ? first.byteLength : differs + 1);
    if (differs < 0) into.set(b, a);
    return;
  }
  const first = new Map<string, number>();
  for (const i of same) {
    const image = textures[i].getImage()!;
    if (work) work.bytesRead += image.byteLength;
    const key = sha256Hex(image);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else into.set(i, earlier);
  }
}

/** The first byte offset where `a` and `b` (of one length) differ, or −1: whole words where both allow. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  let at = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.byteLength >> 2;
    const x = new Uint32Array(a.buffer, a.byteOffset, words),
      y = new Uint32Array(b.buffer, b.byteOffset, words);
    while (at < words && x[at] === y[at]) at++;
    at *= 4;
  }
  for (; at < a.byteLength; at++) if (a[at] !== b[at]) return at;
  return -1;
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
