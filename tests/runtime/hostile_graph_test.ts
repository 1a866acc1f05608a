/** Graph files from outside (issue 10): a UTF-8 BOM is accepted; nesting beyond the bound is a clear issue. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkGraph } from "../../mod.ts";
import { MAX_GRAPH_DEPTH } from "../../runtime/graph.ts";
import { MAX_PARAM_DEPTH } from "../../runtime/params.ts";
import { tempDir } from "../support/temp.ts";

const graph = {
  version: 1,
  nodes: {
    fighter: { type: "demo.fighter" },
    export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
  },
  outputs: { glb: "export.bytes" },
};

Deno.test("a graph file starting with a UTF-8 byte-order mark is read like one without", async () => {
  const path = join(await tempDir(), "bom.json");
  await Deno.writeTextFile(path, "\uFEFF" + JSON.stringify(graph));
  assert.deepEqual(await checkGraph(path), []);
});

Deno.test("a parameter nested 10,000 deep is one invalid_graph issue, not a stack overflow", async () => {
  const path = join(await tempDir(), "deep.json");
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

Deno.test("a json parameter nested beyond the bound is a bad_param issue, also from the API (no file scan)", async () => {
  let deep: unknown = 1;
  for (let i = 0; i < 10_000; i++) deep = { a: deep };
  const issues = await checkGraph({
    version: 1,
    nodes: {
      read: { type: "io.read", params: { path: "model.glb" } },
      decode: { type: "decode.auto", inputs: { bytes: "read.bytes" }, params: { options: deep as never } },
    },
  });
  assert.equal(issues.length, 1, JSON.stringify(issues));
  assert.equal(issues[0].kind, "bad_param");
  assert.match(issues[0].message, new RegExp(`nested deeper than ${MAX_PARAM_DEPTH} levels \\(at /a/a/`));
});

Deno.test('a write path "." is a bad_param issue before anything runs', async () => {
  const issues = await checkGraph({
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter" },
      export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
      write: { type: "io.write", inputs: { bytes: "export.bytes" }, params: { path: "." } },
    },
  });
  assert.deepEqual(issues.map((i) => [i.kind, i.path]), [["bad_param", "/nodes/write/params/path"]]);
});
