/**
 * Resolution of DSON references against an ordered list of content roots, with lazy loading and a
 * per-run cache of parsed files. **No path outside the content roots is ever read**: a reference
 * whose path climbs out (`..`) is refused with a {@link DecodeError}, and a symbolic link that
 * leads out of its root is treated as missing. Files are read only through `ctx.readFile`, so the
 * runtime records them for cache invalidation. Missing content is a warning naming the URI and is
 * listed in {@link ContentLibrary.unresolved}; the decode carries on with what it has.
 *
 * @module
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import type { CodecIO } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { warnCountMismatches } from "./counts.ts";
import { type DsonEntry, type DsonFile, indexDsonFile } from "./dson_file.ts";
import { JsonReader } from "./read_json.ts";
import { parseDsonBytes } from "./text.ts";
import { fileKey, parseDsonUri, percentDecode, sameNameKey } from "./uri.ts";

/** How {@link ContentLibrary.miss} warns. */
export interface MissOptions {
  /** Only record it, for a caller that warns in its own words. */
  readonly quiet?: boolean;
  /**
   * Warn once per URI and reason, not per URI: a consequence the URI's first warning does not say
   * (a graft left unmerged because its conforming target is missing; before decode.dson v39 it was
   * swallowed by the target's own warning).
   */
  readonly distinct?: boolean;
}

/**
 * Parsed JSON by the byte array it came from. The runtime hands every node of a run the same
 * array for the same file, so this shares parsing across the decode nodes of one run (a figure
 * referenced by several scenes is parsed once) and forgets it with the run's arrays. Parsed values
 * are never mutated.
 */
const PARSED_BY_BYTES = new WeakMap<Uint8Array, Promise<unknown>>();

/** A reference that could not be resolved, as reported to the user and kept in the scene extras. */
export interface UnresolvedReference {
  /** The URI as written. */
  uri: string;
  /** Why it did not resolve. */
  reason: string;
  /** Where it was written: file and JSON pointer. */
  file: string;
  path: string;
}

/** A resolved reference. */
export interface Resolved {
  readonly entry: DsonEntry;
}

/**
 * Turns a decoded DSON file path into a path relative to a content root, refusing any that could
 * leave it (`..` segments, NUL bytes).
 *
 * @example
 * ```ts
 * contentRelativePath("/data/DAZ 3D/G9.dsf"); // "data/DAZ 3D/G9.dsf"
 * contentRelativePath("/data/../../etc/passwd"); // throws
 * ```
 */
export function contentRelativePath(decodedPath: string, where?: { file?: string; path: string }): string {
  const segments = decodedPath.replaceAll("\\", "/").split("/").filter((s) => s !== "" && s !== ".");
  if (segments.some((s) => s === ".." || s.includes("\0")) || segments.length === 0) {
    throw new DecodeError({
      format: "dson",
      at: { jsonPath: where?.path || "/" },
      expected:
        "a content-root relative file path without '..' segments (references may not leave the content roots)",
      found: JSON.stringify(decodedPath),
      file: where?.file,
    });
  }
  return segments.join("/");
}

/**
 * Finds and loads the files DSON references point at, once per run.
 *
 * @example
 * ```ts
 * const library = new ContentLibrary(["/home/me/Daz"], ctx, sceneFile);
 * const hip = await library.resolve("/data/G9/G9.dsf#hip", sceneFile, "/scene/nodes/1/url");
 * ```
 */
export class ContentLibrary {
  /** References that did not resolve, in the order they were met. */
  readonly unresolved: UnresolvedReference[] = [];
  readonly #roots: readonly string[];
  readonly #ctx: CodecIO;
  readonly #files = new Map<string, Promise<DsonFile | undefined>>();
  readonly #warned = new Set<string>();
  /** Referenced files not found, by file key: said once each by {@link reportMissingFiles}. */
  readonly #missingFiles = new Map<string, MissingFile>();
  readonly #afterMissingFiles: (() => void)[] = [];
  /** The file being decoded; `#id` references with no path fall back to it. */
  readonly main: DsonFile;

  constructor(roots: readonly string[], ctx: CodecIO, main: DsonFile) {
    this.#roots = roots;
    this.#ctx = ctx;
    this.main = main;
    this.#files.set(main.key, Promise.resolve(main));
  }

