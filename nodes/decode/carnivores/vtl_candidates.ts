/**
 * Which `.vtl` file is the clip a user means, in mod folders as they are kept: names in whatever case
 * a Windows tool or archive left (`RUN.VTL` for a typed `run.vtl`, an `Anims` folder for `anims`),
 * backups and copies beside the current file (`run_old.vtl`, `Copy of run.vtl`, `run - Copy.vtl`,
 * `run copy 2.vtl`, `run (2).vtl`), and one clip twice in two cases after two archives were
 * unpacked into one folder on a case-sensitive disk. Windows, where these mods are made, finds
 * files without regard to case, so a name differing only in case is the same file to its author.
 *
 * The tie-break is deterministic: the file with no copy mark wins over its copies; among files
 * differing only in case, bytes that are the same are read once, and different bytes are a guess —
 * the first in name order is read, and a warning names every candidate.
 *
 * @module
 */
import { basename, dirname, extname, join } from "node:path";
import type { RunContext, WarningSink } from "../../../runtime/node.ts";

/** Folder levels above a file that are matched without regard to case. */
const CASE_LEVELS = 4;

/** The marks backups and copies add to a name (Explorer, Finder, browsers, editors, people). */
const COPY_MARKS: readonly RegExp[] = [
  /^copy(?: \(\d+\))? of /i,
  / - copy(?: \(\d+\))?$/i,
  / copy(?: \d+)?$/i,
  / ?\(\d+\)$/,
  /[ _.-](?:old|bak|backup|orig|original)\d*$/i,
  /~$/,
];

/**
 * A file stem without its copy marks (`"Copy of run - Copy (2)"` → `"run"`), and whether it had any.
 * Plain digits are no mark: `idle2` is another clip than `idle`.
 *
 * @example
 * ```ts
 * copyBase("run (2)"); // { base: "run", marked: true }
 * ```
 */
export function copyBase(stem: string): { base: string; marked: boolean } {
  let base = stem;
  for (let changed = true; changed;) {
    changed = false;
    for (const mark of COPY_MARKS) {
      const next = base.replace(mark, "");
      if (next !== base && next !== "") {
        base = next;
        changed = true;
      }
    }
  }
  return { base, marked: base !== stem };
}

/** A file chosen as a clip, and the clip's name. */
export interface ChosenClip {
  readonly path: string;
  readonly clip: string;
}

type Reader = (path: string) => Promise<Uint8Array>;
type Ctx = Pick<RunContext, "readFile" | "listDir">;

/** True when every file holds the same bytes as the first. */
async function sameBytes(paths: readonly string[], read: Reader): Promise<boolean> {
  const first = await read(paths[0]);
  for (const path of paths.slice(1)) {
    const bytes = await read(path);
    if (bytes.length !== first.length || bytes.some((b, i) => b !== first[i])) return false;
  }
  return true;
}

/**
 * Picks one file per clip among a glob's `matches` (names in `folder`, sorted): see the module doc.
 * Each clip is named after its file without extension or copy marks. `read` is memoised by the caller.
 */
