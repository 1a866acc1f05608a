/**
 * The `partgraph` command line.
 *
 * ```
 * partgraph run <graph> [--set name=value …] [--out DIR] [--json] [--quiet] [--cache-dir D] [--no-cache] [--manifest FILE] [--watch]
 *               [--fail-on-warning]
 * partgraph check <graph> [--set name=value …] [--json]
 * partgraph nodes [--markdown | --json]
 * partgraph inspect <file> [--json]
 * partgraph cache stats|prune|clear [--cache-dir D] [--max-size BYTES]
 * partgraph verify <manifest> [--out DIR] [--json]
 * partgraph batch <graph> --each NAME=<glob | @list.txt | @-> [--jobs N] [--shard I/N] [--fail-fast]
 *                 [--fail-on-warning] [--out DIR] [--timeout SECONDS] [--processes | --workers] [--max-heap MB] [--cache-dir D]
 *                 [--no-cache]
 * partgraph batch --merge <manifest …> --out FILE
 * partgraph dot <graph>
 * partgraph schema [--out FILE]
 * ```
 *
 * `run`, `batch` and `verify` take `--remote-cache URL` (a shared Bazel-protocol HTTP cache).
 *
 * Exit codes: 0 success; 1 a node failed, verification found differences, a batch input failed or (with
 * `--fail-on-warning`) a run warned; 2 usage error;
 * 3 invalid graph; 4 the file given to `inspect` could not be decoded.
 *
 * @module
 */
import { importOnUse } from "../runtime/lazy_run.ts";
import { parseArgs } from "./args.ts";
import { suggestName } from "../runtime/validate/suggest.ts";
import { GraphError } from "../runtime/errors.ts";
import { EXIT, UsageError } from "./exit.ts";

export { EXIT };

const USAGE = `partgraph — node-graph pipeline for rigged glTF

usage:
  partgraph run <graph.json> [--set name=value …] [--out DIR] [--json] [--quiet]
                             [--cache-dir DIR] [--no-cache] [--manifest FILE] [--watch] [--fail-on-warning]
  partgraph check <graph.json> [--set name=value …] [--json]
  partgraph nodes [--markdown | --json]
  partgraph inspect <model file> [--json]
  partgraph cache stats|prune|clear [--cache-dir DIR] [--max-size BYTES]
  partgraph verify <manifest.json | batch.manifest.json> [--out DIR] [--json]
  partgraph batch <graph.json> --each NAME=<glob | @list.txt | @-> [--set name=value …] [--jobs N]
                               [--shard I/N] [--fail-fast] [--fail-on-warning] [--timeout SECONDS]
                               [--processes | --workers] [--max-heap MB] [--out DIR] [--manifest FILE] [--json]
                               [--quiet] [--cache-dir DIR] [--no-cache]
  partgraph batch --merge <shard manifest …> --out FILE
  partgraph dot <graph.json>        (Graphviz DOT on stdout: partgraph dot g.json | dot -Tsvg > g.svg)
  partgraph schema [--out FILE]
  partgraph studio [graph.json] [--port N] [--host ADDR] [--root DIR …]   (node editor + 3D preview)

remote cache (run, batch, verify): --remote-cache URL (or PARTGRAPH_REMOTE_CACHE), --remote-cache-read-only,
  --remote-cache-timeout SECONDS; a header from PARTGRAPH_REMOTE_CACHE_HEADER ("Name: value")

exit codes: 0 ok, 1 node failure, verify mismatch, failed batch input or a warning with --fail-on-warning,
  2 usage, 3 invalid graph, 4 undecodable input`;

/** The commands, for a "did you mean" on a misspelt one. */
const COMMANDS = ["run", "batch", "check", "nodes", "inspect", "cache", "verify", "schema", "dot", "studio"];