  /**
   * Resolves a URI written in `from` at JSON pointer `at`: the entry it names, or undefined after a
   * warning. Throws only for a path that would leave the content roots.
   */
  async resolve(uri: string, from: DsonFile, at: string): Promise<Resolved | undefined> {
    const parts = parseDsonUri(uri);
    if (parts.filePath === "") {
      const entry = lookupId(from, parts.id) ?? lookupId(this.main, parts.id);
      if (entry) return { entry };
      this.miss(uri, `no id '${parts.id}' in this file`, from, at);
      return undefined;
    }
    const file = await this.load(parts.filePath, from, at, uri);
    if (!file) return undefined;
    const entry = lookupId(file, parts.id);
    if (entry) return { entry };
    this.miss(uri, `no id '${parts.id}' in ${file.source}`, from, at);
    return undefined;
  }

  /** Loads a referenced file by its decoded path (cached per run), or undefined after a warning. */
  load(filePath: string, from: DsonFile, at: string, uri = filePath): Promise<DsonFile | undefined> {
    const relativePath = contentRelativePath(filePath, { file: from.source, path: at });
    const key = fileKey(relativePath);
    let pending = this.#files.get(key);
    if (!pending) {
      pending = this.#read(relativePath, key);
      this.#files.set(key, pending);
    }
    return pending.then((file) => {
      if (!file) {
        const reason = this.#roots.length === 0
          ? "no content roots given (set the content_roots parameter)"
          : `not found in the content roots (${this.#roots.join(", ")})`;
        this.#missFile(key, uri, reason, from, at);
      }
      return file;
    });
  }

