/**
 * The inputs of a batch: `--each NAME=<glob>` or `--each NAME=@list.txt` expanded into files, each
 * with its path relative to a base folder (which names its output folder and decides its shard).
 *
 * Globs: `*` and `?` within one path segment, `**` for any number of segments, `{a,b}` alternatives
 * and `[…]` character classes. The base is the pattern's leading segments without wildcards, so
 * `ships/**\/*.cmp` lists every `.cmp` under `ships/` relative to `ships/`. A list file names one path
 * per line (relative to the list's folder; blank lines and `#` comments skipped), and its base is
 * the deepest folder holding every listed file.
 *
 * @module
 */
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { notUtf8Hint } from "../runtime/fs.ts";

/** One input of a batch. */
export interface BatchInput {
  /** The path the graph input is given (as the glob or list spelled it, relative to the working directory). */
  readonly path: string;
  /** The path relative to the batch's base folder, with `/` separators: output folder and shard key. */
  readonly rel: string;
}

/** An expanded `--each`. */
export interface BatchSelection {
  /** The graph input each path is given to. */
  readonly name: string;
  /** The base folder (as given, relative to the working directory when the pattern was). */
  readonly base: string;
  /** Every input, sorted by `rel`. */
  readonly inputs: readonly BatchInput[];
  /**
   * Files the glob matches only ignoring case (`SHIP.CMP` for `*.cmp`), by `rel`: not inputs — globs
   * match case as written, as shells do — but worth a warning, as game trees from Windows mix cases.
   */
  readonly caseOnly?: readonly string[];
  /**
   * Folders the glob could not walk into (no permission, a name that is not UTF-8), by `rel`, with
   * why: files in them may have been inputs, so a batch warns of each.
   */
  readonly unread?: readonly { readonly rel: string; readonly reason: string }[];
}

/** A malformed `--each` or one that matches nothing. */
export class SelectionError extends Error {}

/**
 * Expands `NAME=<glob | @list.txt>`. A glob does not walk into the folders of `skip` (relative to
 * `cwd`): a batch passes its output and cache folders, so that `**\/*.glb` run again does not take
 * the first run's outputs for inputs. A list names its files itself, and is taken as it is.
 *
 * @example
 * ```ts
 * const { inputs } = await expandEach("model=ships/**\/*.cmp", Deno.cwd(), ["out"]);
 * ```
 */
export async function expandEach(
  spec: string,
  cwd: string = Deno.cwd(),
  skip: readonly string[] = [],
): Promise<BatchSelection> {
  const eq = spec.indexOf("=");
  if (eq <= 0 || eq === spec.length - 1) {
    throw new SelectionError(
      `--each expects NAME=<glob>, NAME=@list.txt or NAME=@- (stdin), found '${spec}'`,
    );
  }
  const name = spec.slice(0, eq);
  const pattern = spec.slice(eq + 1);
  const selection = pattern.startsWith("@")
    ? await fromList(name, pattern.slice(1), cwd)
    : await fromGlob(name, pattern, cwd, new Set(skip.map((folder) => resolve(cwd, folder))));
  if (!selection.inputs.length) {
    const caseOnly = selection.caseOnly ?? [];
    throw new SelectionError(
      `--each ${spec}: no file matches` +
        (caseOnly.length ? ` (${caseOnly.length} would ignoring case: ${caseOnlyHint(caseOnly)})` : ""),
    );
  }
  refuseSharedFolders(selection);
  return selection;
}

/**
 * What to say of files a glob matches only ignoring case: the first, and how to take them too.
 *
 * @example
 * ```ts
 * caseOnlyHint(["SHIP.CMP"]); // "'SHIP.CMP'; globs match case as written: add the other spelling, e.g. '*.{cmp,CMP}'"
 * ```
 */
export function caseOnlyHint(rels: readonly string[]): string {
  const ext = extname(rels[0]).slice(1) || "cmp";
  return `'${rels[0]}'${rels.length > 1 ? ` and ${rels.length - 1} more` : ""}; globs match case as ` +
    `written: add the other spelling, e.g. '*.{${ext.toLowerCase()},${ext.toUpperCase()}}'`;
}

