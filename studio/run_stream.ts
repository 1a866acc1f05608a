/**
 * `POST /api/run`: a graph run on the server with the runtime, its events streamed to the page
 * (`text/event-stream`), ending with its outputs and the files it wrote, and `GET /api/output`: the latest run's outputs as the page downloads them.
 *
 * @module
 */
import { basename, extname, resolve } from "node:path";
import { sha256Hex } from "../runtime/canonical.ts";
import { compileGraph, GENERATOR, GraphError, PartgraphError, runGraph } from "../runtime/mod.ts";
import { evaluationOrder } from "../runtime/execute/schedule.ts";
import { writeGlb } from "../runtime/scene/gltf_io.ts";
import { type ApiContext, type EncodedOutput, HttpError } from "./api_context.ts";
import { check, type GraphBody, sourceOf } from "./graph_check.ts";

/**
 * Runs a graph; the response is a `text/event-stream`: `plan` `{nodes, groups, files}` (the flattened
 * ids of every node the run evaluates, so the page can tell a node group done only once all its nodes
 * are; the group files it read from the request; every group file it read, so the page can tell its
 * badges stale once one of them is edited), the runtime's events, then `end` (`outputs`, and the
 * `files` its `io.write` nodes wrote: `{path, size}`).
 */
export function run(ctx: ApiContext, { path, graph, overrides }: GraphBody): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown) =>
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      const started = performance.now();
      // A run that fails leaves no outputs: the last run's must not be served as this one's.
      ctx.lastOutputs.clear();
      try {
        const issues = await check(ctx, path, graph, overrides);
        if (issues.length) throw new GraphError(issues);
        const source = sourceOf(ctx, path, graph, overrides);
        const plan = await compileGraph(source, ctx.registry);
        send("plan", {
          nodes: evaluationOrder(plan).map((node) => node.id),
          groups: await overridesUsed(ctx, plan.files, overrides),
          files: await groupFiles(ctx, plan.files),
        });
        const result = await runGraph(source, {
          registry: ctx.registry,
          outDir: ctx.outDir,
          cacheDir: ctx.cacheDir,
          onEvent: (event) => send(event.event, event),
        });
        ctx.lastOutputs.clear();
        const writtenAs = new Map<string, string>();
        for (const [name, value] of Object.entries(result.outputs)) {
          const encoded = await encodeOutput(name, value);
          const written = writtenWith(encoded, result.writes);
          if (written) writtenAs.set(name, ctx.sandbox.display(resolve(ctx.outDir, written)));
          ctx.lastOutputs.set(name, { ...encoded, file: downloadName(encoded, written, path) });
        }
        const outputs = [...ctx.lastOutputs].map(([name, o]) => ({
          name,
          type: o.type,
          file: o.file,
          // The file the run wrote these bytes as (as displayed): the preview labels the output by it.
          ...(writtenAs.has(name) ? { written: writtenAs.get(name) } : {}),
          size: o.bytes.length,
        }));
        const files = await writtenFiles(ctx, result.writes);
        send("end", { ok: true, ms: Math.round(performance.now() - started), outputs, files });
      } catch (error) {
        const detail = error instanceof PartgraphError ? error.toJSON() : { message: String(error) };
        send("end", { ok: false, ms: Math.round(performance.now() - started), error: detail });
      }
      controller.close();
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
  });
}

/**
 * The files a run wrote (its `io.write` nodes', cached ones included: the runtime checks or restores
 * them), as displayed, with their sizes on disk: a graph with no graph outputs makes only these.
 */
async function writtenFiles(
  ctx: ApiContext,
  writes: readonly { path: string }[],
): Promise<{ path: string; size: number }[]> {
  const files = [];
  for (const { path } of writes) {
    const abs = resolve(ctx.outDir, path);
    const info = await Deno.stat(abs).catch(() => undefined);
    if (info?.isFile) files.push({ path: ctx.sandbox.display(abs), size: info.size });
  }
  return files;
}

/** Every group file a plan read (from disk or from the page's open versions), as displayed. */
async function groupFiles(ctx: ApiContext, files: readonly { file: string }[]): Promise<string[]> {
  const read = new Set<string>();
  for (const { file } of files.slice(1)) {
    read.add(ctx.sandbox.display(await Deno.realPath(file).catch(() => file)));
  }
  return [...read].sort();
}

/** The group files a plan read from the page's open versions rather than from disk, as displayed. */
async function overridesUsed(
  ctx: ApiContext,
  files: readonly { file: string }[],
  overrides: ReadonlyMap<string, string>,
): Promise<string[]> {
  const used = new Set<string>();
  for (const { file } of files.slice(1)) {
    const real = await Deno.realPath(file).catch(() => file);
    if (overrides.has(file) || overrides.has(real)) used.add(ctx.sandbox.display(real));
  }
  return [...used].sort();
}

/** The path (in the output folder) of the file the run wrote with an output's bytes, if it wrote one. */
function writtenWith(
  out: EncodedOutput,
  writes: readonly { path: string; sha256: string }[],
): string | undefined {
  if (out.type !== "bytes") return undefined;
  const digest = sha256Hex(out.bytes);
  return writes.find((w) => w.sha256 === digest)?.path;
}

/**
 * The name an output downloads as: the file the run wrote with the same bytes (`written`:
 * `fighter.rigged.glb`), else, for an exporter's default name (`scene.glb`, which every graph's
 * download was called), the graph's own name with the output's extension; any other name the value
 * carries is kept.
 */
function downloadName(out: EncodedOutput, written: string | undefined, graphPath: string): string {
  if (written) return basename(written);
  const ext = extname(out.file);
  if (basename(out.file, ext) !== "scene") return out.file;
  return `${basename(graphPath, extname(graphPath))}${ext}`;
}

/** A run output as bytes: raw bytes, a scene as GLB, anything else as JSON. */
async function encodeOutput(name: string, value: unknown): Promise<EncodedOutput> {
  if (value && typeof value === "object" && "bytes" in value && value.bytes instanceof Uint8Array) {
    const hint = "name" in value && typeof value.name === "string" ? value.name : name;
    return { bytes: value.bytes, type: "bytes", file: hint };
  }
  if (value && typeof value === "object" && "getRoot" in value) {
    const glb = await writeGlb(value as Parameters<typeof writeGlb>[0], { generator: GENERATOR });
    return { bytes: glb, type: "scene", file: `${name}.glb` };
  }
  return {
    bytes: new TextEncoder().encode(JSON.stringify(value, null, 2)),
    type: "json",
    file: `${name}.json`,
  };
}

/** A run output of the latest run, for download (HTTP 404 when it has none by that name). */
export function output(ctx: ApiContext, name: string): Response {
  const out = ctx.lastOutputs.get(name);
  if (!out) throw new HttpError(404, `no output '${name}' in the latest run`);
  return new Response(out.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": out.type === "json" ? "application/json" : "application/octet-stream",
      "content-disposition": attachment(out.file),
    },
  });
}

/**
 * A `content-disposition` naming the download `file` (RFC 6266): an ASCII `filename` for old
 * clients and the exact name as `filename*` (RFC 8187), so a file named in any script (`модель.glb`)
 * or with quotes or control characters downloads under its name rather than failing the response
 * (a header is bytes: a name outside Latin-1 made it throw, HTTP 500).
 */
export function attachment(file: string): string {
  const ascii = file.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(file).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
