/**
 * The CLI commands that run graphs: `run` (and `run --watch`) and `verify`.
 *
 * @module
 */
import { resolve } from "node:path";
import { runGraph, watchGraph } from "../mod.ts";
import { DEFAULT_CACHE_DIR, DEFAULT_OUT_DIR, loadGraph } from "../runtime/api.ts";
import { GraphError, RunError } from "../runtime/errors.ts";
import type { GraphFile } from "../runtime/graph.ts";
import { humanProgress, ndjsonProgress } from "../runtime/progress.ts";
import { buildManifest, compareManifests, type Manifest } from "../runtime/manifest.ts";
import { RemoteCache } from "../runtime/cache/remote.ts";
import { atomicWrite } from "../runtime/fs.ts";
import type { EventSink } from "../runtime/events.ts";
import {
  consoleOnStderrWhile,
  EXIT,
  graphProblems,
  inRebuildFolder,
  type Opts,
  parseSets,
  remoteFromCli,
  requireWriteAccess,
  verifyVerdict,
} from "./shared.ts";

/** `run`: builds a graph's outputs, with progress, a summary and an optional manifest. */
export async function runCommand(graphPath: string, opts: Opts): Promise<number> {
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
    const run = await consoleOnStderrWhile(opts.json, () =>
      runGraph(source, {
        inputs,
        outDir,
        cacheDir: cacheDir ?? false,
        noCache: opts["no-cache"],
        // Without a cache only a manifest and the JSON summary show digests: hash no model for nothing.
        fileDigests: Boolean(opts.manifest || opts.json),
        remoteCache: remote && new RemoteCache(remote),
        onEvent,
        // The CLI prints no output values: load them only for a manifest, which digests them.
        outputs: opts.manifest ? undefined : [],
      }));
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
    // A build whose inputs must be clean: the outputs are written, and the exit status says they warned.
    const warned = opts["fail-on-warning"] && run.warnings.length > 0;
    const refusal = `${run.warnings.length} warning(s), and warnings fail this run (--fail-on-warning)`;
    if (opts.json) {
      console.log(JSON.stringify(warned ? { ...summary, ok: false, error: { message: refusal } } : summary));
    } else if (!opts.quiet) {
      for (const w of run.warnings) if (!onEvent) console.error(`warning: ${w.id}: ${w.message}`);
      for (const w of run.writes) console.error(`wrote ${resolve(outDir, w.path)}`);
      console.error(`${states.length} nodes (${cached} cached) in ${summary.ms} ms`);
    }
    if (warned && !opts.json) console.error(`error: ${refusal}`);
    return warned ? EXIT.failed : EXIT.ok;
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
    fileDigests: false, // watching needs the paths read, not their digests
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

/**
 * `verify` of a run's manifest (`verify.ts` reads it): rebuilds what it records, in a fresh folder
 * inside the output folder, and compares.
 */
export async function verifyManifest(recorded: Manifest, opts: Opts): Promise<number> {
  // A verified rebuild never reads a cache; with a remote cache it uploads what it rebuilt, so a
  // trusted verifier seeds the shared cache with results it has just checked.
  const remote = await remoteFromCli(opts);
  const differences = await inRebuildFolder(opts, async (outDir) => {
    const run = await runGraph(recorded.graph.file, {
      inputs: recorded.inputs,
      outDir,
      noCache: !remote,
      refresh: true,
      cacheDir: false,
      remoteCache: remote && new RemoteCache(remote),
    });
    return compareManifests(recorded, await buildManifest(run));
  });
  return verifyVerdict(differences, `${Object.keys(recorded.writes).length} files rebuilt identically`, opts);
}
