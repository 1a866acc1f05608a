/**
 * The CLI commands that look into files: `inspect`, `cache` and `dot`.
 *
 * @module
 */
import { basename, resolve } from "node:path";
import type { Document } from "@gltf-transform/core";
import { createRegistry, pickDecoder, runGraph } from "../mod.ts";
import { DEFAULT_CACHE_DIR, loadGraph } from "../runtime/api.ts";
import { GraphError, PartgraphError, RunError } from "../runtime/errors.ts";
import type { GraphFile } from "../runtime/graph.ts";
import { DEFAULT_MAX_BYTES, DiskCache } from "../runtime/cache/disk.ts";
import { describeScene, renderTree } from "../runtime/inspect.ts";
import { graphToDot } from "../runtime/dot.ts";
import { validateScope } from "../runtime/validate.ts";
import { EXIT, type Opts, UsageError } from "./shared.ts";

/**
 * What `inspect` runs on a file (input `file`): read, `decode.auto` (with decoder `options`),
 * `constraints.resolve`.
 */
export const INSPECT_GRAPH: GraphFile = {
  version: 1,
  inputs: { file: { type: "string" }, options: { type: "json", default: {} } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "file" } } },
    decode: {
      type: "decode.auto",
      inputs: { bytes: "read.bytes" },
      params: { options: { $input: "options" } },
    },
    resolve: { type: "constraints.resolve", inputs: { scene: "decode.scene" } },
  },
  outputs: { scene: "resolve.scene" },
};

/** `inspect`: decodes a model and prints its node tree and its format's summary. */
export async function inspectCommand(file: string, opts: Opts): Promise<number> {
  // A decoder that looks for files beside the model (decode.cmp's library search) is told where it is.
  const registry = createRegistry();
  const bytes = await Deno.readFile(file).catch(() => undefined);
  const picked = bytes && pickDecoder(registry, { bytes, name: basename(file) });
  const options: Record<string, string> = picked && "model_path" in (registry.get(picked.node)?.params ?? {})
    ? { model_path: file }
    : {};
  let run;
  try {
    run = await runGraph(INSPECT_GRAPH, { inputs: { file, options }, cacheDir: false, registry });
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

/** `cache stats|prune|clear`. */
export async function cacheCommand(action: string, opts: Opts): Promise<number> {
  const maxBytes = opts["max-size"] !== undefined ? parseSize(opts["max-size"]) : DEFAULT_MAX_BYTES;
  const disk = new DiskCache(resolve(opts["cache-dir"] ?? DEFAULT_CACHE_DIR), maxBytes);
  switch (action) {
    case "stats": {
      const stats = await disk.stats();
      if (opts.json) console.log(JSON.stringify(stats));
      else {
        console.log(
          `${stats.dir}: ${stats.actions} actions, ${stats.blobs} blobs, ${stats.files} file digests, ` +
            `${mib(stats.bytes)} of ${mib(stats.maxBytes)}`,
        );
      }
      return EXIT.ok;
    }
    case "prune": {
      const removed = await disk.prune(maxBytes);
      if (opts.json) console.log(JSON.stringify(removed));
      else {console.log(
          `removed ${removed.actions} actions, ${removed.blobs} blobs (${mib(removed.bytes)}) and ` +
            `${removed.files} file digests it could no longer trust (the file gone or changed, or hashed ` +
            `within 2 s of a change)`,
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

/** `dot`: the graph as Graphviz DOT. */
export async function dotCommand(graphPath: string): Promise<number> {
  const { issues, scope } = await validateScope(await loadGraph(graphPath), createRegistry());
  if (!scope) throw new GraphError(issues);
  console.log(graphToDot(scope).trimEnd());
  return EXIT.ok;
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
