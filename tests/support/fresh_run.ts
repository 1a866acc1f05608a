/**
 * Runs a graph in a new Deno process, as a later (or concurrent) CLI run would: nothing of this
 * process's state — open cache connections, module caches — is shared with it.
 *
 * @module
 */
import type { GraphFile } from "../../runtime/graph.ts";

/** What a run in another process reports: each node's state, and the warnings' messages. */
export interface FreshRun {
  readonly states: Record<string, string>;
  readonly warnings: string[];
  readonly outputs: Record<string, unknown>;
}

const root = new URL("../../", import.meta.url);

/**
 * Runs `graph` (with the test nodes registered) in a child `deno` process on `cacheDir`; JSON
 * outputs only (bytes outputs are reported as their length).
 */
export async function runInFreshProcess(
  graph: GraphFile,
  options: { cacheDir: string; outDir: string; inputs?: Record<string, string> },
): Promise<FreshRun> {
  const code = `
    import { createRegistry, runGraph, BUILTIN_PLUGINS } from ${JSON.stringify(new URL("mod.ts", root).href)};
    import { testPlugin } from ${JSON.stringify(new URL("tests/support/test_nodes.ts", root).href)};
    const run = await runGraph(${JSON.stringify(graph)}, {
      registry: createRegistry([...BUILTIN_PLUGINS, testPlugin]),
      ...${JSON.stringify(options)},
    });
    const outputs = Object.fromEntries(Object.entries(run.outputs).map(([k, v]) =>
      [k, v && typeof v === "object" && "bytes" in v ? v.bytes.byteLength : v]));
    const states = Object.fromEntries(Object.entries(run.nodes).map(([id, n]) => [id, n.state]));
    console.log(JSON.stringify({ states, warnings: run.warnings.map((w) => w.message), outputs }));`;
  const { code: status, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--frozen", "--config", new URL("deno.json", root).pathname, code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  if (status !== 0) throw new Error(`child run failed (${status}): ${new TextDecoder().decode(stderr)}`);
  return JSON.parse(text.trim().split("\n").at(-1)!);
}
