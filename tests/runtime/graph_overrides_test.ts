/**
 * `GraphSource.overrides`: texts that stand in for node group files (the studio's unsaved edits of an
 * open group). A group nested two deep reads its stand-in too, a group reached through a symlink
 * finds the stand-in kept under its real path, the file on disk is never read for it, and a
 * stand-in that is not a graph is reported as the file would be.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { checkGraph, compileGraph, createRegistry } from "../../mod.ts";
import { graphFromObject } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";

Deno.test("graph overrides: nested groups and symlinked files read their stand-in text", async () => {
  const dir = await tempDir({ prefix: "graph-overrides-" });
  const write = (name: string, graph: unknown) => Deno.writeTextFile(join(dir, name), JSON.stringify(graph));
  const fighter = (detail: number) => ({
    version: 1,
    nodes: { f: { type: "demo.fighter", params: { detail } } },
    outputs: { scene: "f.scene" },
  });
  await write("middle.json", {
    version: 1,
    nodes: { deep: { type: "graph", graph: "deep.json" } },
    outputs: { scene: "deep.scene" },
  });
  await write("deep.json", fighter(1));
  await Deno.symlink(join(dir, "deep.json"), join(dir, "alias.json"));
  const top = (file: string) =>
    graphFromObject(
      { version: 1, nodes: { g: { type: "graph", graph: file } }, outputs: { scene: "g.scene" } },
      dir,
    );
  const registry = createRegistry();
  const detailOf = async (file: string, overrides?: Map<string, string>) => {
    const plan = await compileGraph({ ...top(file), overrides }, registry);
    return plan.nodes.get(file === "middle.json" ? "g/deep/f" : "g/f")!.params.detail;
  };
  const stand = new Map([[join(dir, "deep.json"), JSON.stringify(fighter(5))]]);
  equal(await detailOf("middle.json"), 1, "without overrides: the file");
  equal(await detailOf("middle.json", stand), 5, "two groups deep: the stand-in");
  equal(await detailOf("alias.json", stand), 5, "through a symlink: the stand-in of its real path");
  // A stand-in for a file that does not exist is read all the same (nothing is read from disk).
  const absent = new Map([[join(dir, "absent.json"), JSON.stringify(fighter(3))]]);
  equal(await detailOf("absent.json", absent), 3);

  const bad = new Map([[join(dir, "deep.json"), "{ not json"]]);
  const issues = await checkGraph({ ...top("deep.json"), overrides: bad }, { registry });
  deepEqual(issues.map((i) => [i.kind, i.path, i.file]), [
    ["invalid_subgraph", "/nodes/g/graph", "<memory>"],
    ["invalid_graph", "", join(dir, "deep.json")],
  ]);
});
