/**
 * Unique names for written files. Viewers rename repeated names on import, each its own way
 * (Blender `Circle.001`, three.js `Circle_1`), so a report naming `Circle` would point at the wrong
 * object, and a Blender round trip would change a user's material, mesh, image and clip names.
 * `export.gltf` writes the names this module gives, and `rig.report` reports the same.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";

/**
 * The kinds of property, besides nodes and scenes, whose repeated names Blender renames on import
 * (each in a namespace of its own: `Paint.001` beside a node `Paint` is no clash), keyed by the
 * glTF array they are written to. A `Texture` of glTF-Transform is written as a glTF image.
 */
export const NAMED_KINDS = ["meshes", "materials", "images", "animations", "skins", "cameras"] as const;

/** One of {@link NAMED_KINDS}. */
export type NamedKind = typeof NAMED_KINDS[number];

/**
 * The names a written file gives its properties: nodes and scenes indexed like `listNodes()` /
 * `listScenes()`, the others ({@link NAMED_KINDS}) like the root's list of their kind.
 */
export interface ExportNames {
  readonly nodes: string[];
  readonly scenes: string[];
  readonly others: Readonly<Record<NamedKind, string[]>>;
}

/**
 * The name each property gets in a written file. Node and scene names clash when they are equal once
 * spelt the way three.js compares them (whitespace as `_`, without `[ ] . : /`), since three.js
 * renames a clash in one namespace shared by scenes and nodes. Nodes come first, in file order: the
 * first holder of a name keeps it, a later clash becomes `<name>_<n>` with the smallest n ≥ 1 that
 * clashes with no name in the file (before or after it); then scenes, the same way. Meshes,
 * materials, images, animations, skins and cameras follow the same rule, each kind on its own and
 * names compared exactly, as Blender's namespaces are (three.js keeps these names as they are).
 * Empty names stay empty. Applying the rule to its own output changes nothing.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { exportNames } from "./unique_names.ts";
 *
 * const doc = new Document();
 * for (const name of ["Circle", "Circle", "Circle_1"]) doc.createNode(name);
 * exportNames(doc).nodes; // ["Circle", "Circle_2", "Circle_1"]
 * ```
 */
export function exportNames(doc: Document): ExportNames {
  const root = doc.getRoot();
  const nodeNames = root.listNodes().map((node) => node.getName());
  const sceneNames = root.listScenes().map((scene) => scene.getName());
  const unique = uniqueIn([...nodeNames, ...sceneNames], clashKey);
  const lists = namedProperties(doc);
  const others = {} as Record<NamedKind, string[]>;
  for (const kind of NAMED_KINDS) {
    const names = lists[kind].map((property) => property.getName());
    others[kind] = names.map(uniqueIn(names, (name) => name));
  }
  return { nodes: nodeNames.map(unique), scenes: sceneNames.map(unique), others };
}

/** The properties of each of {@link NAMED_KINDS}, in the order the writer writes them. */
export function namedProperties(doc: Document): Record<NamedKind, { getName(): string }[]> {
  const root = doc.getRoot();
  return {
    meshes: root.listMeshes(),
    materials: root.listMaterials(),
    images: root.listTextures(),
    animations: root.listAnimations(),
    skins: root.listSkins(),
    cameras: root.listCameras(),
  };
}

/** The renaming of names met in order, in one namespace of `names` compared by `key`. */
function uniqueIn(names: readonly string[], key: (name: string) => string): (name: string) => string {
  const taken = new Set(names.map(key));
  const held = new Set<string>();
  return (name: string): string => {
    if (name === "" || !held.has(key(name))) {
      held.add(key(name));
      return name;
    }
    let n = 1;
    while (taken.has(key(`${name}_${n}`))) n++;
    const renamed = `${name}_${n}`;
    taken.add(key(renamed));
    held.add(key(renamed));
    return renamed;
  };
}

/** A name as three.js compares names (`PropertyBinding.sanitizeNodeName`). */
function clashKey(name: string): string {
  return name.replace(/\s/g, "_").replace(/[[\].:/]/g, "");
}
