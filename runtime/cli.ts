/**
 * The `partgraph` command line.
 *
 * ```
 * partgraph run <graph> [--set name=value …] [--out DIR] [--json] [--quiet] [--cache-dir D] [--no-cache] [--manifest FILE] [--watch] [--remote-cache URL]
 * partgraph batch <graph> --each NAME=<glob | @list.txt> [--set …] [--jobs N] [--shard I/N] [--fail-fast] [--out DIR] [--manifest FILE]
 * partgraph batch --merge <manifest …> --out FILE
 * partgraph check <graph> [--set name=value …] [--json]
 * partgraph nodes [--markdown | --json]
 * partgraph inspect <file> [--json]
 * partgraph cache stats|prune|clear [--cache-dir D] [--max-size BYTES]
 * partgraph verify <manifest> [--out DIR] [--json] [--remote-cache URL]
 * partgraph dot <graph>
 * partgraph schema [--out FILE]
 * ```
 *
 * Exit codes: 0 success; 1 a node failed or verification found differences; 2 usage error;
 * 3 invalid graph; 4 the file given to `inspect` could not be decoded.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { basename, resolve } from "node:path";
import { checkGraph, DEFAULT_CACHE_DIR, DEFAULT_OUT_DIR, loadGraph, runGraph } from "./api.ts";
import { GraphError, PartgraphError, RunError } from "./errors.ts";
import type { GraphFile } from "./graph.ts";
import { createRegistry } from "./registry.ts";
import { catalogueMarkdown, catalogueText } from "./catalogue.ts";
import { humanProgress, ndjsonProgress } from "./progress.ts";
import { DEFAULT_MAX_BYTES, DiskCache } from "./cache/disk.ts";
import { buildManifest, compareManifests, type Manifest } from "./manifest.ts";
import { describeScene, renderTree } from "./inspect.ts";
import { watchGraph } from "./watch.ts";
import { graphSchema } from "./schema.ts";
import { graphToDot } from "./dot.ts";
import { validateScope } from "./validate.ts";
import {
  EXIT,
  graphProblems,
  parseSets,
  remoteFromCli,
  requireWriteAccess,
  UsageError,
} from "./cli_shared.ts";
import { type BatchCliOptions, batchCommand } from "./batch/command.ts";
import { RemoteCache } from "./cache/remote.ts";
import { pickDecoder } from "../nodes/decode/auto.ts";
import { atomicWrite } from "./fs.ts";
import type { EventSink } from "./events.ts";
import type { Document } from "@gltf-transform/core";

export { EXIT } from "./cli_shared.ts";

const USAGE = `partgraph — node-graph pipeline for rigged glTF

usage:
  partgraph run <graph.json> [--set name=value …] [--out DIR] [--json] [--quiet]
                             [--cache-dir DIR] [--no-cache] [--manifest FILE] [--watch]
  partgraph batch <graph.json> --each NAME=<glob | @list.txt> [--set name=value …] [--jobs N]
                               [--shard I/N] [--fail-fast] [--out DIR] [--manifest FILE] [--json]
  partgraph batch --merge <shard manifest …> --out FILE
  partgraph check <graph.json> [--set name=value …] [--json]
  partgraph nodes [--markdown | --json]
  partgraph inspect <model file> [--json]
  partgraph cache stats|prune|clear [--cache-dir DIR] [--max-size BYTES]
  partgraph verify <manifest.json> [--out DIR] [--json]

remote cache (run, batch, verify): --remote-cache URL (or PARTGRAPH_REMOTE_CACHE), --remote-cache-read-only,
  --remote-cache-timeout SECONDS; a header from PARTGRAPH_REMOTE_CACHE_HEADER ("Name: value")
  partgraph dot <graph.json>        (Graphviz DOT on stdout: partgraph dot g.json | dot -Tsvg > g.svg)
  partgraph schema [--out FILE]

exit codes: 0 ok, 1 node failure or verify mismatch, 2 usage, 3 invalid graph, 4 undecodable input`;

/** Runs the CLI with the given arguments; resolves with the exit code. */
export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
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
        merge: { type: "boolean" },
        "remote-cache": { type: "string" },
        "remote-cache-read-only": { type: "boolean" },
        "remote-cache-timeout": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
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
        return await runCommand(one(rest, "graph file"), opts);
      case "batch":
        return await batchCommand(rest, opts);
      case "check":
        return await checkCommand(one(rest, "graph file"), opts);
      case "nodes":
        return nodesCommand(opts);
      case "inspect":
        return await inspectCommand(one(rest, "model file"), opts);
      case "cache":
        return await cacheCommand(one(rest, "stats, prune or clear"), opts);
      case "verify":
        return await verifyCommand(one(rest, "manifest file"), opts);
      case "schema":
        return await schemaCommand(opts);
      case "dot":
        return await dotCommand(one(rest, "graph file"));
      default:
        return usage(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    if (error instanceof GraphError) return graphProblems(error.issues, !!opts.json);
    throw error;
  }
}

