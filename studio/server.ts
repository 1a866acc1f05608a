/**
 * `partgraph studio` — a local web server for the node editor and the 3D preview. It bundles the
 * page's TypeScript (studio/web/) with Deno itself at start-up, so every script the page runs comes
 * from the project and its locked npm dependencies; nothing is fetched from the internet.
 *
 * @example
 * ```ts
 * const studio = await startStudio({ graph: "graphs/aircraft.json", port: 0 });
 * console.log(studio.url);
 * await studio.close();
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRegistry, DEFAULT_CACHE_DIR, DEFAULT_OUT_DIR, type Registry } from "../mod.ts";
import { type ApiContext, handleApi } from "./api.ts";
import { Sandbox } from "./paths.ts";
import { answerAsset, type CachedAsset, cachedAsset } from "./http_cache.ts";
import { answerDecoder, decoderPath } from "./decoders.ts";

/** Options of {@link startStudio}. */
export interface StudioOptions {
  /** Graph file opened first (default: the first file in graphs/). */
  readonly graph?: string;
  /** TCP port; 0 picks a free one (default 8020). */
  readonly port?: number;
  /** Interface to bind (default 127.0.0.1, loopback only). */
  readonly host?: string;
  /** Further folders the page may read and save in. */
  readonly roots?: readonly string[];
  /** Where runs write (default `out`). */
  readonly outDir?: string;
  /** Disk cache of runs (default `.partgraph-cache`); `false` for memory only. */
  readonly cacheDir?: string | false;
  /** Node registry (default: every built-in node). */
  readonly registry?: Registry;
  /**
   * The page's scripts, bundled already ({@link bundlePage}'s files): the browser tests bundle them
   * once for all their files and child processes. Default: studio/web/ bundled once per process.
   */
  readonly page?: PageFiles;
}

/** A running studio. */
export interface Studio {
  /** The page's address, e.g. `http://127.0.0.1:8020/`. */
  readonly url: string;
  /** Stops the server. */
  close(): Promise<void>;
}

const WEB = fileURLToPath(new URL("./web/", import.meta.url));
const STATIC: Record<string, [file: string, type: string]> = {
  "/": ["index.html", "text/html; charset=utf-8"],
  "/style.css": ["style.css", "text/css; charset=utf-8"],
};

/** Starts the studio server. */
export async function startStudio(options: StudioOptions = {}): Promise<Studio> {
  // The project is the working directory: the runtime resolves read paths against it too.
  const project = Deno.cwd();
  const outDir = resolve(project, options.outDir ?? DEFAULT_OUT_DIR);
  const cacheDir = options.cacheDir === false
    ? false
    : resolve(project, options.cacheDir ?? DEFAULT_CACHE_DIR);
  const ctx: ApiContext = {
    sandbox: new Sandbox(project, [...(options.roots ?? []), outDir]),
    outDir,
    cacheDir,
    registry: options.registry ?? createRegistry(),
    startGraph: options.graph,
    lastOutputs: new Map(),
  };
  const page = servedPage(options.page ?? await pageFiles());
  const hostname = options.host ?? "127.0.0.1";
  const loopbackHosts = new Set<string>();
  const server = Deno.serve({ hostname, port: options.port ?? 8020, onListen: () => {} }, async (request) => {
    const refused = foreignRequest(request, LOOPBACK.includes(hostname) ? loopbackHosts : undefined);
    if (refused) return new Response(refused, { status: 403 });
    const url = new URL(request.url);
    if (url.pathname.startsWith("/api/")) return await handleApi(request, url, ctx);
    // HEAD asks for a GET's headers without its body (RFC 9110 §9.3.2): answerAsset leaves it out.
    if (request.method !== "GET" && request.method !== "HEAD") return notFound();
    const script = Object.hasOwn(page, url.pathname) ? page[url.pathname] : undefined;
    if (script) return answerAsset(request, script);
    if (url.pathname.startsWith("/decoders/")) {
      return await answerDecoder(request, url.pathname) ?? notFound();
    }
    const entry = Object.hasOwn(STATIC, url.pathname) ? STATIC[url.pathname] : undefined;
    if (!entry) return notFound();
    // Read on each request, so an edit of the page shows on the next reload (as before); its ETag
    // lets that reload get 304 when nothing changed.
    const bytes = await Deno.readFile(WEB + entry[0]);
    const body = entry[0] === "index.html" ? await withDecoderPath(bytes) : bytes;
    return answerAsset(request, cachedAsset(body, entry[1], "revalidate"));
  });
  const { port } = server.addr as Deno.NetAddr;
  for (const name of ["127.0.0.1", "localhost", "[::1]"]) loopbackHosts.add(`${name}:${port}`);
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return { url: `http://${host}:${port}/`, close: () => server.shutdown() };
}

