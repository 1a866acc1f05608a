import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { runGraph } from "../../mod.ts";
import { createRegistry } from "../../mod.ts";
import { RunError } from "../../runtime/errors.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import type { RunEvent } from "../../runtime/events.ts";
import { runCounts, takeMaxConcurrency, testPlugin } from "../support/test_nodes.ts";
import { tempDir } from "../support/temp.ts";

const registry = () => createRegistry().register(testPlugin);

/** a → b → c, a → d (unneeded), e alone (unneeded). */
function chain(offsetB = 0): GraphFile {
  return {
    version: 1,
    nodes: {
      a: { type: "test.const", params: { value: 1 } },
      b: { type: "test.add", inputs: { a: "a.value" }, params: { offset: offsetB } },
      c: { type: "test.add", inputs: { a: "b.value" }, params: { offset: 10 } },
      d: { type: "test.add", inputs: { a: "a.value" } },
      e: { type: "test.const" },
    },
    outputs: { result: "c.value" },
  };
}

Deno.test("pulls from the requested outputs only", async () => {
  runCounts.clear();
  const run = await runGraph(chain(), { registry: registry(), cacheDir: false });
  assertEquals(run.outputs.result, 11);
  assertEquals([...runCounts.keys()].sort(), ["a", "b", "c"]);
  assertEquals(Object.keys(run.nodes).sort(), ["a", "b", "c"]);
});

Deno.test("changing one parameter re-runs exactly that node and its dependents", async () => {
  const cacheDir = await tempDir();
  const memory = new Map();
  runCounts.clear();
  await runGraph(chain(0), { registry: registry(), cacheDir, memory });
  assertEquals(Object.fromEntries(runCounts), { a: 1, b: 1, c: 1 });
  runCounts.clear();
  const warm = await runGraph(chain(0), { registry: registry(), cacheDir, memory });
  assertEquals(runCounts.size, 0);
  assert(Object.values(warm.nodes).every((n) => n.state === "cached" && n.tier === "memory"));
  runCounts.clear();
  const changed = await runGraph(chain(5), { registry: registry(), cacheDir, memory });
  assertEquals(Object.fromEntries(runCounts), { b: 1, c: 1 });
  assertEquals(changed.outputs.result, 16);
  // A fresh process (empty memory) is served from disk.
  runCounts.clear();
  const fromDisk = await runGraph(chain(5), { registry: registry(), cacheDir });
  assertEquals(runCounts.size, 0);
  assertEquals(fromDisk.outputs.result, 16);
  assert(Object.values(fromDisk.nodes).every((n) => n.tier === "disk"));
});

Deno.test("independent branches run concurrently", async () => {
  takeMaxConcurrency();
  const graph: GraphFile = {
    version: 1,
    nodes: {
      s: { type: "test.const", params: { value: 1 } },
      l: { type: "test.add", inputs: { a: "s.value" }, params: { delay_ms: 30 } },
      r: { type: "test.add", inputs: { a: "s.value" }, params: { delay_ms: 30 } },
      j: { type: "test.add", inputs: { a: "l.value", b: "r.value" } },
    },
    outputs: { value: "j.value" },
  };
  const run = await runGraph(graph, { registry: registry(), cacheDir: false });
  assertEquals(run.outputs.value, 2);
  assertEquals(takeMaxConcurrency(), 2);
});

Deno.test("every failure is reported with node id and type; dependents are skipped", async () => {
  const graph: GraphFile = {
    version: 1,
    nodes: {
      f1: { type: "test.fail", params: { message: "first" } },
      f2: { type: "test.fail", params: { message: "second" } },
      ok: { type: "test.const", params: { value: 3 } },
      after: { type: "test.add", inputs: { a: "f1.value", b: "ok.value" } },
    },
    outputs: { x: "after.value", y: "f2.value" },
  };
  const events: RunEvent[] = [];
  const error = await runGraph(graph, {
    registry: registry(),
    cacheDir: false,
    onEvent: (e) => events.push(e),
  })
    .catch((e) => e);
  assert(error instanceof RunError);
  assertEquals(error.failures.map((f) => [f.nodeId, f.nodeType]).sort(), [["f1", "test.fail"], [
    "f2",
    "test.fail",
  ]]);
  assert(error.message.includes("first") && error.message.includes("second"));
  assert(events.some((e) => e.event === "node" && e.id === "after" && e.state === "skipped"));
  assert(events.some((e) => e.event === "node" && e.id === "ok" && e.state === "done"));
});