/** Runs the CLI with the given arguments; resolves with the exit code. */
export async function main(args: string[]): Promise<number> {
  // The studio has its own options and loads its server (and bundler) only when asked for.
  if (args[0] === "studio") return await (await commandModule.studio()).studioMain(args.slice(1));
  let parsed;
  try {
    parsed = parseArgs(args, {
      set: { type: "string", multiple: true },
      out: { type: "string" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      "cache-dir": { type: "string" },
      "no-cache": { type: "boolean" },
      manifest: { type: "string" },
      watch: { type: "boolean", short: "w" },
      markdown: { type: "boolean" },
      "max-size": { type: "string" },
      each: { type: "string" },
      jobs: { type: "string", short: "j" },
      shard: { type: "string" },
      "fail-fast": { type: "boolean" },
      "fail-on-warning": { type: "boolean" },
      timeout: { type: "string" },
      processes: { type: "boolean" },
      workers: { type: "boolean" },
      "max-heap": { type: "string" },
      merge: { type: "boolean" },
      "remote-cache": { type: "string" },
      "remote-cache-read-only": { type: "boolean" },
      "remote-cache-timeout": { type: "string" },
      help: { type: "boolean", short: "h" },
    });
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  const { values: opts, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (opts.help || !command) {
    console.log(USAGE);
    return opts.help ? EXIT.ok : EXIT.usage;
  }
  try {
    switch (command) {
      case "run":
        return await (await commandModule.run()).runCommand(one(rest, "graph file"), opts);
      case "batch":
        return await (await commandModule.batch()).batchCommand(rest, opts);
      case "check":
        return await (await commandModule.check()).checkCommand(one(rest, "graph file"), opts);
      case "nodes":
        return (await commandModule.catalogue()).nodesCommand(opts);
      case "inspect":
        return await (await commandModule.tools()).inspectCommand(one(rest, "model file"), opts);
      case "cache":
        return await (await commandModule.tools()).cacheCommand(one(rest, "stats, prune or clear"), opts);
      case "verify":
        return await (await commandModule.verify()).verifyCommand(one(rest, "manifest file"), opts);
      case "schema":
        return await (await commandModule.catalogue()).schemaCommand(opts);
      case "dot":
        return await (await commandModule.tools()).dotCommand(one(rest, "graph file"));
      default:
        return usage(`unknown command '${command}'${suggestName(command, COMMANDS)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message, error.showUsage);
    if (error instanceof GraphError) {
      return (await commandModule.shared()).graphProblems(error.issues, !!opts.json);
    }
    throw error;
  }
}

/**
 * The commands' modules, each imported when a command needs it: `nodes` needs only node
 * declarations, and start-up is most of its time; `run` needs the executor, the cache and hashing.
 * (By specifier, not `import("./run.ts")`, which Deno would follow as soon as this module loads.)
 */
const commandModule = {
  run: () => importOnUse<typeof import("./run.ts")>("./run.ts", import.meta.url),
  batch: () => importOnUse<typeof import("./batch.ts")>("./batch.ts", import.meta.url),
  verify: () => importOnUse<typeof import("./verify.ts")>("./verify.ts", import.meta.url),
  check: () => importOnUse<typeof import("./check.ts")>("./check.ts", import.meta.url),
  catalogue: () => importOnUse<typeof import("./catalogue.ts")>("./catalogue.ts", import.meta.url),
  tools: () => importOnUse<typeof import("./tools.ts")>("./tools.ts", import.meta.url),
  shared: () => importOnUse<typeof import("./shared.ts")>("./shared.ts", import.meta.url),
  studio: () => importOnUse<typeof import("../studio/server.ts")>("../studio/server.ts", import.meta.url),
};

function one(rest: string[], what: string): string {
  if (rest.length !== 1) {
    throw new UsageError(`expected one ${what}, found ${rest.length ? rest.join(" ") : "none"}`);
  }
  return rest[0];
}

function usage(message: string, showUsage = true): number {
  console.error(showUsage ? `error: ${message}\n\n${USAGE}` : `error: ${message}`);
  return EXIT.usage;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
