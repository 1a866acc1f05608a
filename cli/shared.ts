/**
 * What the CLI's commands share: exit codes, usage errors, options, `--set` parsing, the
 * write-access check, the printing of graph problems and the remote cache options.
 *
 * @module
 */
import { basename, resolve } from "node:path";
import type { GraphIssue } from "../runtime/errors.ts";
import type { GraphFile } from "../runtime/graph.ts";
import { parseCliValue } from "../runtime/params.ts";
import {
  DEFAULT_REMOTE_TIMEOUT_MS,
  type RemoteCacheOptions,
  withoutCredentials,
} from "../runtime/cache/remote.ts";
import { DEFAULT_OUT_DIR } from "../runtime/api.ts";
import type { ManifestDifference } from "../runtime/manifest.ts";
import { EXIT, UsageError } from "./exit.ts";
import { suggestName } from "../runtime/validate/suggest.ts";

export { EXIT, UsageError };

/** Parsed command-line options. */
export type Opts =
  & {
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
  }
  & BatchOptions
  & RemoteCliOptions;

/** Options of `batch`. */
export interface BatchOptions {
  each?: string;
  jobs?: string;
  shard?: string;
  "fail-fast"?: boolean;
  "fail-on-warning"?: boolean;
  timeout?: string;
  merge?: boolean;
  processes?: boolean;
  workers?: boolean;
  "max-heap"?: string;
}

/**
 * Fails early, with the command that would work, when Deno was not granted write access to the
 * places a run writes: the alternative is a node failing half-way with a bare permission error.
 */
export async function requireWriteAccess(dirs: string[]): Promise<void> {
  const denied: string[] = [];
  for (const dir of dirs) {
    const { state } = await Deno.permissions.query({ name: "write", path: resolve(dir) });
    if (state !== "granted") denied.push(dir);
  }
  if (denied.length) {
    throw new UsageError(
      `no write access to ${denied.map((d) => `'${d}'`).join(" and ")}; grant exactly these folders:\n` +
        rerunWith(`--allow-read --allow-write=${dirs.join(",")}`),
      false,
    );
  }
}

/**
 * The command line that runs this command again with `permissions` (credentials in it hidden), each
 * argument quoted for a POSIX shell where it needs to be, so a glob or a path with spaces pastes as
 * it was given.
 */
export function rerunWith(permissions: string): string {
  const args = Deno.args.map((arg) => shellWord(withoutCredentials(arg)));
  return `  deno run --frozen ${permissions} cli/main.ts ${args.join(" ")}`;
}

/** `word` as a POSIX shell reads it back: as it is when nothing in it is special, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Parses `--set name=value` against the graph's declared input types. A `bytes` input takes a file
 * path and is given that file's contents.
 */
export async function parseSets(sets: string[], graph: GraphFile): Promise<Record<string, unknown>> {
  const inputs: Record<string, unknown> = {};
  for (const set of sets) {
    const eq = set.indexOf("=");
    if (eq <= 0) throw new UsageError(`--set expects name=value, found '${set}'`);
    const name = set.slice(0, eq);
    const decl = graph?.inputs?.[name];
    if (!decl) {
      const names = Object.keys(graph?.inputs ?? {});
      const known = names.join(", ") || "none";
      throw new UsageError(
        `--set ${name}: the graph has no input '${name}'${suggestName(name, names)} (inputs: ${known})`,
      );
    }
    const text = set.slice(eq + 1);
    // A JSON habit (json inputs need the quotes) would make the quotes part of a string's value.
    if (decl.type === "string" && quotedString(text)) {
      console.error(
        `hint: --set ${name}: a string input takes the text as it is, quotes included; ` +
          `without them: --set ${name}=${JSON.parse(text)}`,
      );
    }
    if (decl.type === "scene") {
      throw new UsageError(`--set ${name}: scene inputs can only be given from the API`);
    }
    try {
      inputs[name] = decl.type === "bytes"
        ? { bytes: await Deno.readFile(text), name: basename(text) }
        : parseCliValue(decl.type, text);
    } catch (error) {
      throw new UsageError(`--set ${name}: ${error instanceof Error ? error.message : error}`);
    }
  }
  return inputs;
}

/** Whether `text` is a JSON string literal, quotes and all. */
function quotedString(text: string): boolean {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return false;
  try {
    return typeof JSON.parse(text) === "string";
  } catch {
    return false;
  }
}

/** Prints a graph's problems (text on stderr, or JSON on stdout); returns the exit code. */
export function graphProblems(issues: GraphIssue[], json: boolean): number {
  if (json) console.log(JSON.stringify({ ok: false, issues }));
  else {
    console.error(`graph has ${issues.length} problem(s):`);
    for (const i of issues) {
      console.error(`  ${i.file ? basename(i.file) + " " : ""}${i.path || "/"}: [${i.kind}] ${i.message}`);
    }
  }
  return EXIT.invalidGraph;
}

