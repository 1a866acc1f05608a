/**
 * Graph depth is limited by memory, not the call stack: long chains validate, plan and run, and
 * long cycles are reported.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { checkGraph, createRegistry, runGraph } from "../../mod.ts";
import type { GraphFile, GraphNodeDecl } from "../../runtime/graph.ts";
import { testPlugin } from "../support/test_nodes.ts";

/** `n0 → n1 → … → n{length-1}`, each adding 1; `closed` links n0 to the last node (a cycle). */
export function chainGraph(length: number, closed = false): GraphFile {
  const nodes: Record<string, GraphNodeDecl> = {
    n0: closed
      ? { type: "test.add", inputs: { a: `n${length - 1}.value` }, params: { offset: 1 } }
      : { type: "test.const", params: { value: 0 } },
  };
  for (let i = 1; i < length; i++) {
    nodes[`n${i}`] = { type: "test.add", inputs: { a: `n${i - 1}.value` }, params: { offset: 1 } };
  }
  return { version: 1, nodes, outputs: { end: `n${length - 1}.value` } };
}

const registry = createRegistry().register(testPlugin);

Deno.test("a 100,000-node chain validates and runs", async () => {
  const graph = chainGraph(100_000);
  assertEquals(await checkGraph(graph, { registry }), []);
  const run = await runGraph(graph, { registry, cacheDir: false });
  assertEquals(run.outputs.end, 99_999);
  assertEquals(Object.keys(run.nodes).length, 100_000);
});

Deno.test("a 10,000-node cycle is reported once, with its path", async () => {
  const issues = await checkGraph(chainGraph(10_000, true), { registry });
  const cycles = issues.filter((i) => i.kind === "cycle");
  assertEquals(cycles.length, 1);
  assert(cycles[0].message.startsWith("cycle: "), cycles[0].message);
  assertEquals(cycles[0].message.split(" → ").length, 10_001);
});