type Opts = BatchCliOptions & {
  set?: string[];
  out?: string;
  json?: boolean;
  quiet?: boolean;
  "cache-dir"?: string;
  "no-cache"?: boolean;
  manifest?: string;
  watch?: boolean;
  markdown?: boolean;
  "max-size"?: string;
};

async function runCommand(graphPath: string, opts: Opts): Promise<number> {
  const outDir = opts.out ?? DEFAULT_OUT_DIR;
  const cacheDir = opts["no-cache"] ? undefined : opts["cache-dir"] ?? DEFAULT_CACHE_DIR;
  await requireWriteAccess([
    outDir,
    ...(cacheDir ? [cacheDir] : []),
    ...(opts.manifest ? [opts.manifest] : []),
  ]);
  const remote = await remoteFromCli(opts);
  const source = await loadGraph(graphPath);
  const inputs = await parseSets(opts.set ?? [], source.json as GraphFile);
  if (opts.watch) return await watchCommand(graphPath, inputs, outDir, cacheDir, opts);
  const onEvent: EventSink | undefined = opts.json
    ? ndjsonProgress()
    : opts.quiet || !Deno.stderr.isTerminal()
    ? undefined
    : humanProgress();
  const started = performance.now();
  try {
    const run = await runGraph(source, {
      inputs,
      outDir,
      cacheDir: cacheDir ?? false,
      noCache: opts["no-cache"],
      remoteCache: remote && new RemoteCache(remote),
      onEvent,
      // The CLI prints no output values: load them only for a manifest, which digests them.
      outputs: opts.manifest ? undefined : [],
    });
    const states = Object.values(run.nodes);
    const cached = states.filter((n) => n.state === "cached").length;
    if (opts.manifest) {
      const manifest = await buildManifest(run);
      await atomicWrite(
        resolve(opts.manifest),
        new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n"),
      );
    }
    const summary = {
      event: "result",
      ok: true,
      nodes: states.length,
      cached,
      ms: Math.round(performance.now() - started),
      writes: run.writes,
      warnings: run.warnings.length,
    };
    if (opts.json) console.log(JSON.stringify(summary));
    else if (!opts.quiet) {
      for (const w of run.warnings) if (!onEvent) console.error(`warning: ${w.id}: ${w.message}`);
      for (const w of run.writes) console.error(`wrote ${resolve(outDir, w.path)}`);
      console.error(`${states.length} nodes (${cached} cached) in ${summary.ms} ms`);
    }
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof RunError)) throw error;
    if (opts.json) console.log(JSON.stringify({ event: "result", ok: false, error: error.toJSON() }));
    else for (const f of error.failures) console.error(`error: ${f.message}`);
    return EXIT.failed;
  }
}

