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
import type { Document, Mesh, Node, Primitive } from "@gltf-transform/core";

/** Whether three.js skins `primitive`: it has both JOINTS_0 and WEIGHTS_0. */
const skinned = (primitive: Primitive) =>
  primitive.getAttribute("JOINTS_0") !== null && primitive.getAttribute("WEIGHTS_0") !== null;

const quoted = (name: string, fallback: string) => (name ? `'${name}'` : fallback);

/** Removes a primitive's joint sets, which skin nothing once it is read unskinned; the semantics removed. */
function dropJointSets(doc: Document, primitive: Primitive): string[] {
  const sets = primitive.listSemantics().filter((semantic) => /^(JOINTS|WEIGHTS)_\d+$/.test(semantic));
  for (const semantic of sets) {
    const accessor = primitive.getAttribute(semantic)!;
    primitive.setAttribute(semantic, null);
    // Another primitive may share it (then left to it); else it goes.
    if (accessor.listParents().every((parent) => parent === doc.getRoot())) accessor.dispose();
  }
  return sets;
}

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
    const unskinned = primitives.filter((primitive) => !skinned(primitive));
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
    let part = split.get(mesh);
    if (!part) {
      part = doc.createMesh(mesh.getName() ? `${mesh.getName()}_unskinned` : "")
        .setWeights(mesh.getWeights()).setExtras({ ...mesh.getExtras() });
      for (const primitive of unskinned) {
        mesh.removePrimitive(primitive);
        part.addPrimitive(primitive);
      }
      split.set(mesh, part);
      for (const user of mesh.listParents()) {
        if (user.propertyType !== "Node" || user === node) continue;
        addUnskinnedChild(doc, user as Node, part);
      }
    }
    const child = addUnskinnedChild(doc, node, part);
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

/** A child of `node` drawing `part`, with the node's morph weights and no transform of its own. */
function addUnskinnedChild(doc: Document, node: Node, part: Mesh): Node {
  const child = doc.createNode(node.getName() ? `${node.getName()}_unskinned` : "")
    .setMesh(part).setWeights(node.getWeights());
  node.addChild(child);
  return child;
}
