/**
 * The file a path written on Windows means, on a disk that tells case apart. Graphs and mod folders
 * made on Windows name files as Explorer finds them: in any case (`Models\Raptor.CAR` for
 * `models/raptor.car`), with `\` between folders, and with the trailing dots and spaces Windows drops
 * from every name (`raptor.car.`, `anims \run.vtl`). When the path as written names no file, each
 * segment is looked up the way Windows would: exactly, else the one entry equal to it ignoring case
 * (and its trailing dots and spaces). Two entries that differ only in case (two archives unpacked
 * into one folder) are an error naming both: which one the author meant cannot be told.
 *
 * The lookup never leads anywhere the written path does not: `..` segments are kept as written (never
 * matched), and a folder or file found in another case must lie, once its links are followed, inside
 * the deepest folder the path named exactly — a case twin that is a link out of it is not followed.
 *
 * @module
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import { PartgraphError } from "../../runtime/errors.ts";

/** What the lookup needs: a folder's entry names (sorted; empty when it does not exist). */
export interface FolderLister {
  listDir(path: string): Promise<string[]>;
}

/** A path resolved to the file on disk, with a note for the warning saying how. */
export interface WindowsResolution {
  /** The path on disk. */
  readonly path: string;
  /** Why it differs from what was written, e.g. "`\` separators, another case". */
  readonly how: string;
}

/** Two or more entries name one segment ignoring case; the message names them all. */
export class AmbiguousPathError extends PartgraphError {
  /** The path as written. */
  readonly path: string;
  /** The paths on disk that each match it ignoring case. */
  readonly candidates: readonly string[];
  /** `path` as written; `candidates`, the entries on disk that match one of its segments. */
  constructor(path: string, candidates: readonly string[]) {
    super(
      "ambiguous_path",
      `'${path}' names no file exactly, and ${candidates.map((c) => `'${c}'`).join(" and ")} both match it ` +
        "ignoring case (as Windows, where the path was written, reads it): cannot tell which is meant — " +
        "name one exactly, or remove the other",
    );
    this.path = path;
    this.candidates = candidates;
  }
  /** Adds the path and candidates to the base description. */
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), path: this.path, candidates: [...this.candidates] };
  }
}

/** A segment as Windows stores it: trailing dots and spaces dropped (`"a.car. "` → `"a.car"`). */
function windowsName(segment: string): string {
  const trimmed = segment.replace(/[. ]+$/, "");
  // `.` and `..` are folder steps, not names with trailing dots.
  return segment === "." || segment === ".." || trimmed === "" ? segment : trimmed;
}

/**
 * The file `path` means as a Windows user wrote it (see the module doc), or undefined when nothing on
 * disk matches it even so. Call it only once the path as written is known to be missing. Throws
 * {@link AmbiguousPathError} when case twins match one segment.
 *
 * @example
 * ```ts
 * const found = await resolveWindowsPath("Models\\Raptor.CAR", { listDir: (p) => ctx.listDir(p) });
 * // { path: "models/raptor.car", how: "`\\` separators, another case" }
 * ```
 */
export async function resolveWindowsPath(
  path: string,
  lister: FolderLister,
): Promise<WindowsResolution | undefined> {
  const slashed = path.replaceAll("\\", "/");
  // A drive path (`C:/…`) names another machine's disk: nothing here is what it means.
  if (/^[a-z]:\//i.test(slashed)) return undefined;
  const absolute = isAbsolute(slashed);
  const all = slashed.split("/").filter((s) => s !== "" && s !== ".");
  // The folders the path names exactly are taken as written (never listed: `/`, `/home` change often
  // and need no lookup); the lookup starts below the deepest of them.
  let start = absolute ? "/" : ".", skip = 0;
  for (let i = all.length - 1; i > 0; i--) {
    const prefix = join(start, ...all.slice(0, i));
    if (all.slice(0, i).includes("..") || !(await isFolder(prefix))) continue;
    start = prefix;
    skip = i;
    break;
  }
  const segments = all.slice(skip);
  let at = start;
  // The deepest folder named exactly as written: whatever is found in another case stays inside it.
  let anchor = at;
  let exactSoFar = true;
  const how = new Set<string>();
  if (slashed !== path) how.add("`\\` separators");
  for (const segment of segments) {
    if (segment === ".") continue;
    if (segment === "..") {
      at = join(at, "..");
      if (exactSoFar) anchor = at;
      continue;
    }
    const names = await lister.listDir(at);
    const wanted = windowsName(segment).toLowerCase();
    const matches = names.filter((n) => n.toLowerCase() === wanted);
    // Case twins are one name to the Windows user who wrote the path, even when one is spelled as
    // written: which was meant cannot be told.
    if (matches.length > 1) throw new AmbiguousPathError(path, matches.map((m) => join(at, m)));
    if (matches.length === 0) return undefined;
    if (matches[0] === segment) {
      at = join(at, segment);
      if (exactSoFar) anchor = at;
      continue;
    }
    exactSoFar = false;
    if (windowsName(segment) !== segment) how.add("trailing dots or spaces, which Windows drops");
    if (matches[0] !== windowsName(segment)) how.add("another case");
    at = join(at, matches[0]);
  }
  if (exactSoFar && slashed === path) return undefined;
  if (!(await staysInside(at, anchor))) return undefined;
  return { path: absolute ? at : at.replace(/^\.\//, ""), how: [...how].join(", ") };
}

/** True when `path` is a folder (its links followed). */
async function isFolder(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => undefined))?.isDirectory ?? false;
}

/** True when `path`, its links followed, lies inside `folder` (its links followed too). */
async function staysInside(path: string, folder: string): Promise<boolean> {
  const real = async (p: string) => await Deno.realPath(p).catch(() => resolve(p));
  const inside = relative(await real(folder), await real(path));
  return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside));
}