  /**
   * Records a reference into a file that is not there, counted under the file: a scene saved over a
   * figure that is not installed names it once per bone, and 40 props on it are 40 references more.
   */
  #missFile(key: string, uri: string, reason: string, from: DsonFile, at: string): void {
    this.unresolved.push({ uri, reason, file: from.source, path: at });
    let missing = this.#missingFiles.get(key);
    if (!missing) {
      missing = { uri, reason, file: from.source, path: at, ids: new Set(), references: new Set() };
      this.#missingFiles.set(key, missing);
    }
    missing.references.add(`${from.source}\u0000${at}\u0000${uri}`);
    const id = parseDsonUri(uri).id;
    if (id) missing.ids.add(id);
  }

  /**
   * Warns once per referenced file not found (since decode.dson v40; before, once per URI: a scene
   * over a figure that is not installed gave a warning per bone and morph id): the first reference,
   * why, and, when there are more, how many and the first few ids they name.
   */
  reportMissingFiles(): void {
    const unsaid = [...this.#missingFiles.values()].filter((missing) => !missing.said);
    // With no content roots every referenced file is missing for that one reason: said once.
    const groups = this.#roots.length === 0 && unsaid.length ? [unsaid] : unsaid.map((missing) => [missing]);
    for (const group of groups) {
      const [first] = group;
      const references = group.reduce((sum, missing) => sum + missing.references.size, 0);
      const ids = group.flatMap((missing) => [...missing.ids]);
      const more = group.length > 1
        ? `; ${references} references into ${group.length} files are unresolved (${
          fewIds(group.map((m) => m.uri))
        })`
        : references > 1
        ? `; ${references} references into this file are unresolved (ids ${fewIds(ids)})`
        : "";
      for (const missing of group) missing.said = true;
      if (this.#warned.has(first.uri)) continue;
      this.#warned.add(first.uri);
      this.#ctx.warn(`dson: unresolved reference '${first.uri}': ${first.reason}${more}`, {
        uri: first.uri,
        file: first.file,
        path: first.path,
      });
    }
    for (const say of this.#afterMissingFiles.splice(0)) say();
  }

  /** Runs `say` after the next {@link reportMissingFiles}'s warnings: a consequence said after its cause. */
  afterMissingFiles(say: () => void): void {
    this.#afterMissingFiles.push(say);
  }

  /**
   * Finds the file's bytes (an image, say) in the content roots; undefined when missing.
   */
  async readContent(filePath: string, from: DsonFile, at: string): Promise<Uint8Array | undefined> {
    const relativePath = contentRelativePath(filePath, { file: from.source, path: at });
    for (const root of this.#roots) {
      const path = await findInRoot(root, relativePath, this.#ctx);
      if (path) return await this.#ctx.readFile(path);
    }
    this.miss(
      filePath,
      this.#roots.length === 0 ? "no content roots given" : "not found in the content roots",
      from,
      at,
    );
    return undefined;
  }

  /**
   * Records and warns (once per URI) about something that is not there; `quiet` only records it,
   * for a caller that warns in its own words.
   */
  miss(uri: string, reason: string, from: DsonFile, at: string, options: MissOptions = {}): void {
    this.missIn(uri, reason, from.source, at, options);
  }

  /** {@link miss} at JSON pointer `at` of the file read from `source`. */
  missIn(uri: string, reason: string, source: string, at: string, options: MissOptions = {}): void {
    this.unresolved.push({ uri, reason, file: source, path: at });
    const once = options.distinct ? `${uri}\u0000${reason}` : uri;
    if (options.quiet || this.#warned.has(once)) return;
    this.#warned.add(once);
    this.#ctx.warn(`dson: unresolved reference '${uri}': ${reason}`, { uri, file: source, path: at });
  }

  /**
   * Warns (once per message) that what sits at JSON pointer `path` of `from` was read other than as
   * written: `what` says how. The decode carries on with the repaired reading.
   */
  repaired(from: DsonFile, path: string, what: string): void {
    this.repairedIn(from.source, path, what);
  }

  /** {@link repaired} for the file read from `source` (a JSON reader's repair sink, say). */
  repairedIn(source: string, path: string, what: string): void {
    const message = `dson: ${source} at ${path || "/"}: ${what}`;
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.#ctx.warn(message, { file: source, path: path || "/" });
  }

  async #read(relativePath: string, key: string): Promise<DsonFile | undefined> {
    for (const root of this.#roots) {
      const path = await findInRoot(root, relativePath, this.#ctx);
      if (!path) continue;
      const bytes = await this.#ctx.readFile(path);
      let parsed = PARSED_BY_BYTES.get(bytes);
      if (!parsed) {
        parsed = parseDsonBytes(bytes, path, (message) => this.#ctx.warn(message));
        PARSED_BY_BYTES.set(bytes, parsed);
      }
      const json = await parsed;
      const read = new JsonReader(path, (at, what) => this.repairedIn(path, at, what));
      const file = indexDsonFile(json, read, key, path);
      warnCountMismatches(json, read);
      return file;
    }
    return undefined;
  }
}

/** A referenced file not found, and the references into it (see `ContentLibrary.reportMissingFiles`). */
interface MissingFile extends UnresolvedReference {
  /** The ids the references name, in the order met. */
  readonly ids: Set<string>;
  /** Each reference once (its file, JSON pointer and URI). */
  readonly references: Set<string>;
  said?: boolean;
}

/** The first five quoted, and how many more. */
function fewIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).map((id) => `'${id}'`).join(", ");
  return ids.length > 5 ? `${shown} and ${ids.length - 5} more` : shown;
}

/**
 * The entry a decoded id names. References are percent-decoded before lookup, but some files store
 * an id still encoded (`"id": "Base%20Female"`), so an encoded id that decodes to it also matches.
 */
function lookupId(file: DsonFile, id: string): DsonEntry | undefined {
  const exact = file.ids.get(id);
  if (exact) return exact;
  for (const [stored, entry] of file.ids) {
    if (stored.includes("%") && percentDecode(stored) === id) return entry;
  }
  return undefined;
}

/**
 * The path of `relativePath` inside `root` (exact case first, then a walk ignoring case and Unicode
 * normalisation, since Windows-authored references do not match Linux file names), or undefined. A
 * match whose real path leaves the root (a symbolic link pointing out) is ignored.
 */
async function findInRoot(root: string, relativePath: string, ctx: CodecIO): Promise<string | undefined> {
  if (!inside(root, join(root, relativePath))) return undefined;
  // Walk with ctx.listDir, so the cache knows which folders were searched: a result that missed a
  // file is recomputed once the file is installed.
  let dir = root;
  for (const segment of relativePath.split("/")) {
    const names = await ctx.listDir(dir);
    // Else another case, or the other Unicode form: content copied from a Mac keeps the decomposed
    // names HFS+ stores (`O` + U+0308), which macOS, where Daz Studio also runs, matches to `Ö`.
    const name = names.includes(segment)
      ? segment
      : names.find((n) => sameNameKey(n) === sameNameKey(segment));
    if (!name) return undefined;
    dir = join(dir, name);
  }
  const found = (await isFile(dir)) ? dir : undefined;
  if (!found) return undefined;
  try {
    return inside(await Deno.realPath(root), await Deno.realPath(found)) ? found : undefined;
  } catch {
    return undefined;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel !== "" && rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
