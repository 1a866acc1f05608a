/**
 * The studio's HTTP API: catalogue, graph files (list, open, check, save), runs with a live event
 * stream, run outputs, and files inside the sandbox. Every check and run goes through the runtime's
 * public API, so the page shows exactly what `partgraph check` and `partgraph run` would.
 *
 * @module
 */
import { dirname, extname, join, resolve } from "node:path";
import {
  type AnyNodeDef,
  checkGraph,
  compileGraph,
  GENERATOR,
  GraphError,
  type GraphFile,
  type GraphIssue,
  PartgraphError,
  type Registry,
  runGraph,
  SOCKET_TYPES,
  type WarningEvent,
} from "../runtime/mod.ts";
import { graphFromObject, type GraphSource } from "../runtime/graph.ts";
import { evaluationOrder } from "../runtime/execute/schedule.ts";
import { loadModule } from "../runtime/modules.ts";
import { writeGlb } from "../runtime/scene/gltf_io.ts";
import { atomicWrite } from "../runtime/fs.ts";
import { uneditable } from "./editable.ts";
import { formatGraph } from "./format.ts";
import { PathRefused, type Sandbox } from "./paths.ts";
import { BadOverrides, readOverrides } from "./overrides.ts";
import { modelPreviewGraph } from "./preview_graph.ts";
import { readsOutside } from "./reads.ts";
import { readGroupSockets, readGroupsSockets, sourceSockets } from "./signature.ts";
import { groupUsers } from "./users.ts";

/** What the API needs: the sandbox, where runs write and cache, the node registry. */
export interface ApiContext {
  readonly sandbox: Sandbox;
  readonly outDir: string;
  readonly cacheDir: string | false;
  readonly registry: Registry;
  /** The graph named on the command line, opened first. */
  readonly startGraph?: string;
  /** Outputs of the latest run, by name, for download and preview. */
  readonly lastOutputs: Map<string, EncodedOutput>;
}

/** A run output as the page downloads it. */
export interface EncodedOutput {
  readonly bytes: Uint8Array;
  readonly type: "bytes" | "scene" | "json";
  readonly file: string;
}

/** A page request that cannot be served, with its HTTP status. */
class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Handles one `/api/...` request. */
export async function handleApi(request: Request, url: URL, ctx: ApiContext): Promise<Response> {
  try {
    const route = `${request.method} ${url.pathname}`;
    switch (route) {
      case "GET /api/catalogue":
        return json({ types: SOCKET_TYPES, nodes: ctx.registry.list().map(describeNode) });
      case "GET /api/graphs":
        return json(await listGraphs(ctx));
      case "GET /api/graph":
        return json(await openGraph(ctx, url.searchParams.get("path") ?? ""));
      case "GET /api/exists": {
        const abs = await ctx.sandbox.resolve(url.searchParams.get("path") ?? "");
        const exists = await Deno.lstat(abs).then(() => true, () => false);
        return json({ path: ctx.sandbox.display(abs), exists });
      }
      case "GET /api/users":
        return json(await groupUsers(ctx.sandbox, url.searchParams.get("path") ?? ""));
      case "POST /api/check":
        return json(await liveCheck(ctx, await graphBody(request, ctx)));
      case "POST /api/save": {
        const saved = await save(ctx, await request.json());
        return saved instanceof Response ? saved : json(saved);
      }
      case "POST /api/run":
        return run(ctx, await graphBody(request, ctx));
      case "GET /api/output":
        return output(ctx, url.searchParams.get("name") ?? "");
      case "GET /api/file":
        return await file(ctx, url.searchParams.get("path") ?? "");
      case "GET /api/model":
        return await model(ctx, url.searchParams.get("path") ?? "");
      default:
        throw new HttpError(404, `no such API: ${route}`);
    }
  } catch (error) {
    if (error instanceof HttpError) return json({ error: error.message }, error.status);
    if (error instanceof BadOverrides) return json({ error: error.message }, 400);
    if (error instanceof PathRefused) return json({ error: error.message }, 403);
    if (error instanceof PartgraphError) return json({ error: error.message, detail: error.toJSON() }, 422);
    if (error instanceof SyntaxError) {
      return json({ error: `request is not valid JSON: ${error.message}` }, 400);
    }
    return json({ error: error instanceof Error ? error.message : String(error) }, 500);
  }
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** A node definition as plain JSON for the page (the same facts `partgraph nodes` prints). */
function describeNode(node: AnyNodeDef) {
  return {
    type: node.type,
    version: node.version,
    doc: node.doc,
    inputs: node.inputs,
    outputs: node.outputs,
    params: node.params,
  };
}

async function listGraphs(ctx: ApiContext) {
  const dir = await ctx.sandbox.resolve("graphs");
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".json")) files.push(ctx.sandbox.display(join(dir, entry.name)));
  }
  files.sort();
  const start = ctx.startGraph ? ctx.sandbox.display(await ctx.sandbox.resolve(ctx.startGraph)) : files[0];
  return { files, start };
}