/** The folder under the batch's output folder that an input's outputs go to: its `rel` without extension. */
export function outputFolder(input: BatchInput): string {
  return input.rel.slice(0, input.rel.length - extname(input.rel).length);
}

/**
 * Throws a {@link SelectionError} when two inputs would write to one output folder, which would
 * leave one input's outputs overwritten by the other's: `ship.cmp` beside `ship.3db`, or names that
 * differ only in case (one folder on Windows and macOS, where such a tree usually comes from).
 *
 * @example
 * ```ts
 * refuseSharedFolders({ name: "model", base: ".", inputs: [{ path: "a.cmp", rel: "a.cmp" }] }); // fine
 * ```
 */
export function refuseSharedFolders(selection: BatchSelection): void {
  const byFolder = new Map<string, string[]>();
  for (const input of selection.inputs) {
    const key = outputFolder(input).toLowerCase();
    byFolder.set(key, [...byFolder.get(key) ?? [], input.rel]);
  }
  const shared = [...byFolder.values()].filter((rels) => rels.length > 1);
  if (!shared.length) return;
  const listed = shared.slice(0, 5).map((rels) => rels.map((rel) => `'${rel}'`).join(" and "));
  const more = shared.length > 5 ? `, and ${shared.length - 5} more` : "";
  throw new SelectionError(
    `--each ${selection.name}: inputs would write to the same output folder (the path without its ` +
      `extension, whatever its case): ${listed.join("; ")}${more}. Select one of each, or batch them ` +
      `separately with different --out folders`,
  );
}

async function fromGlob(
  name: string,
  pattern: string,
  cwd: string,
  skip: ReadonlySet<string>,
): Promise<BatchSelection> {
  const segments = pattern.split(/[\\/]+/);
  const firstWild = segments.findIndex(isWild);
  if (firstWild < 0) {
    // A plain path: one input, relative to its own folder.
    const info = await Deno.stat(resolve(cwd, pattern)).catch(() => undefined);
    const base = dirname(pattern);
    return {
      name,
      base,
      inputs: info?.isFile ? [{ path: pattern, rel: posix(relative(base, pattern)) }] : [],
    };
  }
  const base = segments.slice(0, firstWild).join("/") || ".";
  const compile = (flags: string) =>
    segments.slice(firstWild).map((s) => s === "**" ? "**" as const : segmentRegex(s, flags));
  // The walk matches ignoring case, so that files only a case-blind match would take are seen and named.
  const matchers = compile("i"), exact = compile("");
  const found: BatchInput[] = [], caseOnly: string[] = [];
  const unread: { rel: string; reason: string }[] = [];
  const walk = async (dir: string, relParts: string[], at: number[]) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(resolve(cwd, dir)));
    } catch (error) {
      // The base missing is no match; a folder inside it that cannot be read may hold inputs.
      if (relParts.length) {
        const reason = (error instanceof Deno.errors.NotFound && notUtf8Hint(dir)) ||
          (error as Error).message;
        unread.push({ rel: relParts.join("/"), reason });
      }
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      const next = advance(matchers, at, entry.name);
      if (!next.length) continue;
      const path = join(dir, entry.name);
      // A symbolic link to a file is that file (an asset tree linking models from a game's install);
      // links to folders are not followed, so that a loop cannot make the walk endless.
      const isFile = entry.isFile ||
        (entry.isSymlink && (await Deno.stat(resolve(cwd, path)).catch(() => undefined))?.isFile === true);
      if (!isFile && !entry.isDirectory) continue;
      const rel = [...relParts, entry.name];
      if (isFile && next.includes(matchers.length)) {
        if (matchesAll(exact, rel)) found.push({ path, rel: rel.join("/") });
        else caseOnly.push(rel.join("/"));
      }
      if (entry.isDirectory && !skip.has(resolve(cwd, path))) {
        await walk(path, rel, next.filter((i) => i < matchers.length));
      }
    }
  };
  await walk(base, [], closure(matchers, [0]));
  return {
    name,
    base,
    inputs: found.sort((a, b) => a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0),
    caseOnly: caseOnly.sort(),
    unread,
  };
}

