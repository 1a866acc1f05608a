/**
 * Names a tool changed and kept the original of in `extras.name`, restored. three.js's `GLTFLoader`
 * spells node names as its animation bindings need them (`PropertyBinding.sanitizeNodeName`: whitespace
 * as `_`, without `[ ] . : /`; a repeat gets `_<n>`) and keeps the name the file gave in
 * `userData.name`, which `GLTFExporter` writes as `extras.name`: a model saved from a three.js editor
 * comes back with `FlapL` for `Flap.L`. partgraph's own `export.gltf` writes a repeated name as
 * `<name>_<n>` with the original in `extras.name` the same way. Only a name that is such a spelling of
 * its `extras.name` is restored, so an `extras.name` that means something else is left alone. Since
 * `export.gltf` v17 a name is also cut to Blender's 63 bytes (at a character boundary) and a NUL in it
 * written `_`; its morph target names, a list with no `extras.name` of its own, keep their originals in
 * the mesh's `extras.partgraph.target_names`. A skin written under its armature's name (`export.gltf`
 * v32) gets its own back the same way; a mesh's, camera's or light's copy of its original in
 * `extras.mesh_name`, `camera_name` or `light_name` (v42) goes with its `extras.name`.
 *
 * @module
 */
import {
  type Document,
  type ExtensionProperty,
  type Material,
  type Mesh,
  type Property,
  PropertyType,
  type Skin,
  type Texture,
} from "@gltf-transform/core";
import { keptByBlender } from "../../../../runtime/scene/derived_names.ts";
import { fitBytes, MAX_NAME_BYTES } from "../../../../runtime/scene/unique_names.ts";
import { ORIGINAL_NAME_KEY, ORIGINAL_NAME_KEYS } from "../../../../runtime/scene/written_json.ts";

/** A name as three.js's loader spells it (`PropertyBinding.sanitizeNodeName`). */
function sanitised(name: string): string {
  return name.replace(/\s/g, "_").replace(/[[\].:/]/g, "");
}

/**
 * Whether `name` is how three.js's loader or partgraph's export spells `original`: sanitised, or
 * either spelling with a `_<n>` clash suffix; either cut to Blender's 63 bytes of UTF-8 at a character
 * boundary (the suffix then in place of the last characters), a NUL written `_`. Any other name (one a
 * user gave in Blender, a shorter prefix) is not.
 */
export function isRespelling(name: string, original: string): boolean {
  if (name === original || original === "") return false;
  const suffix = /_\d+$/.exec(name)?.[0] ?? "";
  const base = name.slice(0, name.length - suffix.length);
  const unNul = original.includes("\0") ? original.replaceAll("\0", "_") : original;
  for (const spelling of new Set([original, unNul, sanitised(original), sanitised(unNul)])) {
    if (name === spelling || name === fitBytes(spelling, MAX_NAME_BYTES)) return true;
    if (suffix && (base === spelling || base === fitBytes(spelling, MAX_NAME_BYTES - suffix.length))) {
      return true;
    }
  }
  return false;
}

/**
 * Restores, in place, every property's name that is a respelling of its `extras.name`
 * ({@link isRespelling}), and removes that `extras.name`, which the name now holds. Returns
 * `'<written>' → '<restored>'` for each, in file order (nodes, scenes, meshes, materials, textures,
 * animations, skins, cameras, lights), then morph target names ({@link restoreTargetNames}).
 *
 * @example
 * ```ts ignore
 * const restored = restoreOriginalNames(doc); // ["'FlapL' → 'Flap.L'"]
 * ```
 */
