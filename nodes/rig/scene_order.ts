/**
 * The scene's node lists the rig walks for again and again, walked once per state of the tree: the
 * top-level nodes of the file, every node below them in depth-first order, and every node of the
 * default scene in `geometry.ts`' `subtreeNodes` order. A rig on a million-node file (the hostile fuzz's
 * case of a million empty nodes beside a fighter) walked the whole tree 23 times over its six nodes,
 * seven of them for the same top-level nodes and five for the same scene order; each walk lists every
 * node's children (two arrays a node) and the walks' arrays and sets of a million nodes were most of
 * what the rig held besides its scenes.
 *
 * A list is remembered per scene against `copy_memo.ts`' change count, which every change to the tree,
 * a name, a transform or the node list raises (the rig's own records in extras do not: no list here
 * reads extras). The lists are shared: callers read them and never change them.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { sceneChanges } from "./copy_memo.ts";
import { getPart } from "./part_extras.ts";

/** The lists read of one scene at one change count (each read when first asked for). */
interface Lists {
  readonly count: number;
  tops?: readonly Node[];
  below?: readonly Node[];
  scene?: { readonly nodes: readonly Node[]; readonly parents: Int32Array };
}

const remembered = new WeakMap<Document, Lists>();

/** The lists of `doc` at its current change count (new ones when anything they read changed). */
function listsOf(doc: Document): Lists {
  const count = sceneChanges(doc);
  let lists = remembered.get(doc);
  if (lists?.count !== count) remembered.set(doc, lists = { count });
  return lists;
}

/** `part_extras.ts`' `topLevelNodes(doc.getRoot().listNodes())`, remembered (see the module doc). */
export function topLevelOf(doc: Document): readonly Node[] {
  return fileTree(doc).tops!;
}

/**
 * Every node under the top-level nodes ({@link topLevelOf}), each top first, in depth-first child order:
 * the order `part_extras.ts`' `listPartNodes` visits them in.
 */
function nodesBelowTops(doc: Document): readonly Node[] {
  return fileTree(doc).below!;
}

/**
 * The file's top-level nodes and every node below them, from one listing of each node's children: the
 * top-level nodes are those no node lists as a child (every node of the file is listed, so each one's
 * parent is among them), in the file's order, as `topLevelNodes` gives them.
 */
function fileTree(doc: Document): Lists {
  const lists = listsOf(doc);
  if (lists.tops && lists.below) return lists;
  const all = doc.getRoot().listNodes();
  const childrenOf = new Map<Node, Node[]>();
  const isChild = new Set<Node>();
  for (const node of all) {
    const children = node.listChildren();
    if (!children.length) continue;
    childrenOf.set(node, children);
    for (const child of children) isChild.add(child);
  }
  const tops = all.filter((node) => !isChild.has(node));
  const below: Node[] = [], stack: Node[] = [];
  for (const top of tops) {
    stack.push(top);
    while (stack.length) {
      const node = stack.pop()!;
      below.push(node);
      const children = childrenOf.get(node);
      if (children) { for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]); }
    }
  }
  lists.tops = tops;
  lists.below = below;
  return lists;
}

/**
 * `listPartNodes(topLevelNodes(doc.getRoot().listNodes()))`: the nodes carrying a part annotation in a
 * stable depth-first order, the annotations read now (extras are not remembered), the order from the
 * remembered walk.
 */
export function partNodesOf(doc: Document): Node[] {
  return nodesBelowTops(doc).filter((node) => getPart(node) !== undefined);
}

/**
 * Every node of `doc`'s default scene (else its first), each of the scene's children followed by all
 * below it in `subtreeNodes` order; empty when the file has no scene. Remembered (see the module doc).
 */
export function defaultSceneNodes(doc: Document): readonly Node[] {
  return defaultSceneTree(doc).nodes;
}

/**
 * {@link defaultSceneNodes} with each node's parent's position among them (-1 for the scene's children):
 * what `copy_memo.ts`' fingerprint reads, from the same walk.
 */
export function defaultSceneTree(doc: Document): { nodes: readonly Node[]; parents: Int32Array } {
  const lists = listsOf(doc);
  if (!lists.scene) {
    const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
    lists.scene = walkBelow(scene?.listChildren() ?? []);
  }
  return lists.scene;
}

/**
 * `tops.flatMap(subtreeNodes)` (`geometry.ts`: depth first, child order, each top first) in one walk,
 * without an array per top (a flat file's million tops are a million one-node subtrees), with each
 * node's parent's position in that order (-1 for a top).
 */
function walkBelow(tops: readonly Node[]): { nodes: Node[]; parents: Int32Array } {
  const nodes: Node[] = [], parentOf: number[] = [];
  const stack: Node[] = [], from: number[] = [];
  for (const top of tops) {
    stack.push(top), from.push(-1);
    while (stack.length) {
      const node = stack.pop()!, parent = from.pop()!;
      const at = nodes.push(node) - 1;
      parentOf.push(parent);
      const children = node.listChildren();
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]), from.push(at);
    }
  }
  return { nodes, parents: Int32Array.from(parentOf) };
}