/** Whether the path segments `parts` match all of `matchers`. */
function matchesAll(matchers: Matcher[], parts: readonly string[]): boolean {
  let at = closure(matchers, [0]);
  for (const part of parts) at = advance(matchers, at, part);
  return at.includes(matchers.length);
}

type Matcher = RegExp | "**";

/** Pattern positions reachable from `at` without consuming a segment (a `**` may match none). */
function closure(matchers: Matcher[], at: number[]): number[] {
  const out = new Set<number>();
  const stack = [...at];
  while (stack.length) {
    const i = stack.pop()!;
    if (out.has(i)) continue;
    out.add(i);
    if (matchers[i] === "**") stack.push(i + 1);
  }
  return [...out].sort((a, b) => a - b);
}

/** Positions after matching one path segment `name` from positions `at`. */
function advance(matchers: Matcher[], at: number[], name: string): number[] {
  const next: number[] = [];
  for (const i of at) {
    const m = matchers[i];
    if (m === undefined) continue;
    if (m === "**") {
      if (!name.startsWith(".")) next.push(i); // ** stays, consuming this segment (hidden folders skipped)
    } else if (m.test(name)) next.push(i + 1);
  }
  return closure(matchers, next);
}

function isWild(segment: string): boolean {
  return /[*?[{]/.test(segment);
}

/** A regular expression for one glob segment (`flags`: `"i"` to ignore case). */
function segmentRegex(segment: string, flags = ""): RegExp {
  let out = "";
  let braces = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = segment.slice(i + 1, end).replace(/\\/g, "\\\\");
        out += body.startsWith("!") ? `[^${body.slice(1)}]` : `[${body}]`;
        i = end;
      }
    } else if (c === "{") {
      braces++;
      out += "(?:";
    } else if (c === "}" && braces) {
      braces--;
      out += ")";
    } else if (c === "," && braces) out += "|";
    else out += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  if (braces) throw new SelectionError(`unclosed '{' in glob segment '${segment}'`);
  // A leading * or ? does not match hidden files, as in shells.
  return new RegExp(`^${/^[*?[]/.test(segment) ? "(?!\\.)" : ""}${out}$`, flags);
}

/** Reads a list of paths, `@-` from stdin (`find … | partgraph batch … --each model=@-`). */
async function fromList(name: string, listPath: string, cwd: string): Promise<BatchSelection> {
  const stdin = listPath === "-";
  if (stdin && Deno.stdin.isTerminal()) {
    throw new SelectionError(
      `--each ${name}=@- reads the list from stdin, which is a terminal: pipe a list in`,
    );
  }
  let text: string;
  try {
    text = stdin
      ? await new Response(Deno.stdin.readable).text()
      : await Deno.readTextFile(resolve(cwd, listPath));
  } catch (error) {
    throw new SelectionError(
      `--each ${name}=@${listPath}: cannot read the list (${(error as Error).message})`,
    );
  }
  const listDir = stdin ? "." : dirname(listPath); // stdin's paths are relative to the working folder
  const paths = [
    ...new Set(
      text.replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"))
        .map((l) => isAbsolute(l) ? l : join(listDir, l)),
    ),
  ];
  for (const path of paths) {
    const info = await Deno.stat(resolve(cwd, path)).catch(() => undefined);
    if (!info?.isFile) throw new SelectionError(`--each ${name}=@${listPath}: '${path}' is not a file`);
  }
  const base = commonFolder(paths.map((p) => resolve(cwd, p)));
  const shownBase = isAbsolute(listPath) ? base : relative(cwd, base) || ".";
  const inputs = paths.map((path) => ({ path, rel: posix(relative(base, resolve(cwd, path))) }));
  return { name, base: shownBase, inputs: inputs.sort((a, b) => a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0) };
}

/** The deepest folder holding every path. */
function commonFolder(paths: string[]): string {
  let common = dirname(paths[0]).split(sep);
  for (const path of paths.slice(1)) {
    const parts = dirname(path).split(sep);
    let i = 0;
    while (i < common.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}

function posix(path: string): string {
  return path.split(sep).join("/");
}
