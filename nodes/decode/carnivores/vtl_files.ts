/**
 * The `animations` parameter of `decode.3df`: paths and globs of `.vtl` files, resolved through the
 * run context (so the cache re-runs the node when a matched file changes, appears or goes) and parsed
 * against the model's vertex count.
 *
 * @module
 */
import { basename, dirname, extname } from "node:path";
import type { RunContext, WarningSink } from "../../../runtime/node.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { parseVtl, type VtlClip } from "./codec/parse_vtl.ts";
import { chooseAmongMatches, type ChosenClip, globFolder, resolvePlainEntry } from "./vtl_candidates.ts";

/** Most `.vtl` files one model reads (the games' characters hold at most 64 clips). */
export const MAX_VTL_FILES = 1024;

/**
 * Reads the clips the `animations` entries name, in entry order (a glob's matches sorted by name; a
 * file named twice is read once). A glob may use `*` and `?` in its last segment only. A glob that
 * matches nothing is a warning; a path that cannot be read, or a file that is no `.vtl`, is an error
 * naming it; a `.vtl` of another vertex count is skipped with a warning. Each clip is named after its
 * file, without the extension, as C3Dit names the clips of the `.car` it assembles. Names are matched
 * without regard to case, and a glob reads one file per clip, leaving backups and copies out — the
 * tie-breaks, and the warnings naming the candidates, are in `vtl_candidates.ts`.
 *
 * @example
 * ```ts
 * const clips = await readVtlClips(["dino/*.vtl"], model.points.count, ctx, ctx.warn);
 * ```
 */
export async function readVtlClips(
  entries: readonly string[],
  vertexCount: number,
  ctx: Pick<RunContext, "readFile" | "listDir">,
  warn: WarningSink,
): Promise<VtlClip[]> {
  // Each file is read once, however many candidate comparisons and entries look at it.
  const bytesOf = new Map<string, Promise<Uint8Array>>();
  const read = (path: string) => {
    let bytes = bytesOf.get(path);
    if (!bytes) bytesOf.set(path, bytes = ctx.readFile(path));
    return bytes;
  };
  const files: ChosenClip[] = [];
  for (const written of entries) {
    const entry = windowsEntry(written, warn);
    const name = basename(entry);
    if (!/[*?]/.test(name)) {
      const path = await resolvePlainEntry(entry, ctx, read, warn) ?? entry;
      files.push({ path, clip: basename(path, extname(path)) });
      continue;
    }
    if (/[*?]/.test(dirname(entry))) {
      throw new Error(
        `animations: '${entry}' has a wildcard in a folder name; only the file name may have one`,
      );
    }
    const pattern = globRegExp(name);
    const folder = await globFolder(entry, dirname(entry), ctx, warn);
    const matches = (await ctx.listDir(folder)).filter((n) => pattern.test(n));
    if (matches.length === 0) warn(`animations: '${entry}' matches no file`);
    files.push(...await chooseAmongMatches(entry, folder, matches, read, warn));
  }
  const seen = new Set<string>();
  const unique = files.filter((f) => !seen.has(f.path) && seen.add(f.path));
  if (unique.length > MAX_VTL_FILES) {
    throw new Error(`animations: ${unique.length} files are more than the ${MAX_VTL_FILES} one model reads`);
  }
  const clips: VtlClip[] = [];
  for (const { path: file, clip: clipName } of unique) {
    let bytes: Uint8Array;
    try {
      bytes = await read(file);
    } catch (error) {
      throw new DecodeError({
        format: "vtl",
        at: { offset: 0 },
        expected: "a readable .vtl file",
        found: error instanceof Error ? error.message : String(error),
        file,
      });
    }
    const clip = parseVtl(bytes, file, clipName, vertexCount, warn);
    if (clip) clips.push(clip);
  }
  return clips;
}

/**
 * An entry as written on Windows, read with `/` between folders and each name's trailing dots and
 * spaces dropped (Windows drops them, so `anims\run.vtl.` is `anims/run.vtl` to its author); a
 * warning says so when it changes. Case is left to the lookups, which match names ignoring it.
 */
function windowsEntry(entry: string, warn: WarningSink): string {
  const read = entry.replaceAll("\\", "/").split("/").map((s) =>
    s === "." || s === ".." ? s : s.replace(/[. ]+$/, "") || s
  ).join("/");
  if (read !== entry) {
    warn(`animations: '${entry}' is read as '${read}' (as Windows, where it was written, reads it)`);
  }
  return read;
}

/** A file-name glob (`*`, `?`) as an anchored, case-insensitive RegExp (Windows-made mods mix cases). */
function globRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".");
  return new RegExp(`^${body}$`, "i");
}
