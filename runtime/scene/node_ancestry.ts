/**
 * Nodes' ancestors, for the names Blender gives armatures (`unique_names.ts`): each node's parent, its
 * chain of ancestors, and the deepest ancestor several chains share.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";

/**
 * Each node's parent, and its chain of ancestors from the scene root down to itself.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { ancestry } from "./node_ancestry.ts";
 *
 * const doc = new Document();
 * const hand = doc.createNode("hand");
 * doc.createNode("arm").addChild(hand);
 * ancestry(doc).chain(hand).map((node) => node.getName()); // ["arm", "hand"]
 * ```
 */
export function ancestry(doc: Document): { parents: Map<Node, Node>; chain: (node: Node) => Node[] } {
  const parents = new Map<Node, Node>();
  for (const node of doc.getRoot().listNodes()) {
    for (const child of node.listChildren()) parents.set(child, node);
  }
  const chain = (node: Node): Node[] => {
    const up: Node[] = [];
    // Pushed and turned once (not unshifted): linear in the depth.
    for (let at: Node | undefined = node; at; at = parents.get(at)) up.push(at);
    return up.reverse();
  };
  return { parents, chain };
}

/**
 * The deepest node every chain passes through, or undefined when they meet only at the scene root.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { ancestry, commonAncestor } from "./node_ancestry.ts";
 *
 * const doc = new Document();
 * const [arm, hand, thumb] = ["arm", "hand", "thumb"].map((name) => doc.createNode(name));
 * arm.addChild(hand);
 * hand.addChild(thumb);
 * const { chain } = ancestry(doc);
 * commonAncestor([chain(hand), chain(thumb)]); // hand
 * ```
 */
export function commonAncestor(chains: Node[][]): Node | undefined {
  if (chains.length === 0) return undefined;
  let depth = 0;
  while (chains.every((c) => depth < c.length && c[depth] === chains[0][depth])) depth++;
  return depth === 0 ? undefined : chains[0][depth - 1];
}