export function restoreOriginalNames(doc: Document): string[] {
  const root = doc.getRoot();
  const properties: (Property | ExtensionProperty)[] = [
    ...root.listNodes(),
    ...root.listScenes(),
    ...root.listMeshes(),
    ...root.listMaterials(),
    ...root.listTextures(),
    ...root.listAnimations(),
    ...root.listSkins(),
    ...root.listCameras(),
    // KHR_lights_punctual's lights: export.gltf renames them as it does cameras.
    ...(root.listExtensionsUsed().find((e) => e.extensionName === "KHR_lights_punctual")?.listProperties() ??
      []),
  ];
  const restored: string[] = [];
  const armatureNamed = new Set(root.listSkins().filter(namedAfterItsArmature));
  for (const property of properties) {
    const extras = property.getExtras() as Record<string, unknown>;
    if (restoreFromOriginalName(property, extras, restored)) continue;
    const original = extras.name;
    if (typeof original !== "string" || original === "") continue;
    const respelt = isRespelling(property.getName(), original) ||
      (property.propertyType === PropertyType.TEXTURE && isImageSpelling(property.getName(), original));
    if (!respelt && !armatureNamed.has(property as Skin)) continue;
    restored.push(`'${property.getName()}' → '${original}'`);
    const { name: _, ...rest } = extras;
    // export.gltf keeps a mesh's, camera's or light's original as extras.mesh_name… too (three.js
    // overwrites userData.name).
    for (const key of Object.values(ORIGINAL_NAME_KEYS)) if (rest[key] === original) delete rest[key];
    property.setName(original).setExtras(rest);
  }
  for (const mesh of root.listMeshes()) restoreTargetNames(mesh, restored);
  for (const material of root.listMaterials()) restoreImageNames(doc, material, restored);
  return restored;
}

/**
 * A name restored from `extras.original_name` (`export.gltf` v47 keeps a renamed property's original
 * there when its extras hold a `name` of their own, which is left as it is), when the name is a
 * respelling of it; the key goes. False when there is none to restore from.
 */
function restoreFromOriginalName(
  property: Property | ExtensionProperty,
  extras: Record<string, unknown>,
  restored: string[],
): boolean {
  const original = extras[ORIGINAL_NAME_KEY];
  if (typeof original !== "string" || original === "") return false;
  const name = property.getName();
  const respelt = isRespelling(name, original) ||
    (property.propertyType === PropertyType.TEXTURE && isImageSpelling(name, original));
  if (!respelt) return false;
  restored.push(`'${name}' → '${original}'`);
  const { [ORIGINAL_NAME_KEY]: _, ...rest } = extras;
  for (const key of Object.values(ORIGINAL_NAME_KEYS)) if (rest[key] === original) delete rest[key];
  property.setName(original).setExtras(rest);
  return true;
}

/**
 * Whether `name` is how `export.gltf` writes an image named `original` (v26): as Blender's exporter
 * keeps it, `.png`/`.jpg` dropped and other dots `_` (`keptByBlender`: `wood.png` → `wood`,
 * `cube.001` → `cube_001`), then cut or made unique as any name ({@link isRespelling}).
 */
function isImageSpelling(name: string, original: string): boolean {
  const kept = keptByBlender(original);
  return kept !== original && (name === fitBytes(kept, MAX_NAME_BYTES) || isRespelling(name, kept));
}

/** A material's core texture slots (glTF-Transform's names of the references), each with its setter. */
const IMAGE_SLOTS: Record<string, (material: Material, texture: Texture) => void> = {
  baseColorTexture: (m, t) => m.setBaseColorTexture(t),
  metallicRoughnessTexture: (m, t) => m.setMetallicRoughnessTexture(t),
  normalTexture: (m, t) => m.setNormalTexture(t),
  occlusionTexture: (m, t) => m.setOcclusionTexture(t),
  emissiveTexture: (m, t) => m.setEmissiveTexture(t),
};

/**
 * A material's `extras.image_names` (`export.gltf` v46: the name of an image merged into another of
 * the same bytes, by slot) restored: the slot samples an image of that name again (the same bytes,
 * shared by every slot that named it), and the record is removed. A record naming a slot without an
 * image, or not a string, is left as it is.
 */
function restoreImageNames(doc: Document, material: Material, restored: string[]): void {
  const extras = material.getExtras() as Record<string, unknown>;
  const names = extras.image_names;
  if (!names || typeof names !== "object" || Array.isArray(names)) return;
  const left: Record<string, unknown> = {};
  for (const [slot, name] of Object.entries(names as Record<string, unknown>)) {
    const at = slotOf(doc, material, slot);
    const texture = at?.texture;
    if (!at || typeof name !== "string" || !texture) {
      left[slot] = name;
      continue;
    }
    if (texture.getName() === name) continue;
    const twin = doc.getRoot().listTextures().find((t) =>
      t.getName() === name && t.getImage() === texture.getImage() && t.getMimeType() === texture.getMimeType()
    ) ?? doc.createTexture(name).setImage(texture.getImage()!).setMimeType(texture.getMimeType())
      .setExtras({ ...texture.getExtras() });
    // This slot alone: another slot of the material may sample the kept image under its own name.
    at.set(twin);
    restored.push(`'${texture.getName()}' → '${name}' (${slot} of material '${material.getName()}')`);
  }
  const { image_names: _, ...rest } = extras;
  material.setExtras(Object.keys(left).length ? { ...rest, image_names: left } : rest);
}

