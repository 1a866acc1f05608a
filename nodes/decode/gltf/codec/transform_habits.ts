/**
 * Exporter habits in node transforms and their animation, checked once the file is read, each in its
 * own module: rotation keys written [w, x, y, z] (rotation_keys.ts), a subtree in other units than the
 * rest of the model (unit_subtrees.ts), and nodes scaled to 0 on an axis (flat_scales.ts).
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import { flatScaleNotes } from "./flat_scales.ts";
import { rotationKeyNotes } from "./rotation_keys.ts";
import { unitSubtreeNotes } from "./unit_subtrees.ts";

/** The nodes the scenes draw, each listed once, with their children by position in that list. */
export interface SceneTree {
  readonly nodes: readonly Node[];
  readonly children: readonly (readonly number[])[];
  /** Per scene, its roots. */
  readonly scenes: readonly (readonly number[])[];
  /** A node's index in the file (for its JSON path). */
  readonly jsonIndex: (node: Node) => number;
}

/**
 * The scenes' nodes, walked down once: each node's children are read from the graph once, and the
 * file's node list only for a note's path (each listing reads the graph once per node, which
 * many_nodes_test counts).
 */
export function sceneTree(doc: Document): SceneTree {
  const nodes: Node[] = [], children: number[][] = [];
  const index = new Map<Node, number>();
  const add = (node: Node) => {
    let i = index.get(node);
    if (i === undefined) {
      i = nodes.push(node) - 1;
      index.set(node, i);
      children.push([]);
    }
    return i;
  };
  const scenes = doc.getRoot().listScenes().map((scene) => scene.listChildren().map(add));
  for (let i = 0; i < nodes.length; i++) children[i] = nodes[i].listChildren().map(add);
  let listed: Node[] | undefined;
  const jsonIndex = (node: Node) => (listed ??= doc.getRoot().listNodes()).indexOf(node);
  return { nodes, children, scenes, jsonIndex };
}

/**
 * Repairs and notes (`<JSON path>: text`) on the habits above, in that order; `unsized` meshes (integer
 * positions no node scales back: quantized_notes.ts) are left out of the unit judgment.
 */
export function transformHabitNotes(doc: Document, unsized: ReadonlySet<Mesh> = new Set()): string[] {
  const tree = sceneTree(doc);
  return [
    ...rotationKeyNotes(doc, tree.jsonIndex),
    ...unitSubtreeNotes(tree, unsized),
    ...flatScaleNotes(doc, tree),
  ];
}
