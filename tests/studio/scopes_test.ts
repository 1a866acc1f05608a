/** `scopesOf`: where the page finds a group file under a top graph, from the open graphs. */
import { deepEqual, equal } from "node:assert/strict";
import { scopesOf } from "../../studio/web/scopes.ts";
import type { Graph } from "../../studio/web/types.ts";

const group = (graph: string) => ({ type: "graph", graph });

Deno.test("scopes: every group node path to a file, through open graphs only", () => {
  const graphs = new Map<string, Graph>([
    ["g/a.json", {
      version: 1,
      nodes: { m: group("mid.json"), n: group("./mid.json"), x: { type: "io.read" } },
    }],
    ["g/mid.json", { version: 1, nodes: { deep: group("sub/deep.json") } }],
    ["g/sub/deep.json", { version: 1, nodes: { back: group("../closed.json") } }],
  ]);
  const of = (path: string) => graphs.get(path);
  deepEqual(scopesOf(of, "g/a.json", "g/sub/deep.json"), [["m", "deep"], ["n", "deep"]]);
  deepEqual(scopesOf(of, "g/a.json", "g/a.json"), [[]]);
  // closed.json is not open: it is found, but nothing under it can be.
  deepEqual(scopesOf(of, "g/a.json", "g/closed.json"), [["m", "deep", "back"], ["n", "deep", "back"]]);
  deepEqual(scopesOf(of, "g/mid.json", "g/a.json"), []);
});

Deno.test("scopes: a group that an unsaved edit made run itself ends the walk", () => {
  const graphs = new Map<string, Graph>([["loop.json", { version: 1, nodes: { self: group("loop.json") } }]]);
  const found = scopesOf((path) => graphs.get(path), "loop.json", "loop.json");
  equal(found.length, 33);
  equal(found[32].length, 32);
});
