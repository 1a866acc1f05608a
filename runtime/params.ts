/**
 * Parameter checking and defaults, shared by graph validation, the JSON Schema generator and the
 * CLI's `--set` parsing, so all three agree on what a valid value is.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import type { JsonValue, ParamSpec, SocketType } from "./node.ts";
import { tooDeepPath } from "./depth.ts";

/** Deepest nesting a `json` parameter value may have (graph files are bounded at 64 levels in all). */
export const MAX_PARAM_DEPTH = 32;

/**
 * Returns a problem with `value` as a value of `spec`, or undefined when it is fine.
 *
 * @example
 * ```ts
 * checkParam({ type: "number", min: 0, doc: "" }, -1); // "must be >= 0, found -1"
 * ```
 */
export function checkParam(spec: ParamSpec, value: JsonValue): string | undefined {
  switch (spec.type) {
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) {
        return `expected a number, found ${show(value)}`;
      }
      if (spec.integer && !Number.isInteger(value)) return `expected a whole number, found ${value}`;
      if (spec.min !== undefined && value < spec.min) return `must be >= ${spec.min}, found ${value}`;
      if (spec.max !== undefined && value > spec.max) return `must be <= ${spec.max}, found ${value}`;
      return undefined;
    case "string":
      return typeof value === "string" ? undefined : `expected a string, found ${show(value)}`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `expected true or false, found ${show(value)}`;
    case "enum":
      return typeof value === "string" && spec.values.includes(value)
        ? undefined
        : `expected one of ${spec.values.map((v) => JSON.stringify(v)).join(", ")}, found ${show(value)}`;
    case "path":
      // An empty path is a value only where it is the default: the optional path's "none".
      if (typeof value !== "string" || (value === "" && spec.default !== "")) {
        return `expected a file path, found ${show(value)}`;
      }
      if (spec.access === "write" && (isAbsolute(value) || normalize(value).startsWith(".."))) {
        return `write paths stay inside the output directory, found ${show(value)}`;
      }
      if (spec.access === "write" && [".", "./"].includes(normalize(value))) {
        return `write paths name a file, found ${show(value)} (the output directory itself)`;
      }
      return undefined;
    case "json": {
      // Deeper values would overflow the stack of the recursive walks that key and copy them.
      const deep = tooDeepPath(value, MAX_PARAM_DEPTH);
      if (deep) return `nested deeper than ${MAX_PARAM_DEPTH} levels (at ${deep})`;
      return spec.check?.(value);
    }
  }
}

/**
 * Every problem with a set of parameter values against their specs — unknown names, missing
 * required ones, bad values — as `name: problem` lines; empty when they are fine. The same checks
 * graph validation makes, for values that arrive at run time (`ctx.invoke`).
 *
 * @example
 * ```ts
 * checkParams({ scale: { type: "number", min: 0, default: 1, doc: "" } }, { scale: -5 });
 * // ["scale: must be >= 0, found -5"]
 * ```
 */
export function checkParams(
  specs: Readonly<Record<string, ParamSpec>>,
  params: Readonly<Record<string, JsonValue>>,
): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    const spec = specs[name];
    const problem = spec ? checkParam(spec, value) : "no such parameter";
    if (problem) problems.push(`${name}: ${problem}`);
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.default === undefined && params[name] === undefined) problems.push(`${name}: required, not set`);
  }
  return problems;
}

/**
 * Parameter values with every unset (undefined) one taken from its declared default — the one
 * place defaults are applied, for graph nodes (plans) and invoked nodes alike.
 */
export function withDefaults(
  specs: Readonly<Record<string, ParamSpec>>,
  params: Readonly<Record<string, JsonValue>>,
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name] !== undefined ? params[name] : spec.default;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * A graph node's parameters with each read path in its working-folder form
 * ({@link relativeToWorkingFolder}), as plans give them to nodes and keys. Only here: a node that
 * invokes another passes its own spelling on, which its own key holds. `cwd` is the working folder
 * (a plan's compile asks for it once, not once per node).
 *
 * @example
 * ```ts
 * const specs = { path: { type: "path", access: "read", doc: "" } } as const;
 * readPathsRelative(specs, { path: `${Deno.cwd()}/DATA/a.cmp` }); // { path: "DATA/a.cmp" }
 * ```
 */
export function readPathsRelative(
  specs: Readonly<Record<string, ParamSpec>>,
  params: Record<string, JsonValue>,
  cwd: string = Deno.cwd(),
): Record<string, JsonValue> {
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name];
    if (spec.type === "path" && spec.access === "read" && typeof value === "string" && value !== "") {
      params[name] = relativeToWorkingFolder(value, cwd);
    }
  }
  return params;
}

