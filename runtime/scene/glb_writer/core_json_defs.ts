/**
 * The definitions `writeCoreJson` (core_json.ts) builds as glTF-Transform 4.5's writer does — accessors,
 * sparse accessors, materials, a property's name and extras — and the writer's context for the
 * material extensions it writes through their own hooks.
 *
 * @module
 */
import {
  type Accessor,
  type Document,
  Format,
  type GLTF,
  type Graph,
  Material,
  MathUtils,
  type Property,
  type Texture,
  type TextureInfo,
  VertexLayout,
  WriterContext,
} from "@gltf-transform/core";
import { type ChunkLayout, placeViews, type SparseViews } from "./layout.ts";
import { sparseViews } from "./sparse.ts";
import { valueFacts } from "../array_facts.ts";
import { hasOwnKey, parentEdgesOf } from "../graph_props.ts";

/**
 * Extensions whose hooks only add JSON — to materials, texture infos, textures, nodes, meshes' primitives
 * or the root — from the writer's index maps, which `writeCoreJson` fills (its materials' textures
 * through the same `createTextureInfoDef` numbering): Freelancer's decoder's material extensions and
 * the ones files of Blender, three.js and glTF-Transform carry. Every one is registered with `gltfIO`
 * (all of glTF-Transform's), so the writer writes them all. Extensions with accessor or buffer hooks
 * (Draco, meshopt, GPU instancing, metadata) lay out views of their own: `chunkLayout` refuses them.
 */
export const SIMPLE_EXTENSIONS: ReadonlySet<string> = new Set([
  "EXT_texture_avif",
  "EXT_texture_webp",
  "KHR_lights_punctual",
  "KHR_materials_anisotropy",
  "KHR_materials_clearcoat",
  "KHR_materials_diffuse_transmission",
  "KHR_materials_dispersion",
  "KHR_materials_emissive_strength",
  "KHR_materials_ior",
  "KHR_materials_iridescence",
  "KHR_materials_pbrSpecularGlossiness",
  "KHR_materials_sheen",
  "KHR_materials_specular",
  "KHR_materials_transmission",
  "KHR_materials_unlit",
  "KHR_materials_variants",
  "KHR_materials_volume",
  "KHR_mesh_quantization",
  "KHR_node_visibility",
  "KHR_texture_basisu",
  "KHR_texture_transform",
  "KHR_xmp_json_ld",
]);

/** The writer's order of extensions: by name. */
export function byName(a: { extensionName: string }, b: { extensionName: string }): number {
  return a.extensionName > b.extensionName ? 1 : -1;
}

/** A writer's context around `json`, for the hooks of {@link SIMPLE_EXTENSIONS}. */
export function writerContext(
  doc: Document,
  json: GLTF.IGLTF,
  materialIndex: Map<Material, number>,
  format: Format = Format.GLB,
): WriterContext {
  const options = {
    format,
    basename: "",
    logger: doc.getLogger(),
    vertexLayout: VertexLayout.INTERLEAVED,
    dependencies: {},
    extensions: [],
  } as unknown as ConstructorParameters<typeof WriterContext>[2];
  const context = new WriterContext(doc, { json, resources: {} }, options);
  for (const [material, index] of materialIndex) context.materialIndexMap.set(material, index);
  return context;
}

/**
 * The writer's `createAccessorDef`: name, extras, type, component type, count, bounds (for a
 * POSITION attribute of a primitive or morph target, or an animation sampler's input, by any parent
 * edge, as the writer tests) and `normalized` when set.
 */
export function accessorDef(graph: Graph<Property>, accessor: Accessor): GLTF.IAccessor {
  const def = propertyDef(accessor) as GLTF.IAccessor;
  def.type = accessor.getType();
  def.componentType = accessor.getComponentType();
  def.count = accessor.getCount();
  let needsBounds = false;
  // The graph's own set of edges, not a copy of it per accessor.
  for (const edge of parentEdgesOf(graph, accessor)) {
    if (
      (edge.getName() === "attributes" && (edge.getAttributes() as { key?: string }).key === "POSITION") ||
      edge.getName() === "input"
    ) {
      needsBounds = true;
      break;
    }
  }
  if (needsBounds) {
    // The numbers of the writer's getMax/getMin and Math.fround (array_facts.ts); copies, as the
    // JSON is the caller's to change.
    const { min, max } = valueFacts(accessor.getArray()!, accessor.getElementSize());
    def.max = max.slice();
    def.min = min.slice();
  }
  if (accessor.getNormalized()) def.normalized = accessor.getNormalized();
  return def;
}

