/**
 * Runtime overhead: a chain of 500 trivial nodes, cold (nothing cached) and warm (everything
 * cached), so the figures are the runtime's own cost per node. Divide by 500 for per-node figures.
 * Plus a 100,000-node chain: depth is limited by memory, not the call stack.
 */
import { runGraph } from "../../mod.ts";
import { compileGraph } from "../../runtime/plan.ts";
import { type GraphFile, graphFromObject } from "../../runtime/graph.ts";
import { createRegistry } from "../../mod.ts";
import type { MemoryEntry } from "../../runtime/executor.ts";
import { testPlugin } from "../support/test_nodes.ts";

const CHAIN = 500;
const registry = createRegistry().register(testPlugin);

function chain(seed: number): GraphFile {
  const nodes: Record<string, GraphFile["nodes"][string]> = {
    n0: { type: "test.const", params: { value: seed } },
  };
  for (let i = 1; i < CHAIN; i++) {
    nodes[`n${i}`] = { type: "test.add", inputs: { a: `n${i - 1}.value` }, params: { offset: 1 } };
  }
  return { version: 1, nodes, outputs: { value: `n${CHAIN - 1}.value` } };
}

let seed = 0;
const warmGraph = chain(-1);
const warmMemory = new Map<string, MemoryEntry>();
const warmDir = Deno.makeTempDirSync();
await runGraph(warmGraph, { registry, memory: warmMemory, cacheDir: warmDir });

Deno.bench({
  name: "500-node chain, cold, memory tier only",
  group: "chain",
  fn: async () => {
    await runGraph(chain(seed++), { registry, cacheDir: false });
  },
});

Deno.bench({
  name: "500-node chain, cold, memory + disk tier",
  group: "chain",
  fn: async () => {
    await runGraph(chain(seed++), { registry, cacheDir: warmDir, cacheMaxBytes: 1e12 });
  },
});

Deno.bench({
  name: "500-node chain, warm, memory tier",
  group: "chain",
  baseline: true,
  fn: async () => {
    await runGraph(warmGraph, { registry, memory: warmMemory, cacheDir: false });
  },
});

Deno.bench({
  name: "500-node chain, warm, disk tier (fresh process memory)",
  group: "chain",
  fn: async () => {
    await runGraph(warmGraph, { registry, cacheDir: warmDir });
  },
});

Deno.bench({
  name: "500-node chain, validate + compile only",
  group: "chain",
  fn: async () => {
    await compileGraph(graphFromObject(chain(0)), registry);
  },
});

/** A generated graph may be very deep: depth costs memory, never the call stack. */
const DEEP = 100_000;
const deepGraph = (() => {
  const nodes: Record<string, GraphFile["nodes"][string]> = {
    n0: { type: "test.const", params: { value: 0 } },
  };
  for (let i = 1; i < DEEP; i++) {
    nodes[`n${i}`] = { type: "test.add", inputs: { a: `n${i - 1}.value` }, params: { offset: 1 } };
  }
  return { version: 1, nodes, outputs: { value: `n${DEEP - 1}.value` } } as GraphFile;
})();

Deno.bench({
  name: "100,000-node chain, validate + compile",
  group: "deep",
  n: 3,
  fn: async () => {
    await compileGraph(graphFromObject(deepGraph), registry);
  },
});

Deno.bench({
  name: "100,000-node chain, cold run, memory tier only",
  group: "deep",
  n: 3,
  fn: async () => {
    await runGraph(deepGraph, { registry, cacheDir: false });
  },
});
