/**
 * The editor lays out a graph opened without positions in columns by depth from the sources, for
 * graphs as scripts write them: a chain of 20,000 nodes listed output first, or closed into a cycle,
 * opens (it overflowed the call stack), and each node's column is its depth.
 */
import { equal, ok as assert } from "node:assert/strict";
import { layoutMissing, positionOf } from "../../studio/web/layout.ts";
import type { Graph } from "../../studio/web/types.ts";
import { prng } from "../support/prng.ts";

/** A chain `c0 → c1 → … ` of `count` nodes, listed from the last (the output) to the first. */
function reversedChain(count: number): Graph {
  const nodes: Graph["nodes"] = {};
  for (let i = count - 1; i >= 0; i--) {
    nodes[`c${i}`] = i
      ? { type: "constraints.resolve", inputs: { scene: `c${i - 1}.scene` } }
      : { type: "demo.fighter" };
  }
  return { version: 1, nodes, outputs: {} } as Graph;
}

Deno.test("layout: a 20,000-node chain listed output first lays out in columns by depth", () => {
  const count = 20_000;
  const graph = reversedChain(count);
  layoutMissing(graph);
  const column = positionOf(graph, "c1")[0] - positionOf(graph, "c0")[0];
  assert(column > 0);
  const random = prng(3);
  for (let k = 0; k < 50; k++) {
    const i = Math.floor(random() * count);
    equal(positionOf(graph, `c${i}`)[0], (i + 1) * column, `c${i}`);
  }
});

Deno.test("layout: a chain closed into a cycle lays out every node, the cycle's entry first", () => {
  const count = 20_000;
  const graph = reversedChain(count);
  graph.nodes.c0 = { type: "constraints.resolve", inputs: { scene: `c${count - 1}.scene` } };
  layoutMissing(graph);
  const placed = Object.keys(graph.ui!.nodes!).length;
  equal(placed, count);
  // Walked from c19999 (listed first): its upstream c19998 … c0 lead back to it, a source there.
  const column = positionOf(graph, "c1")[0] - positionOf(graph, "c0")[0];
  equal(positionOf(graph, `c${count - 1}`)[0], count * column);
});
