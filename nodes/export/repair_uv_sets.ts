/**
 * Which UV sets a material's textures sample, and the repairs that change it for one primitive: a
 * material sampling a set its primitive lacks (`retargetTexCoords`), and a primitive whose sets were
 * renumbered (`remapUvSets`). Each gives the primitive its own copy of the material, so other
 * primitives sharing it keep theirs.
 *
 * @module
 */
import { type Primitive, Texture, type TextureInfo } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { textureSlots, uvSetOf } from "../../runtime/scene/texture_slots.ts";

/** A primitive's material. */
export type Material = NonNullable<ReturnType<Primitive["getMaterial"]>>;

/** The texture infos of a material's slots and its extensions' (each names a UV set), unset ones left out. */
const textureInfos = (material: Material): TextureInfo[] => textureSlots(material).map((slot) => slot.info);

/**
 * A material sampling `TEXCOORD_n` on a primitive without it is invalid glTF. A decoder's material
 * flags naming a second UV set the mesh lacks: the primitive gets its own copy of the material,
 * sampling `TEXCOORD_0` instead (`retargeted`). A mesh with no UV set at all, sharing a textured
 * material with meshes that have one (common in game rips and CAD conversions): its copy of the
 * material has no textures, its extensions' neither (`untextured`), which is how viewers draw it. `sets` remembers each
 * material's UV sets, read once however many primitives share it.
 */
export function retargetTexCoords(
  primitive: Primitive,
  apply: boolean,
  sets: Map<Material, number[]>,
  copies: UvSetCopies = { untextured: new Map(), replaced: new Set() },
): "retargeted" | "untextured" | undefined {
  const material = primitive.getMaterial();
  if (!material) return undefined;
  let used = sets.get(material);
  if (!used) sets.set(material, used = textureInfos(material).map(uvSetOf));
  if (!used.length) return undefined;
  if (!primitive.getAttribute("TEXCOORD_0")) {
    if (apply) {
      let copy = copies.untextured.get(material);
      if (!copy) copies.untextured.set(material, copy = withoutTextures(ownCopy(material)));
      primitive.setMaterial(copy);
      copies.replaced.add(material);
    }
    return "untextured";
  }
  const has = (set: number) => set === 0 || !!primitive.getAttribute(`TEXCOORD_${set}`);
  if (used.every(has)) return undefined;
  if (apply) {
    const own = ownCopy(material);
    for (const info of textureInfos(own)) if (!has(uvSetOf(info))) sampleFirstUvSet(info);
    primitive.setMaterial(own);
    copies.replaced.add(material);
  }
  return "retargeted";
}

/**
 * The material copies {@link retargetTexCoords} made in one scene: one untextured copy per material,
 * shared by every primitive without UVs that drew it, and the materials copied.
 */
export interface UvSetCopies {
  readonly untextured: Map<Material, Material>;
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
 * `material` with its texture slots emptied, its extensions' too: each extension's texture is a
 * reference named like `diffuseTexture`, which glTF-Transform sets through `setDiffuseTexture`.
 */
function withoutTextures(material: Material): Material {
  const graph = material.getGraph();
  for (const extension of material.listExtensions()) {
    for (const edge of graph.listChildEdges(extension)) {
      if (!(edge.getChild() instanceof Texture)) continue;
      const name = edge.getName();
      const setter =
        (extension as unknown as Record<string, unknown>)[`set${name[0].toUpperCase()}${name.slice(1)}`];
      if (typeof setter === "function") setter.call(extension, null);
    }
  }
  return material.setBaseColorTexture(null).setEmissiveTexture(null).setNormalTexture(null)
    .setOcclusionTexture(null).setMetallicRoughnessTexture(null);
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
