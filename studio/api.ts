/**
 * The studio's HTTP API: catalogue, graph files (list, open, check, save), runs with a live event
 * stream, run outputs, and files inside the sandbox. Every check and run goes through the runtime's
 * public API, so the page shows exactly what `partgraph check` and `partgraph run` would.
 *
 * @module
 */
import { dirname, extname, isAbsolute, join } from "node:path";
import {
  type AnyNodeDef,
  GraphError,
  type GraphFile,
  PartgraphError,
  runGraph,
  SOCKET_TYPES,
  type WarningEvent,
} from "../runtime/mod.ts";
import { loadModule } from "../runtime/modules.ts";
import { unreadable } from "./unreadable.ts";
import { type ApiContext, HttpError } from "./api_context.ts";
import { readJsonBody } from "./body.ts";
import { uneditable } from "./editable.ts";
import { refuseHidden, refuseUnservedFile } from "./file_rules.ts";
import { type GraphBody, liveCheck, modulesOutside } from "./graph_check.ts";
import { PathRefused } from "./paths.ts";
import { BadOverrides, readOverrides } from "./overrides.ts";
import { modelPreviewGraph } from "./preview_graph.ts";
import { output, run } from "./run_stream.ts";
import { tooLargeToPreview } from "./web/preview_limit.ts";
import { exists, fileDigest, save, type SaveBody } from "./save_file.ts";
import { readGroupSockets, readGroupsSockets } from "./signature.ts";
import { groupUsers } from "./users.ts";

export type { ApiContext, EncodedOutput } from "./api_context.ts";

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
        return json(
          await openGraph(ctx, url.searchParams.get("path") ?? "", url.searchParams.get("sockets") !== "0"),
        );
      case "GET /api/exists":
        return json(await exists(ctx, url.searchParams.get("path") ?? ""));
      case "GET /api/users":
        return json(await groupUsers(ctx.sandbox, url.searchParams.get("path") ?? ""));
      case "POST /api/check":
        return json(await liveCheck(ctx, await graphBody(request, ctx)));
      case "POST /api/save": {
        const saved = await save(ctx, await readJsonBody(request) as SaveBody);
        return "error" in saved ? json(saved, 409) : json(saved);
      }
      case "POST /api/run":
        return run(ctx, await graphBody(request, ctx));
      case "GET /api/output":
        return output(ctx, url.searchParams.get("name") ?? "");
      case "GET /api/file":
        return await file(ctx, url.searchParams.get("path") ?? "");
      case "GET /api/model":
        return await model(ctx, url.searchParams.get("path") ?? "", url.searchParams.get("decode") === "1");
      default: {
        const allowed = ROUTES.filter((r) => r.endsWith(` ${url.pathname}`)).map((r) => r.split(" ")[0]);
        if (!allowed.length) throw new HttpError(404, `no such API: ${route}`);
        return json(
          { error: `${url.pathname} takes ${allowed.join(", ")}, not ${request.method}` },
          405,
          { allow: allowed.join(", ") },
        );
      }
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

/** Every route `handleApi` serves, for HTTP 405's `Allow` when a path is asked with another method. */
const ROUTES = [
  "GET /api/catalogue",
  "GET /api/graphs",
  "GET /api/graph",
  "GET /api/exists",
  "GET /api/users",
  "POST /api/check",
  "POST /api/save",
  "POST /api/run",
  "GET /api/output",
  "GET /api/file",
  "GET /api/model",
];

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
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

/**
 * The picker's graph files: the `.json` files of the project's `graphs/` folder (none when it has no
 * such folder: a project started elsewhere, a folder of models), and the graph to open first.
 */
async function listGraphs(ctx: ApiContext) {
  const dir = await ctx.sandbox.resolve("graphs");
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".json")) {
        files.push(ctx.sandbox.display(join(dir, entry.name)));
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) throw error;
  }
  files.sort();
  const start = ctx.startGraph ? ctx.sandbox.display(await ctx.sandbox.resolve(ctx.startGraph)) : files[0];
  return { files, start };
}

/**
 * A graph file as the page opens it. `sockets`: with its own sockets as a node group (`signature`),
 * which takes validating it; the page opening a file to show it passes `sockets=0`, as the live
 * check it sends next validates it anyway (a 20,000-node graph's open validated it three times).
 */
