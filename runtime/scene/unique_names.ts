/**
 * Unique names for written files. Viewers rename repeated names on import, each its own way
 * (Blender `Circle.001`, three.js `Circle_1`), so a report naming `Circle` would point at the wrong
 * object. `export.gltf` writes the names this module gives, and `rig.report` reports the same.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";

/** The names a written file gives its nodes and scenes, indexed like `listNodes()` / `listScenes()`. */
export interface ExportNames {
  readonly nodes: string[];
  readonly scenes: string[];
}

/**
 * The name each node and scene gets in a written file. Two names clash when they are equal once
 * spelt the way three.js compares them (whitespace as `_`, without `[ ] . : /`), since three.js
 * renames a clash in one namespace shared by scenes and nodes. Nodes come first, in file order: the
 * first holder of a name keeps it, a later clash becomes `<name>_<n>` with the smallest n ≥ 1 that
 * clashes with no name in the file (before or after it); then scenes, the same way. Empty names stay
 * empty. Applying the rule to its own output changes nothing.
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
  const taken = new Set([...nodeNames, ...sceneNames].map(clashKey));
  const held = new Set<string>();
  const unique = (name: string): string => {
    const key = clashKey(name);
    if (name === "" || !held.has(key)) {
      held.add(key);
      return name;
    }
    let n = 1;
    while (taken.has(clashKey(`${name}_${n}`))) n++;
    const renamed = `${name}_${n}`;
    taken.add(clashKey(renamed));
    held.add(clashKey(renamed));
    return renamed;
  };
  return { nodes: nodeNames.map(unique), scenes: sceneNames.map(unique) };
}

/** A name as three.js compares names (`PropertyBinding.sanitizeNodeName`). */
function clashKey(name: string): string {
  return name.replace(/\s/g, "_").replace(/[[\].:/]/g, "");
}