async function openGraph(ctx: ApiContext, path: string) {
  const abs = await ctx.sandbox.resolve(path);
  const text = await Deno.readTextFile(abs).catch((error) => {
    throw new HttpError(404, `cannot read '${path}': ${error.message}`);
  });
  let graph: unknown;
  try {
    graph = JSON.parse(text);
  } catch (error) {
    throw new HttpError(422, `'${path}' is not valid JSON: ${(error as Error).message}`);
  }
  const shape = uneditable(graph);
  if (shape.length) {
    const problems = shape.map((issue) => `${issue.path || "/"}: ${issue.message}`).join("; ");
    throw new HttpError(422, `cannot draw '${path}' as a graph (fix it in a text editor): ${problems}`);
  }
  const confined = graph && typeof graph === "object" &&
    !(await modulesOutside(ctx, abs, graph as GraphFile)).length;
  const signature = confined ? await readGroupSockets(abs, ctx.registry) : undefined;
  const nodes = confined ? await moduleNodes(abs, graph as GraphFile) : [];
  // Its groups' files are confined too when it is (the check above follows them).
  const groups = confined
    ? await readGroupsSockets(graph as GraphFile, dirname(abs), (p) => ctx.sandbox.resolve(p), ctx.registry)
    : {};
  return { path: ctx.sandbox.display(abs), graph, signature, nodes, groups };
}

/**
 * The node types a graph's own `modules` declare, described as the catalogue describes built-ins:
 * the page draws their sockets and parameters from these. The modules are the ones the live check
 * loads anyway (already confined to the sandbox); one that fails to load is left to the check.
 */
async function moduleNodes(abs: string, graph: GraphFile) {
  const nodes = [];
  for (const module of Array.isArray(graph.modules) ? graph.modules : []) {
    if (typeof module !== "string") continue;
    const loaded = await loadModule(dirname(abs), module).catch(() => undefined);
    nodes.push(...(loaded?.plugin.nodes ?? []).map(describeNode));
  }
  return nodes;
}

/** A check's or run's request: the graph, where it lives, and the open versions of its group files. */
interface GraphBody {
  /** Where the graph lives (its relative paths resolve there), resolved in the sandbox. */
  readonly path: string;
  readonly graph: GraphFile;
  /** Group files' texts as open in the page, by real path, read in place of the files. */
  readonly overrides: ReadonlyMap<string, string>;
}

/** Reads `{path, graph, groups?}` (`groups`: see `overrides.ts`). */
async function graphBody(request: Request, ctx: ApiContext): Promise<GraphBody> {
  const body = await request.json();
  if (!body || typeof body !== "object" || typeof body.graph !== "object" || body.graph === null) {
    throw new HttpError(400, "expected {path, graph}");
  }
  return {
    path: await ctx.sandbox.resolve(body.path),
    graph: body.graph as GraphFile,
    overrides: await readOverrides(body.groups, ctx.sandbox),
  };
}

/** The graph as a runtime source; its node groups read from `overrides` first. */
function sourceOf(ctx: ApiContext, path: string, graph: GraphFile, overrides: ReadonlyMap<string, string>) {
  const source = graphFromObject(graph, dirname(path), ctx.sandbox.display(path));
  return overrides.size ? { ...source, overrides } : source;
}