/**
 * The sparse accessors' definitions with their `sparse` entries, and the lengths of their index and
 * value views (none when every element is zero); the views' bytes go into the layout, which is
 * placed again. The index view's number is the image views' and the views before it.
 */
export function writeSparse(
  graph: Graph<Property>,
  layout: ChunkLayout,
  view: SparseViews,
): { defs: GLTF.IAccessor[]; viewLengths: readonly number[] } {
  const defs = view.accessors.map((accessor) => accessorDef(graph, accessor));
  const firstView = layout.images.length + layout.views.indexOf(view);
  const { bytes, viewLengths } = sparseViews(view.accessors, defs, firstView);
  if (viewLengths.length) {
    view.bytes = bytes;
    view.byteLength = bytes.byteLength;
    placeViews(layout);
  }
  return { defs, viewLengths };
}

/** The writer's `createPropertyDef`: the name when not empty, the property's own extras when any. */
export function propertyDef(property: Property): { name?: string; extras?: Record<string, unknown> } {
  const def: { name?: string; extras?: Record<string, unknown> } = {};
  if (property.getName()) def.name = property.getName();
  const extras = property.getExtras();
  // Without a list of its keys: this runs for every accessor, primitive and node of the file.
  if (hasOwnKey(extras)) def.extras = extras;
  return def;
}

/** A material as the writer writes it: defaults left out, textures through `textureInfoDef`. */
export function materialDef(
  material: Material,
  textureInfoDef: (texture: Texture, info: TextureInfo) => GLTF.ITextureInfo,
): GLTF.IMaterial {
  const def = propertyDef(material) as GLTF.IMaterial;
  if (material.getAlphaMode() !== Material.AlphaMode.OPAQUE) def.alphaMode = material.getAlphaMode();
  if (material.getAlphaMode() === Material.AlphaMode.MASK) def.alphaCutoff = material.getAlphaCutoff();
  if (material.getDoubleSided()) def.doubleSided = true;
  const pbr: GLTF.IMaterialPbrMetallicRoughness = def.pbrMetallicRoughness = {};
  if (!MathUtils.eq(material.getBaseColorFactor(), [1, 1, 1, 1])) {
    pbr.baseColorFactor = material.getBaseColorFactor();
  }
  if (!MathUtils.eq(material.getEmissiveFactor(), [0, 0, 0])) {
    def.emissiveFactor = material.getEmissiveFactor();
  }
  if (material.getRoughnessFactor() !== 1) pbr.roughnessFactor = material.getRoughnessFactor();
  if (material.getMetallicFactor() !== 1) pbr.metallicFactor = material.getMetallicFactor();
  const baseColor = material.getBaseColorTexture();
  if (baseColor) pbr.baseColorTexture = textureInfoDef(baseColor, material.getBaseColorTextureInfo()!);
  const emissive = material.getEmissiveTexture();
  if (emissive) def.emissiveTexture = textureInfoDef(emissive, material.getEmissiveTextureInfo()!);
  const normal = material.getNormalTexture();
  if (normal) {
    const info = textureInfoDef(normal, material.getNormalTextureInfo()!) as GLTF.IMaterialNormalTextureInfo;
    if (material.getNormalScale() !== 1) info.scale = material.getNormalScale();
    def.normalTexture = info;
  }
  const occlusion = material.getOcclusionTexture();
  if (occlusion) {
    const info = textureInfoDef(
      occlusion,
      material.getOcclusionTextureInfo()!,
    ) as GLTF.IMaterialOcclusionTextureInfo;
    if (material.getOcclusionStrength() !== 1) info.strength = material.getOcclusionStrength();
    def.occlusionTexture = info;
  }
  const metallicRoughness = material.getMetallicRoughnessTexture();
  if (metallicRoughness) {
    pbr.metallicRoughnessTexture = textureInfoDef(
      metallicRoughness,
      material.getMetallicRoughnessTextureInfo()!,
    );
  }
  return def;
}

/** The writer's `clean`: top-level empty arrays, empty objects, null and "" removed. */
export function clean(object: Record<string, unknown>): void {
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (
      (Array.isArray(value) && value.length === 0) || value === null || value === "" ||
      (value && typeof value === "object" && Object.keys(value).length === 0)
    ) delete object[key];
  }
}
