/**
 * A node with a skin whose mesh has no joint data: glTF requires every primitive of a skinned node's
 * mesh to carry JOINTS_0 and WEIGHTS_0, yet a hand edit adds `"skin"` to a static part, an exporter
 * skins only some of a mesh's primitives (or drops the weights of one), and an optimizer strips them.
 * three.js's `GLTFLoader` draws each primitive without both attributes as a plain mesh at the node's
 * own place ("Missing skinIndex or skinWeight attributes. Skinning disabled."), and the others skinned;
 * that reading is kept, so the scene never carries a skinned mesh glTF refuses: a node none of whose
 * primitives is skinned loses its skin, and where only some are, those without joint data move to a
 * mesh of their own on a child node (same place, same morph weights). A JOINTS_n or WEIGHTS_n left on
 * such a primitive without its partner skins nothing and goes too. Each is named at
 * `/nodes/<i>/skin`. The skin itself stays: its joints are nodes of the scene either way.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { dropJointSets, moveUnskinned, skinsPrimitive } from "../../../../runtime/scene/unskinned_split.ts";

const quoted = (name: string, fallback: string) => (name ? `'${name}'` : fallback);

/** A split part's names: the mesh's and the node's with `_unskinned`, or none where they have none. */
const NAMES = {
  part: (mesh: { getName(): string }) => mesh.getName() ? `${mesh.getName()}_unskinned` : "",
  child: (node: { getName(): string }) => node.getName() ? `${node.getName()}_unskinned` : "",
};

/**
 * Reads skinned nodes whose meshes lack joint data as three.js draws them (see the module doc),
 * returning a repair per node as `<JSON path>: <what was done>`.
 */
export function unskinnedPrimitives(doc: Document): string[] {
  const repairs: string[] = [];
  const nodes = doc.getRoot().listNodes();
  // A mesh split once: every node using it gets a child drawing its unskinned part.
  const split = new Map<Mesh, Mesh>();
  nodes.forEach((node, n) => {
    const skin = node.getSkin();
    if (!skin) return;
    const mesh = node.getMesh();
    const skinLabel = quoted(skin.getName(), `${doc.getRoot().listSkins().indexOf(skin)}`);
    const label = `node ${quoted(node.getName(), `${n}`)} has skin ${skinLabel}`;
    if (!mesh) {
      node.setSkin(null);
      repairs.push(
        `/nodes/${n}/skin: ${label} but no mesh (glTF requires one): the skin is left off the node`,
      );
      return;
    }
    const primitives = mesh.listPrimitives();
    const unskinned = primitives.filter((primitive) => !skinsPrimitive(primitive));
    if (unskinned.length === 0) return;
    const sets = [...new Set(unskinned.flatMap((primitive) => dropJointSets(doc, primitive)))].sort();
    const loneNote = sets.length ? `; the leftover ${sets.join(", ")} left out` : "";
    const meshName = quoted(mesh.getName(), "of the node");
    if (unskinned.length === primitives.length) {
      node.setSkin(null);
      repairs.push(
        `/nodes/${n}/skin: ${label} but its mesh ${meshName} has no JOINTS_0 and WEIGHTS_0 pair (glTF ` +
          `requires one): read unskinned, at the node's own place, as three.js draws it${loneNote}`,
      );
      return;
    }
    const { part, child } = moveUnskinned(doc, node, unskinned, split, NAMES);
    repairs.push(
      `/nodes/${n}/skin: ${label} but ${unskinned.length} of the ${primitives.length} primitives of its mesh ` +
        `${meshName} have no JOINTS_0 and WEIGHTS_0 pair (glTF requires one): those are read unskinned, at the ` +
        `node's own place, as three.js draws them, moved to ${
          part.getName() ? `mesh '${part.getName()}'` : "a mesh"
        } ` +
        `on ${child.getName() ? `child node '${child.getName()}'` : "a child node"}${loneNote}`,
    );
  });
  return repairs;
}
