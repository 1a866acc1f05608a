import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { graphToDot } from "../../runtime/dot.ts";
import { loadGraph } from "../../mod.ts";
import { validateScope } from "../../runtime/validate.ts";
import { compileGraph } from "../../runtime/plan.ts";
import { createRegistry } from "../../mod.ts";

const AIRCRAFT = new URL("../../graphs/aircraft.json", import.meta.url).pathname;

Deno.test("dot draws every node of a graph, groups as clusters, and only links between drawn things", async () => {
  const source = await loadGraph(AIRCRAFT);
  const { scope } = await validateScope(source, createRegistry());
  const dot = graphToDot(scope!);
  const declared = new Set(
    [...dot.matchAll(/^\s*("[^"]+") \[label=/gm)].map((m) => JSON.parse(m[1]) as string),
  );
  const plan = await compileGraph(source, createRegistry());
  for (const id of plan.nodes.keys()) assert(declared.has(id), `node ${id} is drawn`);
  assert(dot.includes('subgraph "cluster_rig"'), "the rig group is a cluster");
  const edges = [...dot.matchAll(/^\s*("[^"]+") -> ("[^"]+")/gm)].map((
    m,
  ) => [JSON.parse(m[1]), JSON.parse(m[2])]);
  assert(edges.length >= plan.nodes.size, "links are drawn");
  for (const [from, to] of edges) {
    assert(declared.has(from) && declared.has(to), `${from} -> ${to} joins drawn nodes`);
  }
  // Inside the group, the fit is fed by the panels node and by the group's forward input.
  const into = (id: string) => edges.filter(([, to]) => to === id).map(([from]) => from).sort();
  assertEquals(into("rig/hinges"), ["rig/in:forward", "rig/in:strict", "rig/in:up", "rig/panels"]);
  assertEquals(into("out:glb"), ["export"]);
});
