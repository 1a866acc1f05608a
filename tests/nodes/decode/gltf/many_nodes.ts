/**
 * Seeded glTF files of very many nodes, shaped as real exports have them: every node a scene root (a
 * city or scatter export), every node a child of one (instanced rivets expanded under a group), or a CAD
 * assembly tree (depth 5–10, fan-out 3–50, names, offsets, a mesh on half the leaves, PDM extras).
 *
 * @module
 */
import { glbOf } from "../../../support/shapes.ts";
import { prng } from "../../../support/prng.ts";

/** How the nodes hang together. */
export type ManyNodesShape = "flat" | "one-parent" | "cad";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/**
 * A GLB of `count` nodes (plus a root, and CAD top assemblies) of the given shape, one triangle
 * mesh shared by the CAD leaves that draw.
 *
 * @example
 * ```ts
 * const glb = manyNodesGlb("cad", 2000, 1);
 * ```
 */
export function manyNodesGlb(shape: ManyNodesShape, count: number, seed: number): Uint8Array {
  const random = prng(seed);
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const nodes: Json[] = [{ name: "root" }];
  const roots = [0];
  if (shape === "flat") {
    for (let i = 0; i < count; i++) roots.push(nodes.push({}) - 1);
  } else if (shape === "one-parent") {
    nodes[0].children = Array.from({ length: count }, (_, i) => (nodes.push({}), i + 1));
  } else {
    const depth = 5 + Math.floor(random() * 6);
    const queue: [number, number][] = [[0, 0]];
    for (let next = 0; nodes.length <= count; next++) {
      if (next === queue.length) {
        // The tree ran out of assemblies: another top-level one.
        const top = nodes.push({ name: `assembly_${roots.length}` }) - 1;
        roots.push(top);
        queue.push([top, 0]);
      }
      const [parent, level] = queue[next];
      const fanOut = 3 + Math.floor(random() * 48);
      const children: number[] = [];
      for (let k = 0; k < fanOut && nodes.length <= count; k++) {
        const leaf = level + 1 >= depth || random() < 0.3;
        const node: Json = { name: `${leaf ? "part" : "asm"}_${nodes.length}:${k + 1}` };
        if (random() < 0.7) node.translation = [random(), random(), random()];
        if (leaf && random() < 0.5) node.mesh = 0;
        if (random() < 0.1) node.extras = { pdm: k };
        children.push(nodes.push(node) - 1);
        if (!leaf) queue.push([children.at(-1)!, level + 1]);
      }
      if (children.length) nodes[parent].children = children;
    }
  }
  const json = {
    asset: { version: "2.0", generator: "many_nodes.ts" },
    buffers: [{ byteLength: positions.byteLength }],
    bufferViews: [{ buffer: 0, byteLength: positions.byteLength }],
    accessors: [{
      bufferView: 0,
      componentType: 5126,
      count: 3,
      type: "VEC3",
      min: [0, 0, 0],
      max: [1, 1, 0],
    }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes,
    scenes: [{ nodes: roots }],
    scene: 0,
  };
  return glbOf(json, new Uint8Array(positions.buffer));
}
