/**
 * Which UV sets a material's textures sample, and the repairs that change it for one primitive: a
 * material sampling a set its primitive lacks (`retargetTexCoords`: UVs of zeros for a primitive with
 * none, else its own copy of the material), and a primitive whose sets were renumbered (`remapUvSets`,
 * its own copy), so other primitives sharing the material keep theirs.
 *
 * @module
 */
import { type Accessor, Document, type Primitive, Texture, type TextureInfo } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { textureSlots, uvSetOf } from "../../runtime/scene/texture_slots.ts";
import { type Attributes, readAttributes } from "../../runtime/scene/primitive_attributes.ts";

/** A primitive's material. */
export type Material = NonNullable<ReturnType<Primitive["getMaterial"]>>;

/** The texture infos of a material's slots and its extensions' (each names a UV set), unset ones left out. */
const textureInfos = (material: Material): TextureInfo[] => textureSlots(material).map((slot) => slot.info);

/**
 * The UV sets a material's texture references sample (`used`: a transform's where it has one) and
 * name for viewers without `KHR_texture_transform` (`fallbacks`), read once per material however many
 * primitives share it: a ship's few materials are drawn by hundreds of primitives.
 */
export interface MaterialUvSets {
  readonly used: readonly number[];
  readonly fallbacks: readonly number[];
}

/**
 * A material sampling `TEXCOORD_n` on a primitive without it is invalid glTF. A decoder's material
 * flags naming a second UV set the mesh lacks: the primitive gets its own copy of the material,
 * sampling `TEXCOORD_0` instead (`retargeted`). A mesh with no UV set at all drawn with a textured
 * material (common in game rips and CAD conversions, whose UVs were lost): viewers draw such a file
 * sampling every texture at UV (0,0) (three.js reads the missing attribute as 0), so its look is the
 * texture's corner colour times the factors. The primitive is given a `TEXCOORD_0` of zeros
 * (`corner`; one accessor per vertex count, shared), so every client draws the file as viewers drew
 * the source, and the material stays shared and named as it was (before, it took an untextured copy,
 * drawn with the factors alone: another colour). `sets` remembers each material's UV sets (used and
 * fallbacks), read once however many primitives share it.
 */
export function retargetTexCoords(
  primitive: Primitive,
  apply: boolean,
  sets: Map<Material, MaterialUvSets>,
  copies: UvSetCopies = { corners: new Map(), replaced: new Set() },
  attributes: Attributes = readAttributes(primitive),
): "retargeted" | "fallback" | "corner" | undefined {
  const material = primitive.getMaterial();
  if (!material) return undefined;
  let known = sets.get(material);
  if (!known) {
    const infos = textureInfos(material);
    sets.set(
      material,
      known = { used: infos.map(uvSetOf), fallbacks: infos.map((info) => info.getTexCoord()) },
    );
  }
  const { used, fallbacks } = known;
  if (!used.length) return undefined;
  // Set 0 is there or made below: a repair here changes no answer of `has`.
  const has = (set: number) => set === 0 || attributes.has(`TEXCOORD_${set}`);
  if (!attributes.has("TEXCOORD_0")) {
    if (apply) {
      primitive.setAttribute("TEXCOORD_0", cornerUvs(primitive, copies.corners));
      // A texture naming a later set (which a primitive without UVs lacks too) samples the zeros.
      if (!used.every(has) || !fallbacks.every(has)) retarget(primitive, material, has, copies);
    }
    return "corner";
  }
  if (used.every(has)) {
    // The sets a transform samples are there; a fallback `texCoord` for viewers without the extension
    // may still name one that is not (where the material's other primitives have it, so
    // `alignTransformFallbacks` left it): this primitive's copy names the transform's set there.
    if (fallbacks.every(has)) return undefined;
    if (apply) retarget(primitive, material, has, copies);
    return "fallback";
  }
  if (apply) retarget(primitive, material, has, copies);
  return "retargeted";
}

/**
 * Gives `primitive` its own copy of `material`, each texture sampling a set it lacks made to sample
 * `TEXCOORD_0`, and each naming as its fallback (`texCoord` beside a transform's) a set it lacks made
 * to name the transform's.
 */