export async function chooseAmongMatches(
  entry: string,
  folder: string,
  matches: readonly string[],
  read: Reader,
  warn: WarningSink,
): Promise<ChosenClip[]> {
  const groups = new Map<string, string[]>();
  for (const name of matches) {
    const key = copyBase(basename(name, extname(name))).base.toLowerCase();
    groups.set(key, [...groups.get(key) ?? [], name]);
  }
  const chosen: ChosenClip[] = [];
  for (const names of groups.values()) {
    const originals = names.filter((n) => !copyBase(basename(n, extname(n))).marked);
    const pool = originals.length ? originals : names;
    const pick = pool[0];
    const clip = copyBase(basename(pick, extname(pick))).base;
    const copies = names.filter((n) => !pool.includes(n));
    const quoted = (list: readonly string[]) => list.map((n) => `'${n}'`).join(", ");
    if (pool.length > 1) {
      const same = await sameBytes(pool.map((n) => join(folder, n)), read);
      warn(
        same
          ? `animations: '${entry}': ${quoted(pool)} are one clip in names differing only in case or by a ` +
            `copy mark, with the same bytes; read '${pick}' once as clip '${clip}'`
          : `animations: '${entry}': cannot tell which of ${quoted(pool)} is clip '${clip}' (names ` +
            `differing only in case or by a copy mark, different bytes); read '${pick}', the first by name — ` +
            "name the file to use in animations",
        { candidates: pool.map((n) => join(folder, n)), read: join(folder, pick) },
      );
    } else if (!originals.length) {
      warn(
        `animations: '${entry}': clip '${clip}' is only in '${pick}', a copy by its name; read it as '${clip}'`,
      );
    }
    if (copies.length) {
      warn(
        `animations: '${entry}': left out ${quoted(copies)}, a backup or copy of '${pick}' by name ` +
          `(clip '${clip}' is read from '${pick}'); name one in animations to read it instead`,
        { left_out: copies.map((n) => join(folder, n)), read: join(folder, pick) },
      );
    }
    chosen.push({ path: join(folder, pick), clip });
  }
  return chosen.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The paths that name `path` without regard to case (each folder level too, up to a few levels),
 * sorted; the exact path first when it exists. Empty when none does.
 */
export async function caseMatches(path: string, ctx: Ctx, levels = CASE_LEVELS): Promise<string[]> {
  const folder = dirname(path);
  const name = basename(path);
  const folders = levels > 0 && folder !== path && folder !== dirname(folder)
    ? await caseFolders(folder, ctx, levels - 1)
    : [folder];
  const out: string[] = [];
  for (const dir of folders) {
    const names = await ctx.listDir(dir);
    if (names.includes(name) && dir === folder) out.unshift(join(dir, name));
    for (const n of names) {
      if (n.toLowerCase() === name.toLowerCase() && !(n === name && dir === folder)) out.push(join(dir, n));
    }
  }
  return out;
}

/** `folder` itself when it lists, else the folders naming it in another case. */
async function caseFolders(folder: string, ctx: Ctx, levels: number): Promise<string[]> {
  if ((await ctx.listDir(folder)).length) return [folder];
  return await caseMatches(folder, ctx, levels);
}

/**
 * Resolves a plain (glob-free) entry: the exact file when it exists — with a warning when a file
 * differing only in case holds other bytes beside it — else the one file naming it in another case
 * (a warning says so), else the first of several, with a warning naming them. Undefined when no file
 * names it even without regard to case.
 */
export async function resolvePlainEntry(
  entry: string,
  ctx: Ctx,
  read: Reader,
  warn: WarningSink,
): Promise<string | undefined> {
  const matches = await caseMatches(entry, ctx);
  if (!matches.length) return undefined;
  const quoted = matches.map((m) => `'${m}'`).join(", ");
  const exact = matches[0] === entry;
  if (matches.length === 1) {
    if (!exact) warn(`animations: '${entry}' is '${matches[0]}' on disk (another case); read that file`);
    return matches[0];
  }
  if (!(await sameBytes(matches, read))) {
    warn(
      exact
        ? `animations: '${entry}' read as named, but ${quoted} differ only in case and hold different ` +
          "bytes (one folder merged from two archives?): check it is the clip you mean"
        : `animations: cannot tell which of ${quoted} is '${entry}' (they differ only in case and hold ` +
          `different bytes); read '${matches[0]}', the first by name — name the file exactly`,
      { candidates: matches, read: matches[0] },
    );
  } else if (!exact) {
    warn(`animations: '${entry}' is ${quoted} on disk (other cases, the same bytes); read '${matches[0]}'`);
  }
  return matches[0];
}

/** The folder a glob lists: itself, or the one naming it in another case (a warning says which). */
export async function globFolder(
  entry: string,
  folder: string,
  ctx: Ctx,
  warn: WarningSink,
): Promise<string> {
  const folders = await caseFolders(folder, ctx, CASE_LEVELS);
  if (!folders.length || folders[0] === folder) return folder;
  warn(
    `animations: '${entry}': folder '${folder}' is '${folders[0]}' on disk (another case); listed that` +
      (folders.length > 1 ? ` (first of ${folders.map((f) => `'${f}'`).join(", ")})` : ""),
  );
  return folders[0];
}
