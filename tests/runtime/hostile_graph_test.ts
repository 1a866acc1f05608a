/** Graph files from outside (issue 10): a UTF-8 BOM is accepted; nesting beyond the bound is a clear issue. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkGraph } from "../../runtime/api.ts";
import { MAX_GRAPH_DEPTH } from "../../runtime/graph.ts";

const graph = {
  version: 1,
  nodes: {
    fighter: { type: "demo.fighter" },
    export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
  },
  outputs: { glb: "export.bytes" },
};

Deno.test("a graph file starting with a UTF-8 byte-order mark is read like one without", async () => {
  const path = join(await Deno.makeTempDir(), "bom.json");
  await Deno.writeTextFile(path, "\uFEFF" + JSON.stringify(graph));
  assert.deepEqual(await checkGraph(path), []);
});

Deno.test("a parameter nested 10,000 deep is one invalid_graph issue, not a stack overflow", async () => {
  const path = join(await Deno.makeTempDir(), "deep.json");
  const deep = "[".repeat(10_000) + "]".repeat(10_000);
  const text = JSON.stringify({
    ...graph,
    nodes: { ...graph.nodes, export: { ...graph.nodes.export, params: { name: "DEEP" } } },
  });
  await Deno.writeTextFile(path, text.replace('"DEEP"', deep));
  const issues = await checkGraph(path);
  assert.equal(issues.length, 1);
  assert.equal(issues[0].kind, "invalid_graph");
  assert.match(issues[0].message, new RegExp(`nested deeper than ${MAX_GRAPH_DEPTH} levels`));
});