/** Remote cache settings from the command line and the environment. */
export interface RemoteCliOptions {
  "remote-cache"?: string;
  "remote-cache-read-only"?: boolean;
  "remote-cache-timeout"?: string;
}

/**
 * The remote cache a command should use: `--remote-cache URL`, else `PARTGRAPH_REMOTE_CACHE`; a
 * header (e.g. `Authorization: Bearer …`) from `PARTGRAPH_REMOTE_CACHE_HEADER`. Fails early, with
 * the command that would work, when Deno was not granted access to that host.
 */
export async function remoteFromCli(
  opts: RemoteCliOptions,
): Promise<Omit<RemoteCacheOptions, "onWarning"> | undefined> {
  const url = opts["remote-cache"] ?? env("PARTGRAPH_REMOTE_CACHE");
  if (!url) return undefined;
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    throw new UsageError(`--remote-cache expects an http(s) URL, found '${withoutCredentials(url)}'`);
  }
  const { state } = await Deno.permissions.query({ name: "net", host });
  if (state !== "granted") {
    throw new UsageError(
      `the remote cache needs network access to ${host}; grant exactly that host:\n` +
        rerunWith(`--allow-read --allow-write=out,.partgraph-cache --allow-net=${host}`),
      false,
    );
  }
  const headers: Record<string, string> = {};
  const header = env("PARTGRAPH_REMOTE_CACHE_HEADER");
  if (header) {
    const colon = header.indexOf(":");
    if (colon <= 0) throw new UsageError("PARTGRAPH_REMOTE_CACHE_HEADER expects 'Name: value'");
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  const seconds = opts["remote-cache-timeout"];
  const timeoutMs = seconds === undefined ? DEFAULT_REMOTE_TIMEOUT_MS : Number(seconds) * 1000;
  if (!(timeoutMs > 0)) throw new UsageError(`--remote-cache-timeout expects seconds, found '${seconds}'`);
  return { url, readOnly: opts["remote-cache-read-only"] ?? false, headers, timeoutMs };
}

/**
 * An environment variable, or undefined when unset or not readable under the granted permissions.
 * Asked first, so that on a terminal Deno does not stop every run with a prompt for a variable most
 * users never set (the remote cache's are opt-in: `--allow-env`, see the README).
 */
function env(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") return undefined;
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a manifest file given on the command line: its JSON value once `problemOf` finds nothing
 * wrong with its shape, else a {@link UsageError} naming the file (and the field, as `problemOf`
 * words it) — a file of the wrong kind is the user's mistake, not a crash.
 */
export async function readManifestFile<T>(
  path: string,
  kind: string,
  problemOf: (value: unknown) => string | undefined,
): Promise<T> {
  let value: unknown;
  try {
    value = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    throw new UsageError(`cannot read manifest '${path}': ${(error as Error).message}`, false);
  }
  const problem = problemOf(value);
  if (problem) throw new UsageError(`'${path}' is not a ${kind}: ${problem}`, false);
  return value as T;
}

/**
 * Runs `rebuild` with a fresh folder inside the output folder (`--out`, the one place runs may
 * write), removed afterwards whatever happens: where `verify` rebuilds what a manifest records.
 */
export async function inRebuildFolder<T>(opts: Opts, rebuild: (dir: string) => Promise<T>): Promise<T> {
  const parent = resolve(opts.out ?? DEFAULT_OUT_DIR);
  await Deno.mkdir(parent, { recursive: true });
  const dir = await Deno.makeTempDir({ dir: parent, prefix: ".verify-" });
  try {
    return await rebuild(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Prints what `verify` found (`--json`: one object) and gives its exit code. */
export function verifyVerdict(
  differences: readonly ManifestDifference[],
  verified: string,
  opts: Opts,
): number {
  if (opts.json) console.log(JSON.stringify({ ok: differences.length === 0, differences }));
  else if (differences.length === 0) console.error(`verified: ${verified}`);
  else {
    for (const d of differences) {
      console.error(
        `differs: ${d.what}: expected ${JSON.stringify(d.expected)}, found ${JSON.stringify(d.found)}`,
      );
    }
  }
  return differences.length ? EXIT.failed : EXIT.ok;
}

/**
 * Runs `work` with `console.log`, `info` and `debug` sent to stderr when `json` is set: beside
 * `--json`, stdout carries the command's JSON alone, and what a node prints while it runs goes to
 * stderr (the command prints its own JSON through a `console.log` taken before, or after `work`).
 */
export async function consoleOnStderrWhile<T>(json: boolean | undefined, work: () => Promise<T>): Promise<T> {
  if (!json) return await work();
  const { log, info, debug } = console;
  console.log = console.info = console.debug = console.error;
  try {
    return await work();
  } finally {
    Object.assign(console, { log, info, debug });
  }
}
