/**
 * The names of the nodes a panel's gathered vertices come from, where they speak of linkages or
 * brackets (`vocabulary_linkages.ts`): a horn drawn as a child node `ElevatorHorn`, a fairing as
 * `Hinge_Fairing`. Read by `linkages.ts` to corroborate what the shapes leave open.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { gatherPositions, subtreeNodes } from "./geometry.ts";
import type { Mat4 } from "./transform.ts";
import { type LinkageWord, linkageWord } from "./vocabulary_linkages.ts";

/** Per gathered vertex: the word its node's name says, and that name. */
export interface LinkageNames {
  word(vertex: number): LinkageWord | undefined;
  name(vertex: number): string | undefined;
}

/**
 * The linkage names of `root`'s subtree, vertex by vertex in the order `gatherPositions(root, frame)`
 * gathers them (node by node, depth first); undefined when no node below the root names one (the
 * common case: nothing is gathered twice).
 *
 * @example
 * ```ts
 * const names = linkageNames(panelNode, aircraftMatrix(frame));
 * names?.word(0); // "horn" when vertex 0 is a child `ElevatorHorn`'s
 * ```
 */
export function linkageNames(root: Node, frame: Mat4): LinkageNames | undefined {
  const nodes = subtreeNodes(root).filter((n) => n.getMesh());
  if (!nodes.some((n) => n !== root && linkageWord(n.getName()))) return undefined;
  // Each node's vertices are contiguous in the gather: its count, gathered alone, ends its range.
  const ends: number[] = [], words: (LinkageWord | undefined)[] = [], names: string[] = [];
  let end = 0;
  for (const node of nodes) {
    end += gatherPositions(node, frame, { descend: false }).count;
    ends.push(end);
    words.push(node === root ? undefined : linkageWord(node.getName()));
    names.push(node.getName());
  }
  const at = (vertex: number) => {
    let lo = 0, hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] > vertex) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  return { word: (v) => words[at(v)], name: (v) => (words[at(v)] ? names[at(v)] : undefined) };
}