/**
 * The runtime's own validation, plus the sandbox rules for custom node modules and read paths. A read
 * path outside the sandbox is reported beside the validator's issues, not only once there are none.
 */
async function check(
  ctx: ApiContext,
  path: string,
  graph: GraphFile,
  overrides: ReadonlyMap<string, string> = new Map(),
): Promise<GraphIssue[]> {
  const outside = await modulesOutside(ctx, path, graph, overrides);
  return outside.length ? outside : await checkConfined(ctx, sourceOf(ctx, path, graph, overrides));
}

/** {@link check} of a graph whose group files and modules are known to lie inside the sandbox. */
async function checkConfined(ctx: ApiContext, source: GraphSource): Promise<GraphIssue[]> {
  const issues = await checkGraph(source, { registry: ctx.registry });
  return [...issues, ...await readsOutside(ctx.sandbox, source, ctx.registry, !issues.length)];
}

/**
 * The page's live check: the issues, and the sockets the editor draws, from the same open versions
 * of the group files — the graph's own as a node group (`signature`: the page gives it to every group
 * node that runs this file) and each group's it uses (`groups`, by `graph` field; null for one with
 * issues). So a socket added or removed in an unsaved group is on its nodes exactly when the check and
 * a run see it. No sockets when a group file or module lies outside the sandbox (none is read).
 */
async function liveCheck(ctx: ApiContext, { path, graph, overrides }: GraphBody) {
  const outside = await modulesOutside(ctx, path, graph, overrides);
  if (outside.length) return { issues: outside };
  const source = sourceOf(ctx, path, graph, overrides);
  const inside = (p: string) => ctx.sandbox.resolve(p);
  return {
    issues: await checkConfined(ctx, source),
    signature: await sourceSockets(source, ctx.registry),
    groups: await readGroupsSockets(graph, dirname(path), inside, ctx.registry, overrides),
  };
}

/**
 * Node group files and custom node modules (which run code) must lie inside the sandbox, in this graph
 * and in every group it includes, before the runtime reads or imports any of them.
 */
async function modulesOutside(
  ctx: ApiContext,
  path: string,
  graph: GraphFile,
  overrides: ReadonlyMap<string, string> = new Map(),
  seen = new Set<string>(),
): Promise<GraphIssue[]> {
  const issues: GraphIssue[] = [];
  if (seen.has(path)) return issues; // a cycle: the validator reports it
  seen.add(path);
  const file = ctx.sandbox.display(path);
  const inside = async (relative: unknown, at: string): Promise<string | undefined> => {
    try {
      return await ctx.sandbox.resolve(resolve(dirname(path), String(relative)));
    } catch (error) {
      if (!(error instanceof PathRefused)) throw error;
      issues.push({ kind: "invalid_graph", path: at, message: error.message, file });
    }
  };
  for (const [i, module] of (Array.isArray(graph.modules) ? graph.modules : []).entries()) {
    await inside(module, `/modules/${i}`);
  }
  const nodes = graph.nodes && typeof graph.nodes === "object" ? Object.entries(graph.nodes) : [];
  for (const [id, node] of nodes) {
    if (node?.type !== "graph" || typeof node.graph !== "string") continue;
    const group = await inside(node.graph, `/nodes/${id.replaceAll("~", "~0")}/graph`);
    const text = group && (overrides.get(group) ?? await Deno.readTextFile(group).catch(() => undefined));
    let json: unknown;
    try {
      json = text === undefined ? undefined : JSON.parse(text);
    } catch {
      continue; // not JSON: the validator reports it
    }
    if (json && typeof json === "object") {
      issues.push(...await modulesOutside(ctx, group!, json as GraphFile, overrides, seen));
    }
  }
  return issues;
}

/**
 * Writes a graph file. With `create: true` (a new node group's file) an existing file is never
 * replaced: the answer is HTTP 409 `{error, exists: true}` and the page asks before saving again
 * without it. The new file is created exclusively (`createNew`), so no other writer's file is lost
 * between a check and the write.
 */