Deno.test("warnings are reported, and replayed from the cache", async () => {
  const cacheDir = await tempDir();
  const graph: GraphFile = {
    version: 1,
    nodes: {
      c: { type: "test.const", params: { value: 4 } },
      w: { type: "test.warn", inputs: { a: "c.value" } },
    },
    outputs: { v: "w.value" },
  };
  const cold = await runGraph(graph, { registry: registry(), cacheDir });
  const warm = await runGraph(graph, { registry: registry(), cacheDir });
  assertEquals(cold.warnings.map((w) => w.message), ["saw 4"]);
  assertEquals(warm.warnings.map((w) => [w.id, w.message]), [["w", "saw 4"]]);
  assertEquals(warm.nodes.w.state, "cached");
});

Deno.test("graph groups run as one node with their inputs and outputs as sockets", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(
    `${dir}/inc.json`,
    JSON.stringify({
      version: 1,
      inputs: { x: { type: "number" }, by: { type: "number", default: 1 } },
      nodes: {
        add: { type: "test.add", inputs: { a: { $input: "x" } }, params: { offset: { $input: "by" } } },
      },
      outputs: { value: "add.value" },
    }),
  );
  await Deno.writeTextFile(
    `${dir}/main.json`,
    JSON.stringify({
      version: 1,
      inputs: { start: { type: "number", default: 2 } },
      nodes: {
        s: { type: "test.const", params: { value: { $input: "start" } } },
        g1: { type: "graph", graph: "inc.json", inputs: { x: "s.value" }, params: { by: 5 } },
        g2: { type: "graph", graph: "inc.json", inputs: { x: "g1.value" } },
      },
      outputs: { value: "g2.value" },
    }),
  );
  const run = await runGraph(`${dir}/main.json`, {
    registry: registry(),
    cacheDir: false,
    inputs: { start: 10 },
  });
  assertEquals(run.outputs.value, 16);
  assertEquals(Object.keys(run.nodes).sort(), ["g1/add", "g2/add", "s"]);
});

Deno.test("custom node modules named by a graph are loaded and keyed by their source", async () => {
  const dir = await tempDir();
  const nodeModule = (factor: number) => `
    import { defineNode } from "${new URL("../../runtime/node.ts", import.meta.url).href}";
    export default { nodes: [defineNode({
      type: "custom.scale", version: 1, doc: "Scales.",
      inputs: {}, outputs: { value: { type: "number", doc: "v" } },
      params: { value: { type: "number", default: 1, doc: "v" } },
      run: ({ params }) => ({ value: params.value * ${factor} }),
    })] };`;
  await Deno.writeTextFile(`${dir}/nodes.ts`, nodeModule(3));
  const graph = {
    version: 1,
    modules: ["./nodes.ts"],
    nodes: { s: { type: "custom.scale", params: { value: 2 } } },
    outputs: { value: "s.value" },
  };
  await Deno.writeTextFile(`${dir}/graph.json`, JSON.stringify(graph));
  const cacheDir = await tempDir();
  const run = await runGraph(`${dir}/graph.json`, { cacheDir });
  assertEquals(run.outputs.value, 6);
  // Another graph must not see the custom node unless it names the module.
  await rejects(runGraph({ version: 1, nodes: { s: { type: "custom.scale" } } }, { cacheDir: false }));
  // Editing the module changes its digest, so the cached result is not reused. (A fresh file name
  // defeats the module cache of this process.)
  await Deno.writeTextFile(`${dir}/nodes2.ts`, nodeModule(4));
  await Deno.writeTextFile(`${dir}/graph.json`, JSON.stringify({ ...graph, modules: ["./nodes2.ts"] }));
  const edited = await runGraph(`${dir}/graph.json`, { cacheDir });
  assertEquals(edited.outputs.value, 8);
  assertEquals(edited.nodes.s.state, "done");
});

Deno.test("a bytes graph input with default null is absent unless given", async () => {
  const graph: GraphFile = {
    version: 1,
    inputs: { extra: { type: "bytes", default: null } },
    nodes: { size: { type: "test.size", inputs: { data: { $input: "extra" } } } },
    outputs: { value: "size.value" },
  };
  const absent = await runGraph(graph, { registry: registry(), cacheDir: false });
  assertEquals(absent.outputs.value, -1);
  const given = await runGraph(graph, {
    registry: registry(),
    cacheDir: false,
    inputs: { extra: { bytes: new Uint8Array(5), name: "x.bin" } },
  });
  assertEquals(given.outputs.value, 5);
  const required: GraphFile = {
    version: 1,
    inputs: { extra: { type: "bytes", default: null } },
    nodes: { w: { type: "io.write", inputs: { bytes: { $input: "extra" } }, params: { path: "x" } } },
  };
  const error = await runGraph(required, { registry: registry(), cacheDir: false }).catch((e) => e);
  assertEquals(error.issues.map((i: { kind: string; path: string }) => `${i.kind} ${i.path}`), [
    "type_mismatch /nodes/w/inputs/bytes",
  ]);
});
