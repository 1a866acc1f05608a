/**
 * What a panel is called, as against what its node is named: the name the report and the pivot
 * (`HINGE_auto_<name>`) give it. Node names are kept as they are (paths stay honest); only the name
 * shown is read through the noise exporters add:
 *
 * - Assimp's FBX import splits an FBX model's transform into helper nodes above it,
 *   `Aileron_L_$AssimpFbx$_Translation` → `…_$AssimpFbx$_Rotation` → `Aileron_L`; the outermost is the
 *   panel (the helpers turn with it), and it is called `Aileron_L`.
 * - A node named nothing or only a placeholder (SketchUp's `Component#3`, an unnamed node three.js
 *   shows by its mesh's name) is called by its mesh's name, as name search reads it.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";

/**
 * A node name that says nothing of what it is: empty, or a tool's `Component#3`, `Group 12`, `Node_4`,
 * or assimp's `$ColladaAutoName$_7` (a COLLADA node with no id or sid: SketchUp's, whose object's
 * name is left on its mesh).
 */
export const PLACEHOLDER =
  /^\s*(?:(?:node|object|mesh|group|component|instance)[\s_#.-]*\d*|\$ColladaAutoName\$_\d+)?\s*$/i;

/** Assimp's FBX pivot helper suffix (`_$AssimpFbx$_Translation`, `_$AssimpFbx$_PreRotation`, …). */
const ASSIMP_HELPER = /_\$AssimpFbx\$_[A-Za-z]+$/;

/** `name` without Assimp's `_$AssimpFbx$_<kind>` helper suffix. */
export function withoutAssimpHelper(name: string): string {
  return name.replace(ASSIMP_HELPER, "");
}

/** What a panel's name was read from: its node's name, or (a placeholder node's) its mesh's. */
export type NamedBy = "node" | "mesh";

/** What a panel is called, and what that name was read from (see the module). */
export function panelName(node: Node): { name: string; namedBy: NamedBy } {
  const name = withoutAssimpHelper(node.getName());
  const mesh = node.getMesh()?.getName();
  return mesh && PLACEHOLDER.test(name) ? { name: mesh, namedBy: "mesh" } : { name, namedBy: "node" };
}