/** `run --watch`: runs again whenever the graph or a file it read changes, until interrupted. */
async function watchCommand(
  graphPath: string,
  inputs: Record<string, unknown>,
  outDir: string,
  cacheDir: string | undefined,
  opts: Opts,
): Promise<number> {
  const stop = new AbortController();
  Deno.addSignalListener("SIGINT", () => stop.abort());
  await watchGraph(graphPath, {
    inputs,
    outDir,
    cacheDir: cacheDir ?? false,
    noCache: opts["no-cache"],
    signal: stop.signal,
    onEvent: opts.json ? ndjsonProgress() : opts.quiet ? undefined : humanProgress(),
    onRound({ run, error }) {
      if (run) {
        const states = Object.values(run.nodes);
        const ran = states.filter((n) => n.state === "done").length;
        console.error(
          `${states.length} nodes (${ran} ran) — watching ${graphPath} and its inputs; Ctrl-C stops`,
        );
      } else if (error instanceof GraphError) graphProblems(error.issues, !!opts.json);
      else if (error instanceof RunError) {
        for (const f of error.failures) console.error(`error: ${f.message}`);
      } else console.error(`error: ${error instanceof Error ? error.message : error}`);
    },
  });
  return EXIT.ok;
}

async function checkCommand(graphPath: string, opts: Opts): Promise<number> {
  const source = await loadGraph(graphPath);
  const issues = await checkGraph(source, {
    inputs: await parseSets(opts.set ?? [], source.json as GraphFile),
  });
  if (issues.length) return graphProblems(issues, !!opts.json);
  if (opts.json) console.log(JSON.stringify({ ok: true, issues: [] }));
  else console.error(`${graphPath}: ok`);
  return EXIT.ok;
}

function nodesCommand(opts: Opts): number {
  const registry = createRegistry();
  if (opts.json) {
    const nodes = registry.list().map((n) => ({
      type: n.type,
      version: n.version,
      doc: n.doc,
      inputs: n.inputs,
      outputs: n.outputs,
      params: Object.fromEntries(Object.entries(n.params).map(([k, p]) => [k, { ...p, check: undefined }])),
    }));
    console.log(JSON.stringify(nodes, null, 2));
  } else console.log(opts.markdown ? catalogueMarkdown(registry) : catalogueText(registry));
  return EXIT.ok;
}

async function inspectCommand(file: string, opts: Opts): Promise<number> {
  const graph: GraphFile = {
    version: 1,
    inputs: { file: { type: "string" } },
    nodes: {
      read: { type: "io.read", params: { path: { $input: "file" } } },
      decode: { type: "decode.auto", inputs: { bytes: "read.bytes" } },
      resolve: { type: "constraints.resolve", inputs: { scene: "decode.scene" } },
    },
    outputs: { scene: "resolve.scene" },
  };
  let run;
  try {
    run = await runGraph(graph, { inputs: { file }, cacheDir: false });
  } catch (error) {
    if (!(error instanceof RunError)) throw error;
    const cause = error.failures[0].cause;
    const detail = cause instanceof PartgraphError ? cause.toJSON() : { message: String(cause) };
    if (opts.json) console.log(JSON.stringify({ ok: false, error: detail }));
    else console.error(`error: ${basename(file)}: ${detail.message}`);
    return EXIT.badInput;
  }
  const scene = run.outputs.scene as Document;
  const description = describeScene(scene);
  const decoder = pickDecoder(run.plan.registry, { bytes: await Deno.readFile(file), name: basename(file) });
  const summary = decoder?.describe?.(scene);
  const warnings = run.warnings.map((w) => w.message);
  if (opts.json) console.log(JSON.stringify({ file, ...description, summary, warnings }, null, 2));
  else {
    console.log(`${file}`);
    console.log(renderTree(description));
    if (summary !== undefined) {
      console.log(`${decoder!.format} summary:\n${JSON.stringify(summary, null, 2)}`);
    }
    for (const w of warnings) console.log(`warning: ${w}`);
  }
  return EXIT.ok;
}