/**
 * `path` relative to the working folder when it lies inside it, else as given. A result that
 * depends on where a file lies (`decode.cmp`'s library search) has the path in its cache key and
 * names what it read the same way, so a tree moved elsewhere — another checkout, another machine
 * sharing the remote cache — finds its results only if its paths name the files the same way there,
 * and has them checked against its own files. Read paths are put in this form however they were
 * spelled (`./DATA//a.cmp`, an absolute path inside the tree).
 *
 * @example
 * ```ts
 * relativeToWorkingFolder("/work/tree/DATA/a.cmp", "/work/tree"); // "DATA/a.cmp"
 * ```
 */
export function relativeToWorkingFolder(path: string, cwd = Deno.cwd()): string {
  const absolute = resolve(cwd, path);
  return insideFolder(cwd, absolute) ?? insideFolder(cwd, physicalPath(absolute)) ?? path;
}

/** `path` relative to `folder` (`.` for the folder itself) when it lies inside it; else undefined. */
function insideFolder(folder: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const inside = relative(folder, path);
  if (inside === "") return "."; // the working folder itself (a glob's base)
  const leaves = inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside); // not `..a.cmp`
  return leaves ? undefined : inside;
}

/**
 * `path` with symbolic links resolved as the working folder's are (a shell's `$PWD` keeps the link it
 * was entered through: macOS's `/tmp` is `/private/tmp`): a folder's whole path, a file's folder (the
 * file itself is left as named). Undefined when its folder does not exist or cannot be read.
 */
function physicalPath(path: string): string | undefined {
  // Only where reading is granted already: a library script with narrower grants is never prompted.
  const granted = (at: string) => Deno.permissions.querySync({ name: "read", path: at }).state === "granted";
  try {
    if (granted(path) && Deno.statSync(path).isDirectory) return Deno.realPathSync(path);
  } catch { /* not there (yet): its folder may be */ }
  try {
    return granted(dirname(path)) ? join(Deno.realPathSync(dirname(path)), basename(path)) : undefined;
  } catch {
    return undefined;
  }
}

/** Returns a problem with `value` as a value of a socket/graph-input type, or undefined. */
export function checkSocketLiteral(type: SocketType, value: JsonValue): string | undefined {
  switch (type) {
    case "string":
    case "number":
    case "boolean":
      return jsTypeOf(value) === type ? undefined : `expected a ${type}, found ${show(value)}`;
    case "json":
      return undefined;
    default:
      // A bytes or scene input can only default to null: absent, for optional sockets.
      return value === null
        ? undefined
        : `a ${type} value cannot be written as a literal (only null: absent)`;
  }
}

/** The socket type a parameter's value has when it comes from a graph input. */
export function paramSocketType(spec: ParamSpec): SocketType {
  switch (spec.type) {
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "json":
      return "json";
    default:
      return "string";
  }
}

/**
 * Parses a command-line value (`--set name=value`) for a given type: numbers and booleans are
 * parsed, JSON is parsed, strings are taken as they are.
 */
export function parseCliValue(type: SocketType, text: string): JsonValue {
  switch (type) {
    case "number": {
      const n = Number(text);
      if (text.trim() === "" || !Number.isFinite(n)) {
        throw new TypeError(`expected a number, found '${text}'`);
      }
      return n;
    }
    case "boolean":
      if (text === "true") return true;
      if (text === "false") return false;
      throw new TypeError(`expected true or false, found '${text}'`);
    case "json":
      try {
        return JSON.parse(text);
      } catch {
        throw new TypeError(`expected JSON, found '${text}'`);
      }
    default:
      return text;
  }
}

/** `typeof`, as a plain string (so it can be compared with socket type names). */
export function jsTypeOf(value: unknown): string {
  return typeof value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? text.slice(0, 57) + "..." : text;
}
