import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { checkGraph } from "../../mod.ts";
import { createRegistry } from "../../mod.ts";
import type { GraphIssue } from "../../runtime/errors.ts";
import { testPlugin } from "../support/test_nodes.ts";
import { tempDir } from "../support/temp.ts";

const registry = () => createRegistry().register(testPlugin);

async function issuesOf(
  graph: unknown,
  inputs: Record<string, unknown> = {},
  dir?: string,
): Promise<GraphIssue[]> {
  const tmp = dir ?? await tempDir();
  const file = join(tmp, "graph.json");
  await Deno.writeTextFile(file, JSON.stringify(graph));
  return await checkGraph(file, { registry: registry(), inputs });
}

/** A temp folder holding `inner.json`: a group whose number input `v` feeds a parameter. */
async function withInnerGroup(): Promise<string> {
  const dir = await tempDir();
  await Deno.writeTextFile(
    join(dir, "inner.json"),
    JSON.stringify({
      version: 1,
      inputs: { v: { type: "number" } },
      nodes: { c: { type: "test.const", params: { value: { $input: "v" } } } },
      outputs: { value: "c.value" },
    }),
  );
  return dir;
}

const byKind = (issues: GraphIssue[]) => issues.map((i) => `${i.kind} ${i.path}`).sort();

Deno.test("check reports every kind of problem at once, each with its JSON path", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(join(dir, "broken.json"), "{ not json");
  await Deno.writeTextFile(
    join(dir, "needs.json"),
    JSON.stringify({
      version: 1,
      inputs: { x: { type: "number" } },
      nodes: { c: { type: "test.const", params: { value: { $input: "x" } } } },
      outputs: { value: "c.value" },
    }),
  );
  const issues = await issuesOf(
    {
      version: 1,
      inputs: { size: { type: "number" } },
      nodes: {
        a: { type: "test.const", params: { value: "ten" } },
        b: {
          type: "test.add",
          params: { offset: 1, delay_ms: -5, colour: "red" },
          inputs: { a: "a.value", c: "a.value" },
        },
        c: { type: "test.nosuch", inputs: { a: "b.value" } },
        d: { type: "test.add", inputs: { a: "a.missing", b: "ghost.value" } },
        e: { type: "test.add" },
        f: { type: "test.add", inputs: { a: "g.value" } },
        g: { type: "test.add", inputs: { a: "f.value" } },
        h: { type: "io.write", inputs: { bytes: "a.value" }, params: { path: "../escape.glb" } },
        i: { type: "graph", graph: "broken.json" },
        j: { type: "graph", graph: "missing.json" },
        k: { type: "graph", graph: "needs.json" },
        l: { type: "test.const", params: { value: { $input: "nope" } } },
        m: { type: "export.gltf", inputs: { scene: "k.value" }, params: { format: "fbx" } },
      },
      outputs: { out: "c.value" },
    },
    {},
    dir,
  );
  const kinds = byKind(issues);
  for (
    const expected of [
      "bad_param /nodes/a/params/value",
      "bad_param /nodes/b/params/delay_ms",
      "unknown_param /nodes/b/params/colour",
      "unknown_socket /nodes/b/inputs/c",
      "unknown_node_type /nodes/c/type",
      "unknown_socket /nodes/d/inputs/a",
      "unknown_node /nodes/d/inputs/b",
      "missing_socket /nodes/e/inputs",
      "type_mismatch /nodes/h/inputs/bytes",
      "bad_param /nodes/h/params/path",
      "invalid_subgraph /nodes/i/graph",
      "unreadable_subgraph /nodes/j/graph",
      "missing_graph_input /nodes/k/inputs",
      "unknown_graph_input /nodes/l/params/value/$input",
      "bad_param /nodes/m/params/format",
      "missing_graph_input /inputs/size",
    ]
  ) assert(kinds.includes(expected), `missing '${expected}' in:\n${kinds.join("\n")}`);
  // The broken subgraph's own parse error is listed with its file name.
  assert(issues.some((i) => i.kind === "invalid_graph" && i.file?.endsWith("broken.json")));
  // No noise: links into the unknown node type and its output are not reported again.
  assert(!issues.some((i) => i.path.startsWith("/outputs")), JSON.stringify(issues));
  assertEquals(issues.filter((i) => i.kind === "cycle").length, 1);
  assert(["/nodes/f", "/nodes/g"].includes(issues.find((i) => i.kind === "cycle")!.path));
  const cycle = issues.find((i) => i.kind === "cycle")!;
  assert(/f → g → f|g → f → g/.test(cycle.message), cycle.message);
});

Deno.test("a valid graph with groups and graph inputs has no issues", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(
    join(dir, "inc.json"),
    JSON.stringify({
      version: 1,
      inputs: { x: { type: "number" }, by: { type: "number", default: 1 } },
      nodes: {
        add: { type: "test.add", inputs: { a: { $input: "x" } }, params: { offset: { $input: "by" } } },
      },
      outputs: { value: "add.value" },
    }),
  );
  const issues = await issuesOf(
    {
      version: 1,
      inputs: { start: { type: "number", default: 2 } },
      nodes: {
        s: { type: "test.const", params: { value: { $input: "start" } } },
        g: { type: "graph", graph: "inc.json", inputs: { x: "s.value" }, params: { by: 5 } },
      },
      outputs: { value: "g.value" },
    },
    {},
    dir,
  );
  assertEquals(issues, []);
});