const LOOPBACK = ["127.0.0.1", "localhost", "::1"];

/** The answer to a path the studio does not serve. */
const notFound = () => new Response("not found", { status: 404 });

/** index.html with the decoders' digest path in its `<meta name="decoders">`, where the page reads it. */
async function withDecoderPath(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const path = await decoderPath();
  return new TextDecoder().decode(bytes).replace(
    '<meta name="decoders" content="/decoders/" />',
    `<meta name="decoders" content="${path}" />`,
  );
}

/**
 * Why a request that another web site made the browser send is refused, if it is one: a loopback
 * server answers only its own host names (no DNS rebinding), and a change (POST) must be JSON from the
 * studio's own origin, which a cross-site form or `fetch` cannot send without a CORS pre-flight.
 */
function foreignRequest(request: Request, hosts: ReadonlySet<string> | undefined): string | undefined {
  // Host names are case-insensitive (RFC 9110 §4.2.3): `LOCALHOST:8020` is this studio. Only the
  // loopback names are accepted, in any case, so no other name (a rebinding attacker's) gets in.
  const host = (request.headers.get("host") ?? "").toLowerCase();
  if (hosts && !hosts.has(host)) return `host '${host}' is not this studio`;
  // GET and HEAD change nothing (HEAD is a GET without its body).
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const origin = request.headers.get("origin");
  if (origin !== null && origin.toLowerCase() !== `http://${host}`) {
    return `origin '${origin}' is not this studio`;
  }
  if (!(request.headers.get("content-type") ?? "").startsWith("application/json")) {
    return "changes must be sent as application/json";
  }
  return undefined;
}

/** The subset of Deno's unstable bundler API the studio uses (`--unstable-bundle`). */
interface Bundler {
  bundle(options: {
    entrypoints: string[];
    platform: "browser";
    write: false;
    minify: boolean;
    format: "esm";
    codeSplitting: boolean;
    outputDir: string;
  }): Promise<
    { success: boolean; errors: { text: string }[]; outputFiles?: { path: string; text(): string }[] }
  >;
}

/**
 * The page's scripts by the path the server serves each at: `/app.js` (what index.html loads) and
 * the chunks it imports, named by a digest of their text (`/preview-XXXXXXXX.js`: the 3D preview
 * and three.js, imported when the first model is shown; `/chunk-XXXXXXXX.js`: modules both use).
 */
export type PageFiles = Readonly<Record<string, string>>;

/** The page's bundle, made once per process (JS module instance): every studio started in it serves it. */
let bundled: Promise<PageFiles> | undefined;

/**
 * The page's scripts, bundled on first use: the studio's browser tests start a studio per test, and
 * bundling was about a second of each. A failed bundle is not kept, so the next start tries again.
 */
function pageFiles(): Promise<PageFiles> {
  bundled ??= bundlePage().catch((error) => {
    bundled = undefined;
    throw error;
  });
  return bundled;
}

