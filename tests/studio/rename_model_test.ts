/**
 * Renaming without a browser: a node id takes every link to and from it, its graph outputs and its
 * position along, in place (key order kept); a graph input takes every `$input` that names it; names
 * the format cannot read, or that are taken, are refused with the reason and change nothing; a group
 * socket's rename is followed by the graph that uses the group; undo and redo walk the exact states,
 * and the renamed graphs still validate with the runtime.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { checkGraph, createRegistry, SOCKET_TYPES } from "../../mod.ts";
import { NODE_ID } from "../../runtime/graph.ts";
import { GraphModel } from "../../studio/web/model.ts";
import { NODE_ID as PAGE_NODE_ID } from "../../studio/web/rename.ts";
import { formatGraph } from "../../studio/format.ts";
import type { Catalogue, Graph } from "../../studio/web/types.ts";
import { tempDir } from "../support/temp.ts";

const registry = createRegistry();
const catalogue: Catalogue = JSON.parse(JSON.stringify({
  types: SOCKET_TYPES,
  nodes: registry.list().map(({ type, version, doc, inputs, outputs, params }) => ({
    type,
    version,
    doc,
    inputs,
    outputs,
    params,
  })),
}));

const read = (name: string): Graph => JSON.parse(Deno.readTextFileSync(`graphs/${name}`));

Deno.test("rename: the page reads node ids as the runtime does", () => {
  equal(PAGE_NODE_ID.source, NODE_ID.source);
});

Deno.test("rename: a node id, its links in and out, outputs and position follow; undo and redo", () => {
  const m = new GraphModel("graphs/aircraft.json", read("aircraft.json"), catalogue, new Map());
  const before = JSON.stringify(m.graph);
  equal(m.rename("node", "export", "glb_export"), undefined);
  const g = m.graph;
  deepEqual(Object.keys(g.nodes), [
    "fighter",
    "rig",
    "glb_export",
    "report_json",
    "write_glb",
    "write_report",
  ]);
  deepEqual(g.nodes.glb_export.inputs, { scene: "rig.scene" });
  deepEqual(g.nodes.write_glb.inputs, { bytes: "glb_export.bytes" });
  deepEqual(g.outputs, { glb: "glb_export.bytes", report: "rig.report" });
  equal(Object.keys(g.ui!.nodes!).indexOf("glb_export"), 2, "its position keeps its place");
  equal(g.ui!.nodes!.export, undefined);
  // One line per renamed reference in the saved text: the node's key, write_glb's link, the output.
  const lines = (t: string) => t.split("\n");
  const old = lines(formatGraph(JSON.parse(before)));
  const now = lines(formatGraph(g));
  equal(old.length, now.length);
  equal(old.filter((line, i) => line !== now[i]).length, 4, "node key, its link, the output, ui position");
  equal(m.step("undo"), "rename export to glb_export");
  equal(JSON.stringify(m.graph), before);
  equal(m.step("redo"), "rename export to glb_export");
  equal(m.graph.nodes.write_glb.inputs!.bytes, "glb_export.bytes");
});

Deno.test("rename: bad and clashing names are refused with the reason and change nothing", () => {
  const m = new GraphModel("graphs/aircraft.json", read("aircraft.json"), catalogue, new Map());
  const before = JSON.stringify(m.graph);
  equal(m.rename("node", "export", "rig"), "a node 'rig' exists: node ids must be unique");
  equal(
    m.rename("node", "export", "my.export"),
    "'my.export' is not a node id: start with a letter or _, then letters, digits, _ or - " +
      "(a dot would split the link 'node.socket')",
  );
  equal(m.rename("node", "export", ""), "a name cannot be empty");
  equal(
    m.rename("input", "detail", "names"),
    "a graph input 'names' exists: graph input names must be unique",
  );
  equal(
    m.rename("output", "glb", "gl-b"),
    "'gl-b' is not a socket name: start with a letter or _, then letters, digits or _",
  );
  equal(m.rename("node", "export", "export"), undefined, "the same name is no edit");
  equal(JSON.stringify(m.graph), before);
  equal(m.steps("undo"), 0);
});

Deno.test("rename: a group's input and output, followed by the graph that uses it, still valid", async () => {
  const dir = await tempDir({ prefix: "rename-model-" });
  await Deno.mkdir(join(dir, "graphs"));
  const rig = new GraphModel(join(dir, "graphs/rig.json"), read("rig.json"), catalogue, new Map());
  const aircraft = new GraphModel(
    join(dir, "graphs/aircraft.json"),
    read("aircraft.json"),
    catalogue,
    new Map(),
  );
  equal(rig.rename("input", "zero_rest", "rest_zero", "t1"), undefined);
  deepEqual(rig.graph.nodes.pivots.params, { zero_rest: { $input: "rest_zero" } });
  equal(Object.keys(rig.graph.inputs!).indexOf("rest_zero"), 4);
  deepEqual(
    aircraft.followGroupRename(join(dir, "graphs/rig.json"), "input", "zero_rest", "rest_zero", "t1"),
    [
      "rig",
    ],
  );
  deepEqual(aircraft.graph.nodes.rig.params, {
    names: { $input: "names" },
    rest_zero: { $input: "zero_rest" },
  });
  equal(rig.rename("output", "scene", "rigged", "t2"), undefined);
  deepEqual(aircraft.followGroupRename(join(dir, "graphs/rig.json"), "output", "scene", "rigged", "t2"), [
    "rig",
  ]);
  deepEqual(aircraft.graph.nodes.export.inputs, { scene: "rig.rigged" });
  equal(aircraft.graph.outputs!.report, "rig.report", "another output's links stay");
  equal(aircraft.nextTogether("undo"), "t2");
  await Deno.writeTextFile(join(dir, "graphs/rig.json"), formatGraph(rig.graph));
  await Deno.writeTextFile(join(dir, "graphs/aircraft.json"), formatGraph(aircraft.graph));
  const issues = await checkGraph(join(dir, "graphs/aircraft.json"), { registry });
  deepEqual(issues, []);
  // A graph that does not use the group is not touched (no undo step).
  const other = new GraphModel(join(dir, "graphs/gltf.json"), read("gltf.json"), catalogue, new Map());
  deepEqual(other.followGroupRename(join(dir, "graphs/rig.json"), "output", "report", "r", "t3"), []);
  equal(other.steps("undo"), 0);
  await Deno.remove(dir, { recursive: true });
});