async function cacheCommand(action: string, opts: Opts): Promise<number> {
  const maxBytes = opts["max-size"] !== undefined ? parseSize(opts["max-size"]) : DEFAULT_MAX_BYTES;
  const disk = new DiskCache(resolve(opts["cache-dir"] ?? DEFAULT_CACHE_DIR), maxBytes);
  switch (action) {
    case "stats": {
      const stats = await disk.stats();
      if (opts.json) console.log(JSON.stringify(stats));
      else {
        console.log(
          `${stats.dir}: ${stats.actions} actions, ${stats.blobs} blobs, ${mib(stats.bytes)} of ${
            mib(stats.maxBytes)
          }`,
        );
      }
      return EXIT.ok;
    }
    case "prune": {
      const removed = await disk.prune(maxBytes);
      if (opts.json) console.log(JSON.stringify(removed));
      else {console.log(
          `removed ${removed.actions} actions and ${removed.blobs} blobs (${mib(removed.bytes)})`,
        );}
      return EXIT.ok;
    }
    case "clear":
      await disk.clear();
      if (!opts.json) console.log(`cleared ${disk.dir}`);
      return EXIT.ok;
    default:
      throw new UsageError(`unknown cache action '${action}' (stats, prune or clear)`);
  }
}

async function verifyCommand(manifestPath: string, opts: Opts): Promise<number> {
  const recorded = JSON.parse(await Deno.readTextFile(manifestPath)) as Manifest;
  // A verified rebuild never reads a cache; with a remote cache it uploads what it rebuilt, so a
  // trusted verifier seeds the shared cache with results it has just checked.
  const remote = await remoteFromCli(opts);
  // Rebuild inside the output folder (the one place runs may write), in a fresh sub-folder.
  const parent = resolve(opts.out ?? DEFAULT_OUT_DIR);
  await Deno.mkdir(parent, { recursive: true });
  const outDir = await Deno.makeTempDir({ dir: parent, prefix: ".verify-" });
  try {
    const run = await runGraph(recorded.graph.file, {
      inputs: recorded.inputs,
      outDir,
      noCache: !remote,
      refresh: true,
      cacheDir: false,
      remoteCache: remote && new RemoteCache(remote),
    });
    const differences = compareManifests(recorded, await buildManifest(run));
    if (opts.json) console.log(JSON.stringify({ ok: differences.length === 0, differences }));
    else if (differences.length === 0) {
      console.error(`verified: ${Object.keys(recorded.writes).length} files rebuilt identically`);
    } else {for (const d of differences) {
        console.error(
          `differs: ${d.what}: expected ${JSON.stringify(d.expected)}, found ${JSON.stringify(d.found)}`,
        );
      }}
    return differences.length ? EXIT.failed : EXIT.ok;
  } finally {
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
  }
}

async function dotCommand(graphPath: string): Promise<number> {
  const { issues, scope } = await validateScope(await loadGraph(graphPath), createRegistry());
  if (!scope) throw new GraphError(issues);
  console.log(graphToDot(scope).trimEnd());
  return EXIT.ok;
}

async function schemaCommand(opts: Opts): Promise<number> {
  const text = JSON.stringify(graphSchema(createRegistry()), null, 2) + "\n";
  if (opts.out) await atomicWrite(resolve(opts.out), new TextEncoder().encode(text));
  else console.log(text.trimEnd());
  return EXIT.ok;
}

function one(rest: string[], what: string): string {
  if (rest.length !== 1) {
    throw new UsageError(`expected one ${what}, found ${rest.length ? rest.join(" ") : "none"}`);
  }
  return rest[0];
}

function usage(message: string): number {
  console.error(`error: ${message}\n\n${USAGE}`);
  return EXIT.usage;
}

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?)?$/i.exec(text.trim());
  if (!match) throw new UsageError(`--max-size expects a size like 500MB, found '${text}'`);
  const unit = (match[2] ?? "").toLowerCase()[0];
  return Math.round(
    Number(match[1]) * (unit === "k" ? 1024 : unit === "m" ? 1024 ** 2 : unit === "g" ? 1024 ** 3 : 1),
  );
}

function mib(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