/**
 * Bundles studio/web/main.ts (and three.js from node_modules) into the browser scripts the studio
 * serves: `/app.js` and the chunks it imports (see {@link PageFiles}). Needs `--unstable-bundle`.
 */
export async function bundlePage(): Promise<PageFiles> {
  const bundler = Deno as unknown as Partial<Bundler>;
  if (typeof bundler.bundle !== "function") {
    throw new Error(
      "the studio bundles its page with Deno.bundle: run with --unstable-bundle (deno task studio)",
    );
  }
  const result = await bundler.bundle({
    entrypoints: [WEB + "main.ts"],
    platform: "browser",
    write: false,
    // Not minified: a page error's stack names the studio's own functions. Minifying halves the script
    // (1.78 -> 0.87 MB) but saved no page load's CPU measurable on a 2-core machine.
    minify: false,
    // The preview's dynamic import becomes a chunk of its own: three.js and its loaders are two thirds
    // of the script, and a page parsed them on every open though most pages never show a model.
    format: "esm",
    codeSplitting: true,
    // Nothing is written (write: false); the chunks' paths are relative to it.
    outputDir: "/",
  });
  if (!result.success || !result.outputFiles?.length) {
    throw new Error(`bundling the studio page failed: ${result.errors.map((e) => e.text).join("; ")}`);
  }
  const files: Record<string, string> = {};
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf("/") + 1);
    files[name === "main.js" ? "/app.js" : `/${name}`] = file.text();
  }
  if (!files["/app.js"]) {
    throw new Error(`bundling the studio page gave no main.js: ${Object.keys(files).join(", ")}`);
  }
  return files;
}

/**
 * The page's scripts with their cache headers. `/app.js` is revalidated on every load (`no-cache`,
 * with an ETag of its text: a reload gets 304, and chromium can keep its compiled code); a chunk's
 * name carries a digest of its text, so a browser keeps it as it is (`immutable`) until a new
 * bundle, which names its chunks anew.
 */
function servedPage(files: PageFiles): Record<string, CachedAsset> {
  const known = servedOnce.get(files);
  if (known) return known;
  const served: Record<string, CachedAsset> = {};
  servedOnce.set(files, served);
  for (const [path, text] of Object.entries(files)) {
    served[path] = cachedAsset(
      text,
      "text/javascript; charset=utf-8",
      path === "/app.js" ? "revalidate" : "immutable",
    );
  }
  return served;
}

/** Each bundle's scripts as served: a test run starts ~80 studios on one bundle, digested once. */
const servedOnce = new WeakMap<PageFiles, Record<string, CachedAsset>>();

const USAGE =
  `partgraph studio [graph.json] [--port N] [--host ADDR] [--root DIR]... [--out DIR] [--cache-dir DIR]

Serves the node editor and 3D preview at http://127.0.0.1:8020/ (loopback only unless --host).
The page may read and save only inside the project, --out and each --root.`;

/** `partgraph studio` entry point; resolves with the exit code once the server stops. */
export async function studioMain(args: string[]): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        root: { type: "string", multiple: true },
        out: { type: "string" },
        "cache-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 8020 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || positionals.length > 1) {
    console.error(`expected at most one graph file and --port 0-65535\n\n${USAGE}`);
    return 2;
  }
  if (values.host && !LOOPBACK.includes(values.host)) {
    console.error(
      `WARNING: --host ${values.host}: the studio is reachable from the network. Anyone who can reach it ` +
        "can read and overwrite graph files in the project and the --root folders, and run graphs.",
    );
  }
  const studio = await startStudio({
    graph: positionals[0],
    port,
    host: values.host,
    roots: values.root,
    outDir: values.out,
    cacheDir: values["cache-dir"],
  });
  console.log(`partgraph studio: ${studio.url}`);
  await new Promise<void>((done) => Deno.addSignalListener("SIGINT", done));
  await studio.close();
  return 0;
}

if (import.meta.main) Deno.exit(await studioMain(Deno.args));
