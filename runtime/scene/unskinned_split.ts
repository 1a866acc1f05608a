/**
 * Primitives a skinned node's mesh cannot skin, read as three.js draws them. glTF requires every
 * primitive of a skinned node's mesh to carry JOINTS_0 and WEIGHTS_0; three.js's `GLTFLoader` draws
 * each primitive without both as a plain mesh at the node's own place and skins the others. Shared by
 * `decode.gltf` (files read so) and `export.gltf`'s repair (scenes from other decoders or the API):
 * each says what it did in its own terms.
 *
 * @module
 */
import type { Document, Mesh, Node, Primitive } from "@gltf-transform/core";

/** Whether three.js skins `primitive`: it has both JOINTS_0 and WEIGHTS_0. */
export const skinsPrimitive = (primitive: Primitive): boolean =>
  primitive.getAttribute("JOINTS_0") !== null && primitive.getAttribute("WEIGHTS_0") !== null;

/**
 * Removes a primitive's joint sets, which skin nothing once it is drawn unskinned; returns the
 * semantics removed. An accessor another primitive shares is left to it.
 */
export function dropJointSets(doc: Document, primitive: Primitive): string[] {
  const sets = primitive.listSemantics().filter((semantic) => /^(JOINTS|WEIGHTS)_\d+$/.test(semantic));
  for (const semantic of sets) {
    const accessor = primitive.getAttribute(semantic)!;
    primitive.setAttribute(semantic, null);
    if (accessor.listParents().every((parent) => parent === doc.getRoot())) accessor.dispose();
  }
  return sets;
}

/** Names for a split: the unskinned part's mesh, and the child node drawing it under `node`. */
export interface UnskinnedNames {
  readonly part: (mesh: Mesh) => string;
  readonly child: (node: Node) => string;
}

/**
 * Moves `unskinned` (primitives of `node`'s mesh) to a mesh of their own drawn by a child of `node`
 * with no transform of its own and the node's morph weights. A mesh is split once (`split` remembers
 * it): every other node drawing it gets the same child, so it keeps drawing all of it. Returns the
 * part and `node`'s new child.
 */
export function moveUnskinned(
  doc: Document,
  node: Node,
  unskinned: readonly Primitive[],
  split: Map<Mesh, Mesh>,
  names: UnskinnedNames,
): { part: Mesh; child: Node } {
  const mesh = node.getMesh()!;
  let part = split.get(mesh);
  if (!part) {
    part = doc.createMesh(names.part(mesh)).setWeights(mesh.getWeights()).setExtras({ ...mesh.getExtras() });
    for (const primitive of unskinned) {
      mesh.removePrimitive(primitive);
      part.addPrimitive(primitive);
    }
    split.set(mesh, part);
    for (const user of mesh.listParents()) {
      if (user.propertyType === "Node" && user !== node) addChild(doc, user as Node, part, names);
    }
  }
  return { part, child: addChild(doc, node, part, names) };
}

function addChild(doc: Document, node: Node, part: Mesh, names: UnskinnedNames): Node {
  const child = doc.createNode(names.child(node)).setMesh(part).setWeights(node.getWeights());
  node.addChild(child);
  return child;
}
