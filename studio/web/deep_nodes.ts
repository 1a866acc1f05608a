/**
 * A three.js `GLTFLoader` plugin for deep node trees. The loader loads a node by loading its children
 * first, in the same call, so a chain of nodes costs it several stack frames per level: a chain of
 * 2,000 nested nodes (a Freelancer compound's parts, a glTF exported with every node parented to the
 * last) ran out of stack on the first load and took the runtime's decode instead, which refuses
 * hierarchies past 512 levels. Before the scene is loaded, this plugin asks for the nodes deepest
 * first: each node's children are then in the loader's cache and it recurses one level at a time.
 * Trees under {@link DEEP} levels are left to the loader as they are.
 *
 * @module
 */
// @ts-types="@types/three/examples/jsm/loaders/GLTFLoader.d.ts"
import type { GLTFLoaderPlugin, GLTFParser } from "three/examples/jsm/loaders/GLTFLoader.js";

/** Depth from which nodes are loaded deepest first. */
export const DEEP = 128;

/** The plugin, for `GLTFLoader.register`. */
export function deepNodesFirst(parser: GLTFParser): GLTFLoaderPlugin {
  return {
    name: "partgraph_deep_nodes_first",
    beforeRoot() {
      const nodes: { children?: unknown }[] = Array.isArray(parser.json.nodes) ? parser.json.nodes : [];
      const depths = depthsOf(nodes);
      if (!depths.some((d) => d >= DEEP)) return null;
      const order = nodes.map((_, i) => i).sort((a, b) => depths[b] - depths[a]);
      // A node that fails is refused again when the scene asks for it; unasked, it must not be reported.
      for (const i of order) parser.getDependency("node", i).catch(() => {});
      return null;
    },
  };
}

/** Each node's depth below the roots (nodes no other names as a child), without recursion. */
function depthsOf(nodes: readonly { children?: unknown }[]): number[] {
  const depths = new Array<number>(nodes.length).fill(-1);
  const childrenOf = (i: number) =>
    Array.isArray(nodes[i]?.children)
      ? (nodes[i].children as unknown[]).filter((c): c is number =>
        Number.isInteger(c) && (c as number) >= 0 && (c as number) < nodes.length
      )
      : [];
  const isChild = new Set(nodes.flatMap((_, i) => childrenOf(i)));
  const queue = nodes.map((_, i) => i).filter((i) => !isChild.has(i));
  for (const i of queue) depths[i] = 0;
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head];
    for (const child of childrenOf(i)) {
      if (depths[child] >= 0) continue; // a node named twice, or a cycle: the loader says so
      depths[child] = depths[i] + 1;
      queue.push(child);
    }
  }
  return depths.map((d) => Math.max(d, 0));
}
