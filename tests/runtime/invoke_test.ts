/** `ctx.invoke`: checked like a graph node, allowed only when declared, versioned in the caller's key. */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { createRegistry, defineNode, RunError, runGraph } from "../../mod.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";

const innerNode = (version: number, calls: string[]) =>
  defineNode({
    type: "test.inner",
    version,
    doc: "Scales a number.",
    inputs: { value: { type: "number", doc: "In." } },
    outputs: { value: { type: "number", doc: "Scaled." } },
    params: { scale: { type: "number", default: 1, min: 0, doc: "Factor." } },
    run({ inputs, params }) {
      calls.push(`inner v${version}`);
      return { value: inputs.value * params.scale };
    },
  });

const outerNode = (declares: boolean) =>
  defineNode({
    type: "test.outer",
    version: 1,
    doc: "Invokes test.inner with its options.",
    inputs: {},
    outputs: { value: { type: "number", doc: "What test.inner gave." } },
    params: { options: { type: "json", default: {}, doc: "Parameters for test.inner." } },
    ...(declares ? { invokes: () => ["test.inner"] } : {}),
    async run({ params, ctx }) {
      const out = await ctx.invoke("test.inner", { value: 3 }, params.options as Record<string, never>);
      return { value: out.value as number };
    },
  });

const graph = (options: Record<string, unknown>): GraphFile => ({
  version: 1,
  nodes: { o: { type: "test.outer", params: { options: options as never } } },
  outputs: { value: "o.value" },
});

Deno.test("an invoked node's parameters are checked: a bad value fails the caller, naming both", async () => {
  const calls: string[] = [];
  const registry = createRegistry([{ nodes: [innerNode(1, calls), outerNode(true)] }]);
  assertEquals((await runGraph(graph({ scale: 2 }), { registry, cacheDir: false })).outputs.value, 6);
  await rejects(runGraph(graph({ scale: -5 }), { registry, cacheDir: false }), (failure) => {
    assert(failure instanceof RunError);
    const message = failure.failures[0].message;
    assert(message.includes("test.outer") && message.includes("invoking 'test.inner'"), message);
    assert(message.includes("scale: must be >= 0, found -5"), message);
    return true;
  });
  assertEquals(calls, ["inner v1"], "the bad value never reached test.inner");
});

Deno.test("invoking a node type the caller does not declare in invokes is refused", async () => {
  const registry = createRegistry([{ nodes: [innerNode(1, []), outerNode(false)] }]);
  await rejects(runGraph(graph({}), { registry, cacheDir: false }), (failure) => {
    assert(failure instanceof RunError);
    const message = failure.failures[0].message;
    assert(message.includes("without declaring it in invokes"), message);
    return true;
  });
});

Deno.test("bumping an invoked node's version misses the caller's cache", async () => {
  const calls: string[] = [];
  const memory = new Map();
  const cacheDir = await tempDir();
  try {
    const v1 = createRegistry([{ nodes: [innerNode(1, calls), outerNode(true)] }]);
    const first = await runGraph(graph({}), { registry: v1, cacheDir, memory });
    const warm = await runGraph(graph({}), { registry: v1, cacheDir, memory });
    assertEquals(warm.nodes.o.state, "cached");
    assertEquals(warm.nodes.o.key, first.nodes.o.key);
    const v2 = createRegistry([{ nodes: [innerNode(2, calls), outerNode(true)] }]);
    const bumped = await runGraph(graph({}), { registry: v2, cacheDir, memory });
    assertEquals(bumped.nodes.o.state, "done");
    assert(bumped.nodes.o.key !== first.nodes.o.key);
    assertEquals(calls, ["inner v1", "inner v2"]);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});
