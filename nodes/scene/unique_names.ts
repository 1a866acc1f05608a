/**
 * Unique node names for written files. Viewers rename repeated node names on import, each its own
 * way (Blender `Circle.001`, three.js `Circle_1`), so a report naming `Circle` would point at the
 * wrong object. The export writes the names this module gives, and `rig.report` reports the same.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";

/**
 * The name each node gets in a written file, indexed like `root.listNodes()` (the file's node
 * order). The first node with a name keeps it; a later repeat becomes `<name>_<n>` with the smallest
 * n ≥ 1 that no node (before or after it) already uses. Empty names stay empty. Only letters the
 * viewers keep are added, so Blender and three.js show these names unchanged, and applying the rule
 * to its own output changes nothing.
 *
 * @example
 * ```ts
 * exportNodeNames(doc); // nodes Circle, Circle, Circle_1 → ["Circle", "Circle_2", "Circle_1"]
 * ```
 */
export function exportNodeNames(doc: Document): string[] {
  const names = doc.getRoot().listNodes().map((node) => node.getName());
  const taken = new Set(names);
  const seen = new Set<string>();
  return names.map((name) => {
    if (name === "" || !seen.has(name)) {
      seen.add(name);
      return name;
    }
    let n = 1;
    while (taken.has(`${name}_${n}`)) n++;
    const unique = `${name}_${n}`;
    taken.add(unique);
    return unique;
  });
}
