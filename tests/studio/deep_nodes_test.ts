/**
 * The preview's deep-tree loader plugin, without a browser: for a hierarchy past its threshold it asks
 * for every node deepest first (so three.js's loader finds each node's children loaded and recurses
 * one level at a time), and leaves shallow files, and nodes named twice or in a cycle, to the loader.
 */
import { deepEqual, equal } from "node:assert/strict";
// @ts-types="@types/three/examples/jsm/loaders/GLTFLoader.d.ts"
import type { GLTFParser } from "three/examples/jsm/loaders/GLTFLoader.js";
import { DEEP, deepNodesFirst } from "../../studio/web/deep_nodes.ts";

/** A parser stand-in over `nodes` that records which nodes were asked for, in order. */
function parser(nodes: { children?: number[] }[]) {
  const asked: number[] = [];
  const fake = {
    json: { nodes },
    getDependency: (type: string, index: number) => {
      equal(type, "node");
      asked.push(index);
      return Promise.resolve();
    },
  };
  return { parser: fake as unknown as GLTFParser, asked };
}

Deno.test("deep nodes: a chain past the threshold is asked for deepest first, a shallow one not at all", () => {
  // Stored out of order: node i's child is node i - 1, so node `length - 1` is the root.
  const length = DEEP + 10;
  const chain = Array.from({ length }, (_, i) => (i ? { children: [i - 1] } : {}));
  const deep = parser([...chain, { children: [] }]);
  equal(deepNodesFirst(deep.parser).beforeRoot!(), null);
  // Depths: node i at length - 1 - i; the separate root at 0. Deepest (node 0) first.
  deepEqual(deep.asked.slice(0, 3), [0, 1, 2]);
  equal(deep.asked.length, length + 1);
  const seen = new Set<number>();
  for (const i of deep.asked) {
    for (const child of chain[i]?.children ?? []) equal(seen.has(child), true, `${child} before ${i}`);
    seen.add(i);
  }
  const shallow = parser(
    Array.from({ length: DEEP - 1 }, (_, i) => (i < DEEP - 2 ? { children: [i + 1] } : {})),
  );
  deepNodesFirst(shallow.parser).beforeRoot!();
  deepEqual(shallow.asked, [], "left to the loader as it is");
});

Deno.test("deep nodes: nodes in a cycle, named twice or out of range do not hang or throw", () => {
  const nodes = [
    ...Array.from({ length: DEEP + 2 }, (_, i) => ({ children: [i + 1] })),
    { children: [0, 0, -1, 1e9] }, // back to the root (a cycle), twice, and indices past the end
  ];
  const cyclic = parser(nodes);
  deepNodesFirst(cyclic.parser).beforeRoot!();
  equal(cyclic.asked.length, 0, "a cycle has no root, so no depth: left to the loader, which refuses it");
  const twice = parser([{ children: [2] }, { children: [2] }, { children: [3] }, ...chainOf(DEEP + 1, 3)]);
  deepNodesFirst(twice.parser).beforeRoot!();
  equal(twice.asked.length, 3 + DEEP + 1, "every node once, node 2 at its first depth");
});

/** `length` nodes from index `from`, each the parent of the next. */
function chainOf(length: number, from: number): { children?: number[] }[] {
  return Array.from({ length }, (_, i) => (i < length - 1 ? { children: [from + i + 1] } : {}));
}
