import { deepStrictEqual as assertEquals, notEqual } from "node:assert/strict";
import { hintBody, hintOf, runHintKey } from "../../runtime/cache/run_hint.ts";
import { actionResultOf } from "../../runtime/cache/action_result.ts";
import { compileGraph, createRegistry, loadGraph } from "../../mod.ts";
import { BUILTIN_PLUGINS } from "../../nodes/mod.ts";

const key = (c: string) => c.repeat(64);

Deno.test("run hint: its keys and blobs are read back, and anything else is no hint", () => {
  const keys = [key("a"), key("b"), key("c")];
  const hint = { keys, blobs: [[key("d"), 4096] as const] };
  assertEquals(hintOf(hintBody(hint), 3), hint);
  const json = (value: unknown) => actionResultOf(new TextEncoder().encode(JSON.stringify(value)), []);
  for (
    const body of [
      hintBody(hint).subarray(0, 20), // cut short
      json({ kind: "partgraph run hint", version: 1, keys, blobs: [[key("d"), -1]] }), // no such size
      json({ kind: "partgraph run hint", version: 1, keys, blobs: [key("d")] }),
      json({ kind: "something else", version: 1, keys }),
      json({ kind: "partgraph run hint", version: 1, keys: [...keys, "A".repeat(64)] }), // not lower-case hex
      json({ kind: "partgraph run hint", version: 1, keys: "abc" }),
      json(null),
      new TextEncoder().encode("{not json"),
    ]
  ) {
    assertEquals(hintOf(body, 10), undefined);
  }
  assertEquals(hintOf(hintBody(hint), 2), undefined); // more keys than the plan has nodes
});

Deno.test("run hint: its key follows the graph's shape and its sources' keys", async () => {
  const registry = createRegistry(BUILTIN_PLUGINS);
  const plan = async (from: string, to = "copy.bin") => {
    const graph = await loadGraph({
      version: 1,
      nodes: {
        read: { type: "io.read", params: { path: from } },
        write: { type: "io.write", inputs: { bytes: "read.bytes" }, params: { path: to } },
      },
    });
    return [...(await compileGraph(graph, registry)).nodes.values()];
  };
  const hint = async (sourceKey: string, from: string, to?: string) =>
    runHintKey(await plan(from, to), { read: key(sourceKey) });
  assertEquals(await hint("1", "/home/a/ship.cmp"), await hint("1", "/home/a/ship.cmp"));
  // The same file at another path (another machine's checkout): its key, and so the hint, are the same.
  assertEquals(await hint("1", "/home/a/ship.cmp"), await hint("1", "/builds/b/ship.cmp"));
  notEqual(await hint("1", "/home/a/ship.cmp"), await hint("2", "/home/a/ship.cmp"));
  notEqual(await hint("1", "/home/a/ship.cmp"), await hint("1", "/home/a/ship.cmp", "other.bin"));
});
