/**
 * Names a tool changed and kept the original of in `extras.name`, restored. three.js's `GLTFLoader`
 * spells node names as its animation bindings need them (`PropertyBinding.sanitizeNodeName`: whitespace
 * as `_`, without `[ ] . : /`; a repeat gets `_<n>`) and keeps the name the file gave in
 * `userData.name`, which `GLTFExporter` writes as `extras.name`: a model saved from a three.js editor
 * comes back with `FlapL` for `Flap.L`. partgraph's own `export.gltf` writes a repeated name as
 * `<name>_<n>` with the original in `extras.name` the same way. Only a name that is such a spelling of
 * its `extras.name` is restored, so an `extras.name` that means something else is left alone.
 *
 * @module
 */
import type { Document, ExtensionProperty, Property } from "@gltf-transform/core";

/** A name as three.js's loader spells it (`PropertyBinding.sanitizeNodeName`). */
function sanitised(name: string): string {
  return name.replace(/\s/g, "_").replace(/[[\].:/]/g, "");
}

/**
 * Whether `name` is how three.js's loader or partgraph's export spells `original`: sanitised, or
 * either spelling with a `_<n>` clash suffix.
 */
export function isRespelling(name: string, original: string): boolean {
  if (name === original || original === "") return false;
  const base = name.replace(/_\d+$/, "");
  const spellings = [original, sanitised(original)];
  return spellings.includes(name) || (base !== name && spellings.includes(base));
}

/**
 * Restores, in place, every property's name that is a respelling of its `extras.name`
 * ({@link isRespelling}), and removes that `extras.name`, which the name now holds. Returns
 * `'<written>' → '<restored>'` for each, in file order (nodes, scenes, meshes, materials, textures,
 * animations, skins, cameras).
 *
 * @example
 * ```ts ignore
 * const restored = restoreOriginalNames(doc); // ["'FlapL' → 'Flap.L'"]
 * ```
 */
export function restoreOriginalNames(doc: Document): string[] {
  const root = doc.getRoot();
  const properties: Exclude<Property, ExtensionProperty>[] = [
    ...root.listNodes(),
    ...root.listScenes(),
    ...root.listMeshes(),
    ...root.listMaterials(),
    ...root.listTextures(),
    ...root.listAnimations(),
    ...root.listSkins(),
    ...root.listCameras(),
  ];
  const restored: string[] = [];
  for (const property of properties) {
    const extras = property.getExtras() as Record<string, unknown>;
    const original = extras.name;
    if (typeof original !== "string" || !isRespelling(property.getName(), original)) continue;
    restored.push(`'${property.getName()}' → '${original}'`);
    const { name: _, ...rest } = extras;
    property.setName(original).setExtras(rest);
  }
  return restored;
}