Deno.test("a group's parameters may reference graph inputs, which must exist and match", async () => {
  const dir = await withInnerGroup();
  const graph = (ref: string) => ({
    version: 1,
    inputs: { n: { type: "number", default: 1 }, s: { type: "string", default: "x" } },
    nodes: { g: { type: "graph", graph: "inner.json", params: { v: { $input: ref } } } },
  });
  assertEquals(await issuesOf(graph("n"), {}, dir), []);
  assertEquals(byKind(await issuesOf(graph("s"), {}, dir)), ["type_mismatch /nodes/g/params/v"]);
  assertEquals(byKind(await issuesOf(graph("nope"), {}, dir)), [
    "unknown_graph_input /nodes/g/params/v/$input",
  ]);
});

Deno.test("a group input that feeds a parameter must be given as a literal", async () => {
  const dir = await withInnerGroup();
  const issues = await issuesOf(
    {
      version: 1,
      nodes: {
        s: { type: "test.const" },
        g: { type: "graph", graph: "inner.json", inputs: { v: "s.value" } },
      },
    },
    {},
    dir,
  );
  assertEquals(byKind(issues), ["type_mismatch /nodes/g/inputs/v"]);
});

Deno.test("a graph that includes itself is refused, not followed forever", async () => {
  const dir = await tempDir();
  const issues = await issuesOf(
    { version: 1, nodes: { me: { type: "graph", graph: "graph.json" } } },
    {},
    dir,
  );
  assertEquals(byKind(issues), ["invalid_subgraph /nodes/me/graph"]);
});

Deno.test("structural mistakes are reported with paths and suggestions", async () => {
  const issues = await issuesOf({ version: 2, nodez: {}, nodes: { a: { type: "test.cnst", extra: 1 } } });
  assertEquals(byKind(issues), [
    "invalid_graph /nodes/a/extra",
    "invalid_graph /nodez",
    "invalid_graph /version",
    "unknown_node_type /nodes/a/type",
  ]);
  assert(issues.find((i) => i.kind === "unknown_node_type")!.message.includes("did you mean 'test.const'"));
});

Deno.test("values for undeclared inputs and of the wrong type are reported", async () => {
  const graph = {
    version: 1,
    inputs: { n: { type: "number" } },
    nodes: { c: { type: "test.const", params: { value: { $input: "n" } } } },
  };
  assertEquals(byKind(await issuesOf(graph, { n: "x", extra: 1 })), [
    "bad_param /inputs/n",
    "unknown_graph_input /inputs",
  ]);
});

Deno.test("a value given for a graph input is checked against every parameter it feeds", async () => {
  const graph = {
    version: 1,
    inputs: { delay: { type: "number", default: 0 } },
    nodes: {
      s: { type: "test.const" },
      a: { type: "test.add", inputs: { a: "s.value" }, params: { delay_ms: { $input: "delay" } } },
    },
  };
  assertEquals(await issuesOf(graph, { delay: 5 }), []);
  const issues = await issuesOf(graph, { delay: -1 });
  assertEquals(byKind(issues), ["bad_param /nodes/a/params/delay_ms"]);
  assert(issues[0].message.includes("graph input 'delay' gives -1"), issues[0].message);
});

Deno.test("one GraphError holds structural problems and bad values given for graph inputs together", async () => {
  const graph = {
    version: 1,
    inputs: { delay: { type: "number", default: 0 } },
    nodes: {
      s: { type: "test.const" },
      a: { type: "test.add", inputs: { a: "s.value" }, params: { delay_ms: { $input: "delay" } } },
      b: { type: "test.add", inputs: { a: "ghost.value" } },
    },
  };
  assertEquals(byKind(await issuesOf(graph, { delay: -1 })), [
    "bad_param /nodes/a/params/delay_ms",
    "unknown_node /nodes/b/inputs/a",
  ]);
});

Deno.test("a value given to a group's input through the using graph is checked inside the group", async () => {
  const dir = await withInnerGroup();
  const graph = {
    version: 1,
    inputs: { n: { type: "number", default: 1 } },
    nodes: { g: { type: "graph", graph: "inner.json", params: { v: { $input: "n" } } } },
  };
  assertEquals(await issuesOf(graph, { n: 3 }, dir), []);
  await Deno.writeTextFile(
    join(dir, "inner.json"),
    JSON.stringify({
      version: 1,
      inputs: { v: { type: "number" } },
      nodes: {
        s: { type: "test.const" },
        a: { type: "test.add", inputs: { a: "s.value" }, params: { delay_ms: { $input: "v" } } },
      },
      outputs: { value: "a.value" },
    }),
  );
  const issues = await issuesOf(graph, { n: -3 }, dir);
  assertEquals(byKind(issues), ["bad_param /nodes/a/params/delay_ms", "invalid_subgraph /nodes/g/graph"]);
  assert(issues.some((i) => i.file?.endsWith("inner.json") && i.message.includes("gives -3")));
});

Deno.test("a custom module that fails to load is one issue, not one per node using its types", async () => {
  const issues = await issuesOf({
    version: 1,
    modules: ["./missing_module.ts"],
    nodes: { a: { type: "custom.one" }, b: { type: "custom.two" }, c: { type: "custom.one" } },
  });
  assertEquals(byKind(issues), ["unreadable_module /modules/0"]);
});
