/**
 * Opening a graph in the studio validates it once: the page reads the file without its own sockets
 * (`sockets=0`) and its live check takes the plan and the sockets from one validation. Before, a
 * generated 20,000-node graph was validated three times as it opened (the open's sockets, the
 * check's compile, the check's sockets), which was most of its 3.5-5 s.
 *
 * Validations are counted by the node registry's look-ups: one validation of these graphs looks up
 * each node's type a fixed number of times, measured here with the runtime's own `validateScope`.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { createRegistry } from "../../mod.ts";
import { compileGraph, validateScope } from "../../runtime/mod.ts";
import { graphFromObject } from "../../runtime/graph.ts";
import { startStudio } from "../../studio/server.ts";
import { sharedPage } from "./page_bundle.ts";
import { tempDir } from "../support/temp.ts";
import { BIG_STYLES, bigGraph } from "./big_graphs.ts";

/** A registry of every built-in node that counts its look-ups. */
function countingRegistry() {
  const registry = createRegistry();
  const get = registry.get.bind(registry);
  const counted = { registry, lookups: 0 };
  registry.get = (type: string) => {
    counted.lookups++;
    return get(type);
  };
  return counted;
}

for (const [i, style] of BIG_STYLES.entries()) {
  Deno.test(`studio open: a generated ${style} graph is validated once as it opens (file, then live check)`, async () => {
    const dir = await tempDir({ prefix: "studio-validate-once-" });
    const graph = bigGraph(style, 600, 101 + i);
    const file = join(dir, "big.json");
    await Deno.writeTextFile(file, JSON.stringify(graph));
    const counting = countingRegistry();
    // What one validation, and one compile (validation and plan), look up.
    const source = graphFromObject(graph as never, dir, "big.json");
    const before = counting.lookups;
    const { issues } = await validateScope(source, counting.registry, {});
    const validation = counting.lookups - before;
    equal(issues.length, 0, JSON.stringify(issues.slice(0, 3)));
    assert(validation >= Object.keys(graph.nodes).length, `${validation} look-ups per validation`);
    const compiled = counting.lookups;
    await compileGraph(source, counting.registry);
    const compile = counting.lookups - compiled;

    const studio = await startStudio({
      port: 0,
      roots: [dir],
      outDir: join(dir, "out"),
      cacheDir: false,
      registry: counting.registry,
      page: (await sharedPage()).files,
    });
    try {
      const start = counting.lookups;
      // As the page opens a file: the file without its own sockets, then the live check.
      const opened = await (await fetch(`${studio.url}api/graph?path=${encodeURIComponent(file)}&sockets=0`))
        .json();
      equal(opened.signature, undefined);
      const checked = await (await fetch(`${studio.url}api/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: file, graph: opened.graph }),
      })).json();
      const used = counting.lookups - start;
      equal(checked.issues.length, 0);
      // The live check still answers the graph's sockets as a node group, as validated.
      assert(
        checked.signature && typeof checked.signature.outputs === "object",
        "the check answers the sockets",
      );
      // One validation and the plan: what compileGraph looks up, plus at most the read paths' look-ups.
      assert(
        used < compile + validation,
        `opening looked up ${used} node types: one compile is ${compile}, one validation ${validation}`,
      );
      // Asked without sockets=0 (a group opened on its own), the file's sockets are still answered.
      const full = await (await fetch(`${studio.url}api/graph?path=${encodeURIComponent(file)}`)).json();
      equal(JSON.stringify(full.signature), JSON.stringify(checked.signature));
    } finally {
      await studio.close();
    }
  });
}