/**
 * A material's image slot named `slot`: a core one ({@link IMAGE_SLOTS}), or a texture slot of one of
 * its extensions (`clearcoatRoughnessTexture`; `export.gltf` v48), with the texture it samples and
 * the setter of that slot alone (the extension property's own `set<Slot>`, keeping its texture info).
 */
function slotOf(
  doc: Document,
  material: Material,
  slot: string,
): { texture?: Texture; set: (texture: Texture) => void } | undefined {
  const graph = doc.getGraph();
  const sampled = (parent: Material | ExtensionProperty) =>
    graph.listChildEdges(parent).find((e) => e.getName() === slot)?.getChild() as Texture | undefined;
  if (Object.hasOwn(IMAGE_SLOTS, slot)) {
    return { texture: sampled(material), set: (t) => IMAGE_SLOTS[slot](material, t) };
  }
  if (!/^[a-z][A-Za-z]*Texture$/.test(slot)) return undefined;
  for (const extension of material.listExtensions()) {
    const setter =
      (extension as unknown as Record<string, unknown>)[`set${slot[0].toUpperCase()}${slot.slice(1)}`];
    const texture = sampled(extension);
    if (typeof setter === "function" && texture) {
      return { texture, set: (t) => setter.call(extension, t) };
    }
  }
  return undefined;
}

/**
 * Whether `skin` is named as its armature — a node above all its joints (`export.gltf` v32 writes a
 * skin under its armature's name, as Blender's exporter does, the original in `extras.name`).
 */
function namedAfterItsArmature(skin: Skin): boolean {
  const joints = skin.listJoints();
  if (joints.length === 0) return false;
  for (let node = joints[0].getParentNode(); node; node = node.getParentNode()) {
    if (node.getName() !== skin.getName()) continue;
    return joints.every((joint) => {
      for (let up = joint.getParentNode(); up; up = up.getParentNode()) if (up === node) return true;
      return false;
    });
  }
  return false;
}

/**
 * A mesh's morph target names restored from `extras.partgraph.target_names` (`export.gltf`'s originals
 * of the names it cut or made unique), when the list has one name per target and each written name is
 * the original or a respelling of it ({@link isRespelling}); the key is removed then. A list that does
 * not match (a target added, or renamed in Blender) leaves the written names. Notes go to `restored`.
 */
function restoreTargetNames(mesh: Mesh, restored: string[]): void {
  const extras = mesh.getExtras() as Record<string, unknown>;
  const partgraph = extras.partgraph as Record<string, unknown> | undefined;
  const originals = partgraph?.target_names;
  if (!Array.isArray(originals) || !originals.every((name) => typeof name === "string")) return;
  const primitives = mesh.listPrimitives().filter((primitive) => primitive.listTargets().length > 0);
  if (primitives.length === 0) return;
  const written = primitives[0].listTargets().map((target) => target.getName());
  const fits = originals.length === written.length &&
    primitives.every((primitive) => primitive.listTargets().length === originals.length) &&
    written.every((name, i) => name === originals[i] || isRespelling(name, originals[i]));
  if (!fits) return;
  written.forEach((name, i) => {
    if (name !== originals[i]) restored.push(`'${name}' → '${originals[i]}'`);
  });
  for (const primitive of primitives) {
    primitive.listTargets().forEach((target, i) => target.setName(originals[i]));
  }
  const { target_names: _, ...own } = partgraph!;
  const { partgraph: __, ...rest } = extras;
  const kept: Record<string, unknown> = Object.keys(own).length > 0 ? { ...rest, partgraph: own } : rest;
  if (Array.isArray(kept.targetNames)) kept.targetNames = originals.slice();
  mesh.setExtras(kept);
}
