/**
 * Grouping and ungrouping on graph JSON, without a browser: a group saved into another folder has
 * its relative paths (node groups, `$schema`) rebased and, run by the runtime, gives the same bytes
 * as the graph it came from; one source wired to several nodes is one group input; a node outside
 * the selection between two selected ones is refused (the group would feed itself); ungrouping makes
 * ids unique, keeps defaults as the runtime reads them, leaves an absent (null) input unset, and
 * moves a literal value a group gave a socket into a new graph input of the outer graph — run by the
 * runtime, the ungrouped graph writes the same bytes as the grouped one.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { checkGraph, type GraphFile, loadGraph, runGraph } from "../../mod.ts";
import { groupNodes, ungroupNode } from "../../studio/web/grouping.ts";
import type { Graph } from "../../studio/web/types.ts";
import { tempDir } from "../support/temp.ts";

const aircraft = (): Graph => JSON.parse(Deno.readTextFileSync("graphs/aircraft.json"));

/** Socket types of the aircraft graph's nodes, as the editor knows them from the catalogue. */
const types: Record<string, string> = {
  "fighter.scene": "scene",
  "rig.scene": "scene",
  "rig.report": "json",
};

Deno.test("grouping: into a sub-folder, paths rebased, same output bytes as before", async () => {
  const dir = await tempDir({ prefix: "grouping-model-" });
  await Deno.mkdir(join(dir, "graphs", "sub"), { recursive: true });
  await Deno.copyFile("graphs/rig.json", join(dir, "graphs", "rig.json"));
  const graph = aircraft();
  graph.ui = { nodes: { rig: [260, 0], export: [520, 0] } };
  const grouped = groupNodes(graph, ["rig", "export"], {
    outerPath: join(dir, "graphs", "aircraft.json"),
    file: "sub/pack.json",
    socketType: (node, socket) => types[`${node}.${socket}`],
    moduleTypes: new Set(),
  });
  if (typeof grouped === "string") throw new Error(grouped);
  equal(grouped.node, "pack");
  equal(grouped.inner.$schema, "../../schema/graph.schema.json");
  deepEqual(grouped.inner.nodes.rig.graph, "../rig.json");
  deepEqual(grouped.inner.inputs, {
    scene: { type: "scene" },
    names: graph.inputs!.names,
    zero_rest: graph.inputs!.zero_rest,
  });
  // export.bytes feeds write_glb and the graph output glb: one group output; rig.report likewise.
  deepEqual(grouped.inner.outputs, { bytes: "export.bytes", report: "rig.report" });
  deepEqual(grouped.outer.nodes.pack, {
    type: "graph",
    graph: "sub/pack.json",
    inputs: { scene: "fighter.scene" },
    params: { names: { $input: "names" }, zero_rest: { $input: "zero_rest" } },
  });
  deepEqual(grouped.outer.outputs, { glb: "pack.bytes", report: "pack.report" });
  equal(grouped.outer.nodes.write_glb.inputs!.bytes, "pack.bytes");
  deepEqual(grouped.outer.ui!.nodes, { pack: [390, 0] });

  await Deno.writeTextFile(join(dir, "graphs", "sub", "pack.json"), JSON.stringify(grouped.inner));
  await Deno.writeTextFile(join(dir, "graphs", "grouped.json"), JSON.stringify(grouped.outer));
  await Deno.writeTextFile(join(dir, "graphs", "aircraft.json"), JSON.stringify(graph));
  const glb = async (file: string) => {
    const source = await loadGraph(join(dir, "graphs", file));
    deepEqual(await checkGraph(source), []);
    const result = await runGraph(source, { outDir: join(dir, "out", file), cacheDir: false });
    return (result.outputs.glb as { bytes: Uint8Array }).bytes;
  };
  const before = await glb("aircraft.json");
  deepEqual(await glb("grouped.json"), before);
});

Deno.test("grouping: one source into several nodes is one input; a node between is refused", () => {
  const graph: Graph = {
    version: 1,
    nodes: {
      src: { type: "t.src" },
      a: { type: "t.pass", inputs: { value: "src.value" } },
      b: { type: "t.pass", inputs: { value: "src.value", other: "mid.value" } },
      mid: { type: "t.pass", inputs: { value: "a.value" } },
    },
  };
  const ctx = {
    outerPath: "graphs/g.json",
    file: "g2.json",
    socketType: () => "string",
    moduleTypes: new Set<string>(),
  };
  equal(
    groupNodes(graph, ["a", "b"], ctx),
    "mid takes from the selection and feeds it: group it too, or leave it out",
  );
  const grouped = groupNodes(graph, ["a", "b", "mid"], ctx);
  if (typeof grouped === "string") throw new Error(grouped);
  deepEqual(grouped.inner.inputs, { value: { type: "string" } });
  deepEqual(grouped.outer.nodes.g2.inputs, { value: "src.value" });
  equal(groupNodes(graph, [], ctx), "select the nodes to group (Group Input and Group Output stay)");
});

