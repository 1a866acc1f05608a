/**
 * `partgraph check`: validates a graph without running it. It loads the node declarations, the
 * graph format and validation — no executor, cache or run code (glTF-Transform, codecs).
 *
 * @module
 */
import { checkGraph, loadGraph } from "../runtime/api.ts";
import { createRegistry } from "../runtime/registry.ts";
import type { GraphFile } from "../runtime/graph.ts";
import { BUILTIN_PLUGINS } from "../nodes/mod.ts";
import { EXIT, graphProblems, type Opts, parseSets } from "./shared.ts";

/** `check`: validates a graph (and `--set` values) without running it. */
export async function checkCommand(graphPath: string, opts: Opts): Promise<number> {
  const source = await loadGraph(graphPath);
  const issues = await checkGraph(source, {
    inputs: await parseSets(opts.set ?? [], source.json as GraphFile),
    registry: createRegistry(BUILTIN_PLUGINS),
  });
  if (issues.length) return graphProblems(issues, !!opts.json);
  if (opts.json) console.log(JSON.stringify({ ok: true, issues: [] }));
  else console.error(`${graphPath}: ok`);
  return EXIT.ok;
}
