/**
 * One mesh per way it is drawn, where Blender needs it: Blender 3.4 keeps shape keys and skinning on
 * mesh data, so a glTF mesh drawn by several nodes at different morph weights, with a clip keying one
 * node's weights, or with different skins comes in as copies it names `Face`, `Face.001`… — a user's
 * `Face` was renamed, and a round trip through Blender writes the renamed copies back. So the file is
 * written with those copies itself: each further way a mesh is drawn gets a mesh of its own (its
 * primitives, and so its vertex data, shared: the file grows by a few lines of JSON), named like the
 * original, which the writer's unique names turn into `Face_1`… with `Face` kept as extras.name.
 * three.js draws such a file exactly as the shared one: each node's weights, skin and clips are as
 * they were. Nodes that draw a mesh the same way keep sharing it (a field of identical rivets).
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import { sceneToChange } from "../../runtime/scene/copy.ts";

/**
 * `scene` with a mesh per way Blender would copy it ({@link meshCopies}): `scene` itself when no mesh
 * needs one, else `scene` changed in place when `owned()` says nothing else sees it, else a copy
 * sharing its vertex data.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { withMeshPerNode } from "./mesh_per_node.ts";
 *
 * const scene = new Document();
 * const position = scene.createAccessor().setType("VEC3").setArray(new Float32Array(9));
 * const smile = scene.createPrimitiveTarget().setAttribute("POSITION", position);
 * const face = scene.createMesh("Face")
 *   .addPrimitive(scene.createPrimitive().setAttribute("POSITION", position).addTarget(smile));
 * scene.createNode("a").setMesh(face).setWeights([0]);
 * scene.createNode("b").setMesh(face).setWeights([1]);
 * const written = withMeshPerNode(scene, () => false); // two meshes `Face`, `b` draws the second
 * ```
 */
export function withMeshPerNode(scene: Document, owned: () => boolean): Document {
  const copies = meshCopies(scene);
  if (!copies.length) return scene;
  const changed = sceneToChange(scene, owned());
  const nodes = changed.getRoot().listNodes();
  for (const group of copies) {
    const mesh = nodes[group[0]].getMesh()!.clone();
    for (const i of group) nodes[i].setMesh(mesh);
  }
  return changed;
}

/**
 * The groups of nodes (indices in `root.listNodes()`) that need a mesh of their own: for each mesh,
 * its nodes grouped by how they draw it (skin; for a mesh with morph targets, the node's own weights,
 * or the node itself when a clip keys its weights — Blender's own cache key, so a node without weights
 * and one with the mesh's are two ways), every group after the first. Empty when every mesh is
 * drawn one way.
 */
export function meshCopies(doc: Document): number[][] {
  const root = doc.getRoot();
  const keyed = new Set<Node>();
  for (const animation of root.listAnimations()) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode();
      if (node && channel.getTargetPath() === "weights") keyed.add(node);
    }
  }
  const skins = new Map(root.listSkins().map((skin, i) => [skin, i]));
  // Linear in the nodes: a fuzzed or MSFS-sized scene may hold 100,000 nodes of one mesh.
  const ways = new Map<Mesh, Map<string, number[]>>();
  root.listNodes().forEach((node, i) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const morphed = mesh.listPrimitives().some((p) => p.listTargets().length);
    const skin = node.getSkin();
    const key = morphed && keyed.has(node)
      ? `node ${i}`
      : JSON.stringify([skin ? skins.get(skin) : null, morphed ? node.getWeights() : []]);
    if (!ways.has(mesh)) ways.set(mesh, new Map());
    const groups = ways.get(mesh)!;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  return [...ways.values()].flatMap((groups) => [...groups.values()].slice(1));
}