Deno.test("ungrouping: unique ids, defaults as the runtime reads them, null unset, socket literals to inputs", () => {
  const inner: Graph = {
    version: 1,
    inputs: {
      opts: { type: "json", default: { $input: "not a reference" } },
      extra: { type: "bytes", default: null },
      given: { type: "string" },
    },
    nodes: {
      a: { type: "t.pass", params: { opts: { $input: "opts" }, label: { $input: "given" } } },
      b: { type: "t.pass", inputs: { value: "a.value", extra: { $input: "extra" } } },
    },
    outputs: { out: "b.value" },
  };
  const outer: Graph = {
    version: 1,
    inputs: { label: { type: "string" } },
    nodes: {
      a: { type: "t.src" },
      grp: { type: "graph", graph: "inner.json", params: { given: { $input: "label" } } },
      use: { type: "t.pass", inputs: { value: "grp.out", other: "a.value" } },
    },
    outputs: { final: "grp.out" },
  };
  const done = ungroupNode(outer, "grp", inner, {
    outerPath: "graphs/outer.json",
    innerPath: "graphs/inner.json",
  });
  if (typeof done === "string") throw new Error(done);
  deepEqual(done.ids, ["a_2", "b"]);
  deepEqual(done.inputs, []);
  deepEqual(done.outer.nodes.a_2.params, {
    opts: { $literal: { $input: "not a reference" } },
    label: { $input: "label" },
  });
  deepEqual(
    done.outer.nodes.b.inputs,
    { value: "a_2.value" },
    "a null input is absent: the socket stays unset",
  );
  equal(done.outer.nodes.use.inputs!.value, "b.value");
  deepEqual(done.outer.outputs, { final: "b.value" });
  equal(done.outer.nodes.grp, undefined);

  // A socket given a literal (the input's default here, the group node's value below): a new outer
  // graph input holds it, named after the group's input (`label` is taken: `label_2`).
  const literal: Graph = structuredClone(inner);
  literal.inputs!.word = { type: "string", default: "hi" };
  literal.inputs!.label = { type: "json", description: "Shown on b." };
  literal.nodes.b.inputs!.text = { $input: "word" };
  literal.nodes.b.inputs!.more = { $input: "word" };
  literal.nodes.b.inputs!.label = { $input: "label" };
  const given: Graph = structuredClone(outer);
  given.nodes.grp.params!.label = { $literal: { $input: "a value, not a reference" } };
  const moved = ungroupNode(given, "grp", literal, {
    outerPath: "graphs/outer.json",
    innerPath: "graphs/inner.json",
  });
  if (typeof moved === "string") throw new Error(moved);
  deepEqual(moved.inputs, ["word", "label_2"], "one input per group input, however many sockets it feeds");
  deepEqual(moved.outer.inputs, {
    label: { type: "string" },
    word: { type: "string", default: "hi", description: "The value grp gave its input 'word'." },
    label_2: { type: "json", default: { $input: "a value, not a reference" }, description: "Shown on b." },
  });
  deepEqual(moved.outer.nodes.b.inputs, {
    value: "a_2.value",
    text: { $input: "word" },
    more: { $input: "word" },
    label: { $input: "label_2" },
  });
});

Deno.test("ungrouping: a literal a group gave a JSON socket becomes a graph input; same output bytes", async () => {
  const dir = await tempDir({ prefix: "ungroup-literal-" });
  // The group writes the JSON it is given; the outer graph gives it a literal (one that reads as a
  // reference, so the group node escapes it) and leaves the other input at its default.
  const notes: Graph = {
    version: 1,
    inputs: {
      notes: { type: "json", description: "What to write." },
      extra: { type: "json", default: [1, 2, 3] },
    },
    nodes: {
      notes_json: { type: "export.json", inputs: { json: { $input: "notes" } }, params: { name: "notes" } },
      extra_json: { type: "export.json", inputs: { json: { $input: "extra" } }, params: { name: "extra" } },
    },
    outputs: { notes: "notes_json.bytes", extra: "extra_json.bytes" },
  };
  const outer: Graph = {
    version: 1,
    nodes: {
      group: {
        type: "graph",
        graph: "notes.json",
        params: { notes: { $literal: { $input: "kept as text", ship: "fighter" } } },
      },
    },
    outputs: { notes: "group.notes", extra: "group.extra" },
  };
  await Deno.writeTextFile(join(dir, "notes.json"), JSON.stringify(notes));
  const done = ungroupNode(outer, "group", notes, {
    outerPath: join(dir, "outer.json"),
    innerPath: join(dir, "notes.json"),
  });
  if (typeof done === "string") throw new Error(done);
  deepEqual(done.inputs, ["notes", "extra"]);
  const bytes = async (graph: Graph) => {
    const source = await loadGraph(graph as GraphFile, dir);
    deepEqual(await checkGraph(source), []);
    const { outputs } = await runGraph(source, { outDir: join(dir, "out"), cacheDir: false });
    return [outputs.notes, outputs.extra].map((o) =>
      new TextDecoder().decode((o as { bytes: Uint8Array }).bytes)
    );
  };
  const before = await bytes(outer);
  deepEqual(JSON.parse(before[0]), { $input: "kept as text", ship: "fighter" });
  deepEqual(JSON.parse(before[1]), [1, 2, 3]);
  deepEqual(await bytes(done.outer), before);
});