function retarget(
  primitive: Primitive,
  material: Material,
  has: (set: number) => boolean,
  copies: UvSetCopies,
): void {
  const own = ownCopy(material);
  for (const info of textureInfos(own)) {
    if (!has(uvSetOf(info))) sampleFirstUvSet(info);
    else if (!has(info.getTexCoord())) info.setTexCoord(uvSetOf(info));
  }
  primitive.setMaterial(own);
  copies.replaced.add(material);
}

/** A `TEXCOORD_0` of zeros for `primitive`'s vertices: one per vertex count, in its positions' buffer. */
function cornerUvs(primitive: Primitive, corners: Map<number, Accessor>): Accessor {
  const position = primitive.getAttribute("POSITION");
  const count = position?.getCount() ?? 0;
  let uvs = corners.get(count);
  if (!uvs) {
    const doc = Document.fromGraph(primitive.getGraph())!;
    const buffer = position?.getBuffer() ?? doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
    uvs = doc.createAccessor().setType("VEC2").setArray(new Float32Array(2 * count)).setBuffer(buffer);
    corners.set(count, uvs);
  }
  return uvs;
}

/**
 * What {@link retargetTexCoords} made in one scene: one `TEXCOORD_0` of zeros per vertex count, and
 * the materials it copied.
 */
export interface UvSetCopies {
  readonly corners: Map<number, Accessor>;
  readonly replaced: Set<Material>;
}

/**
 * Disposes of each material {@link retargetTexCoords} copied that nothing uses any more (its every
 * primitive took a copy), so its copy is the one material of its name — not a second that viewers
 * rename (Blender `painted.001`) and `export.gltf` writes as `painted_1`; and each texture only such
 * originals drew. A material or texture nothing used before the repair stays.
 */
export function disposeReplacedMaterials(copies: UvSetCopies): void {
  const [first] = copies.replaced;
  if (!first) return;
  const graph = first.getGraph();
  const onlyRootHolds = (property: Material | Texture) =>
    graph.listParents(property).every((parent) => parent.propertyType === "Root");
  // Textures drawn before: one only a disposed original drew goes too (written, it is dead weight).
  const textures = graph.listParents(first).find((p) => p.propertyType === "Root")!;
  const drawn = graph.listChildren(textures).filter((child): child is Texture =>
    child instanceof Texture && !onlyRootHolds(child)
  );
  for (const material of copies.replaced) if (onlyRootHolds(material)) material.dispose();
  for (const texture of drawn) if (onlyRootHolds(texture)) texture.dispose();
}

const TEXTURE_TRANSFORM = "KHR_texture_transform";

/** Makes `info` (of a material's own copy) sample `TEXCOORD_0`, its transform kept but for the set it names. */
function sampleFirstUvSet(info: TextureInfo): void {
  info.setTexCoord(0);
  const transform = info.getExtension<Transform>(TEXTURE_TRANSFORM);
  // The copy shares the transform with the original material: it gets its own.
  if (transform?.getTexCoord() != null) {
    info.setExtension(TEXTURE_TRANSFORM, transform.clone().setTexCoord(null));
  }
}

/**
 * A copy of `material` to change on its own: `clone()` gives the copy its own core texture infos but
 * shares the extensions' properties (and their texture infos) with the original, so each is cloned too.
 */
function ownCopy(material: Material): Material {
  const copy = material.clone();
  for (const extension of material.listExtensions()) {
    copy.setExtension(extension.extensionName, extension.clone());
  }
  return copy;
}

/**
 * Gives `primitive` its own copy of its material with every texture sampling set `n` made to sample
 * `renumbered.get(n)` instead, when any does.
 */
export function remapUvSets(primitive: Primitive, renumbered: ReadonlyMap<number, number>): void {
  const material = primitive.getMaterial();
  if (!material || !textureInfos(material).some((info) => renumbered.has(uvSetOf(info)))) return;
  const own = ownCopy(material);
  for (const info of textureInfos(own)) {
    const set = renumbered.get(uvSetOf(info));
    if (set === undefined) continue;
    sampleFirstUvSet(info);
    info.setTexCoord(set);
  }
  primitive.setMaterial(own);
}