async function save(ctx: ApiContext, body: { path?: unknown; graph?: unknown; create?: unknown }) {
  if (typeof body?.path !== "string" || !body.path.endsWith(".json")) {
    throw new HttpError(400, "save needs a path ending in .json");
  }
  if (!body.graph || typeof body.graph !== "object") throw new HttpError(400, "save needs a graph object");
  const abs = await ctx.sandbox.resolve(body.path);
  const text = formatGraph(body.graph);
  if (body.create === true) {
    try {
      await Deno.writeFile(abs, new TextEncoder().encode(text), { createNew: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      return json({ error: `${ctx.sandbox.display(abs)} exists`, exists: true }, 409);
    }
  } else await atomicWrite(abs, new TextEncoder().encode(text));
  const issues = await check(ctx, abs, body.graph as GraphFile);
  return { path: ctx.sandbox.display(abs), bytes: text.length, issues };
}

/**
 * Runs a graph; the response is a `text/event-stream`: `plan` `{nodes, groups, files}` (the flattened
 * ids of every node the run evaluates, so the page can tell a node group done only once all its nodes
 * are; the group files it read from the request; every group file it read, so the page can tell its
 * badges stale once one of them is edited), the runtime's events, then `end`.
 */
function run(ctx: ApiContext, { path, graph, overrides }: GraphBody): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown) =>
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      const started = performance.now();
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
        for (const [name, value] of Object.entries(result.outputs)) {
          ctx.lastOutputs.set(name, await encodeOutput(name, value));
        }
        const outputs = [...ctx.lastOutputs].map(([name, o]) => ({
          name,
          type: o.type,
          file: o.file,
          size: o.bytes.length,
        }));
        send("end", { ok: true, ms: Math.round(performance.now() - started), outputs });
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

function output(ctx: ApiContext, name: string): Response {
  const out = ctx.lastOutputs.get(name);
  if (!out) throw new HttpError(404, `no output '${name}' in the latest run`);
  return new Response(out.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": out.type === "json" ? "application/json" : "application/octet-stream",
      "content-disposition": `attachment; filename="${out.file.replace(/["\\]/g, "_")}"`,
    },
  });
}

async function file(ctx: ApiContext, path: string): Promise<Response> {
  const abs = await ctx.sandbox.resolve(path);
  const bytes = await Deno.readFile(abs).catch((error) => {
    throw new HttpError(404, `cannot read '${path}': ${error.message}`);
  });
  return new Response(bytes, { headers: { "content-type": "application/octet-stream" } });
}

/** The most warnings a preview response carries (in a header, which clients cap in size). */
const MAX_PREVIEW_WARNINGS = 50;

/**
 * A preview's warnings (a texture its library lacks, a part left unresolved) as response headers:
 * `x-partgraph-warnings`, the first {@link MAX_PREVIEW_WARNINGS} as a URI-encoded JSON array of
 * `"node: message"`, and `x-partgraph-warning-count`, how many there were.
 */
function warningHeaders(warnings: readonly WarningEvent[]): Record<string, string> {
  const lines = warnings.slice(0, MAX_PREVIEW_WARNINGS).map((w) => `${w.id}: ${w.message}`);
  return {
    "x-partgraph-warnings": encodeURIComponent(JSON.stringify(lines)),
    "x-partgraph-warning-count": String(warnings.length),
  };
}

/** Any model file as a GLB: glTF/GLB as is, other formats decoded (and resolved) by the runtime. */
async function model(ctx: ApiContext, path: string): Promise<Response> {
  const abs = await ctx.sandbox.resolve(path);
  if (extname(abs).toLowerCase() === ".glb") return await file(ctx, abs);
  try {
    const result = await runGraph(await modelPreviewGraph(abs, (dir) => ctx.sandbox.contains(dir)), {
      registry: ctx.registry,
      cacheDir: ctx.cacheDir,
      outDir: ctx.outDir,
    });
    const glb = result.outputs.glb as { bytes: Uint8Array };
    return new Response(glb.bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": "model/gltf-binary", ...warningHeaders(result.warnings) },
    });
  } catch (error) {
    if (error instanceof GraphError) throw new HttpError(422, error.message);
    throw error;
  }
}
