/**
 * Export repair of a skinned node whose mesh lacks joint data. glTF requires every primitive of a
 * skinned node's mesh to carry JOINTS_0 and WEIGHTS_0; decode.gltf reads files so (v62), but scenes
 * from other decoders, or built by a user's nodes through the API, can still reach export with a skin
 * on a static part or on a mesh skinned on some primitives only. three.js draws each primitive without
 * the pair as a plain mesh at the node's own place and the others skinned; the output keeps that
 * reading, as decode.gltf does: a node none of whose primitives is skinned loses its skin, and where
 * only some are, those move to a mesh of their own on a child node (no transform of its own, the same
 * morph weights), every node drawing the mesh given that child. A JOINTS_n or WEIGHTS_n left on a
 * moved primitive skins nothing and goes too. The skin stays: its joints are nodes of the scene.
 * Called by `repair_properties.ts`; follows `repair.ts` (reports, and repairs when `apply`).
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import { dropJointSets, moveUnskinned, skinsPrimitive } from "../../runtime/scene/unskinned_split.ts";
import type { WrittenName as NameOf } from "../../runtime/scene/unique_names.ts";

/**
 * Repairs each node of `nodes` whose skin its mesh cannot carry (see the module doc), a message per
 * node naming it, its skin and mesh, and what was done. `split` remembers meshes already split, so
 * every node drawing one gets the same unskinned part.
 */
export function unskinnedRepairs(
  doc: Document,
  nodes: readonly Node[],
  apply: boolean,
  messages: string[],
  name: NameOf,
): void {
  const split = new Map<Mesh, Mesh>();
  for (let n = 0; n < nodes.length; n++) {
    const node = nodes[n];
    const skin = node.getSkin();
    if (!skin) continue;
    const mesh = node.getMesh();
    const label = `node '${name(node)}' has skin '${name(skin)}'`;
    const primitives = mesh?.listPrimitives() ?? [];
    const unskinned = primitives.filter((primitive) => !skinsPrimitive(primitive));
    if (!mesh || unskinned.length === primitives.length) {
      messages.push(`${label} but ${mesh ? "no joint data in its mesh" : "no mesh"}; drawn unskinned`);
      if (apply) node.setSkin(null);
      continue;
    }
    if (!unskinned.length) continue;
    const partName = `${name(mesh)}_unskinned`, childName = `${name(node)}_unskinned`;
    messages.push(
      `${label} but ${unskinned.length} of the ${primitives.length} primitives of its mesh '${name(mesh)}' ` +
        "have no JOINTS_0 and WEIGHTS_0 pair (glTF requires one): drawn unskinned at the node's own place, " +
        `as three.js draws them, moved to mesh '${partName}' on child node '${childName}'`,
    );
    if (!apply) continue;
    for (const primitive of unskinned) dropJointSets(doc, primitive);
    moveUnskinned(doc, node, unskinned, split, {
      part: (m) => `${name(m)}_unskinned`,
      child: (c) => `${name(c)}_unskinned`,
    });
  }
}