async function openGraph(ctx: ApiContext, path: string, sockets = true) {
  const abs = await ctx.sandbox.resolve(path);
  refuseHidden(ctx, abs, "opening a graph");
  if (extname(abs).toLowerCase() !== ".json") {
    throw new HttpError(403, `opening a graph refused: '${ctx.sandbox.display(abs)}' is not a .json file`);
  }
  const bytes = await Deno.readFile(abs).catch((error) => {
    throw new HttpError(404, `cannot read '${path}': ${error.message}`);
  });
  const text = new TextDecoder().decode(bytes);
  let graph: unknown;
  try {
    graph = JSON.parse(text);
  } catch (error) {
    // A merge half done or a save cut short says so (and where), not just "Unexpected token '<'".
    const why = unreadable(bytes)?.reason ?? `is not valid JSON: ${(error as Error).message}`;
    throw new HttpError(422, `'${path}' ${why}`);
  }
  const shape = uneditable(graph);
  if (shape.length) {
    const problems = shape.map((issue) => `${issue.path || "/"}: ${issue.message}`).join("; ");
    throw new HttpError(422, `cannot draw '${path}' as a graph (fix it in a text editor): ${problems}`);
  }
  const confined = graph && typeof graph === "object" &&
    !(await modulesOutside(ctx, abs, graph as GraphFile)).length;
  const signature = confined && sockets ? await readGroupSockets(abs, ctx.registry) : undefined;
  const nodes = confined ? await moduleNodes(abs, graph as GraphFile) : [];
  // Its groups' files are confined too when it is (the check above follows them).
  const groups = confined
    ? await readGroupsSockets(graph as GraphFile, dirname(abs), (p) => ctx.sandbox.resolve(p), ctx.registry)
    : {};
  // The digest of the bytes opened: Save sends it back, and is refused when the file changed since.
  const digest = fileDigest(bytes);
  return { path: ctx.sandbox.display(abs), graph, signature, nodes, groups, digest };
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

/** Reads `{path, graph, groups?}` (`groups`: see `overrides.ts`). */
async function graphBody(request: Request, ctx: ApiContext): Promise<GraphBody> {
  const body = await readJsonBody(request) as Record<string, unknown> | null;
  if (!body || typeof body !== "object" || typeof body.graph !== "object" || body.graph === null) {
    throw new HttpError(400, "expected {path, graph}");
  }
  return {
    path: await ctx.sandbox.resolve(body.path as string),
    graph: body.graph as GraphFile,
    overrides: await readOverrides(body.groups, ctx.sandbox),
  };
}

/** A file the page downloads or previews; only those {@link refuseUnservedFile} lets through. */
async function file(ctx: ApiContext, path: string): Promise<Response> {
  const abs = await ctx.sandbox.resolve(path);
  await refuseUnservedFile(ctx, abs);
  const bytes = await Deno.readFile(abs).catch((error) => {
    throw new HttpError(404, `cannot read '${path}': ${error.message}`);
  });
  return new Response(bytes, { headers: { "content-type": "application/octet-stream" } });
}

/** The most warnings a preview response carries (in a header, which clients cap in size). */
const MAX_PREVIEW_WARNINGS = 50;

/**
 * The most characters of one preview warning: a warning quoting a file's 10 KB name is cut, so that
 * 50 of them stay well under the 256 KB of headers chromium accepts (past it, the whole preview fails).
 */
const MAX_WARNING_CHARS = 400;

/** `line` cut to {@link MAX_WARNING_CHARS}, saying how long it was. */
function clip(line: string): string {
  return line.length <= MAX_WARNING_CHARS
    ? line
    : `${line.slice(0, MAX_WARNING_CHARS)}… (${line.length} characters)`;
}

/**
 * A preview's warnings (a texture its library lacks, a part left unresolved) as response headers:
 * `x-partgraph-warnings`, the first {@link MAX_PREVIEW_WARNINGS} as a URI-encoded JSON array of
 * `"node: message"`, and `x-partgraph-warning-count`, how many there were.
 */
function warningHeaders(warnings: readonly WarningEvent[]): Record<string, string> {
  const lines = warnings.slice(0, MAX_PREVIEW_WARNINGS).map((w) => clip(`${w.id}: ${w.message}`));
  return {
    "x-partgraph-warnings": encodeURIComponent(JSON.stringify(lines)),
    "x-partgraph-warning-count": String(warnings.length),
  };
}

/**
 * Any model file as a GLB: a GLB as is, other formats decoded (and resolved) by the runtime. With
 * `decode` a GLB is decoded by the runtime too: the page asks so when three.js cannot load the file
 * as it is, to show the runtime's typed error (format, offset, expected and found) or the model as
 * the runtime reads it (a glTF 1.0 GLB, say).
 */
async function model(ctx: ApiContext, path: string, decode = false): Promise<Response> {
  const abs = await ctx.sandbox.resolve(path);
  refuseHidden(ctx, abs, "preview");
  const stat = await Deno.stat(abs).catch(() => undefined);
  if (!stat?.isFile) {
    // A typo, or a path given from another folder: said in the user's own terms, not as the OS error
    // on the absolute path ("No such file or directory (os error 2): readfile '/home/…'").
    // The project folder is named only for a relative path: for an absolute one (pasted from a file
    // manager) it was noise that read as if the path had been taken as relative.
    const relative = isAbsolute(path)
      ? ""
      : ` (a path is relative to the project folder, ${ctx.sandbox.roots[0]})`;
    throw new HttpError(
      404,
      `${ctx.sandbox.display(abs)} ${stat ? "is a folder, not a model file" : "does not exist"}${relative}`,
    );
  }
  const tooLarge = tooLargeToPreview(ctx.sandbox.display(abs), stat.size);
  if (tooLarge) throw new HttpError(413, tooLarge);
  if (extname(abs).toLowerCase() === ".glb" && !decode) return await file(ctx, abs);
  if (await isGraphFile(abs)) {
    // A graph is not a model: the decoder's "unrecognised bytes" sent the user hunting for damage.
    throw new HttpError(
      422,
      `${ctx.sandbox.display(abs)} is a graph file, not a model: open it in the node editor (pick it, ` +
        "or type its path beside Open), then Run it and preview its outputs",
    );
  }
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

/**
 * True when `abs` is a partgraph graph file: JSON whose `nodes` is an object of nodes each naming its
 * `type` (a glTF's `nodes` is an array; a report's `nodes` may be a count), or no nodes at `version` 1.
 */
async function isGraphFile(abs: string): Promise<boolean> {
  if (extname(abs).toLowerCase() !== ".json") return false;
  try {
    const json = JSON.parse(await Deno.readTextFile(abs));
    const nodes = json?.nodes;
    if (!nodes || typeof nodes !== "object" || Array.isArray(nodes) || "asset" in json) return false;
    const values = Object.values(nodes);
    return values.length
      ? values.every((n) =>
        !!n && typeof n === "object" && typeof (n as { type?: unknown }).type === "string"
      )
      : json.version === 1;
  } catch {
    return false; // not JSON: the decoders say what it is
  }
}
