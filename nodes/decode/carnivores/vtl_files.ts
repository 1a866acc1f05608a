/**
 * The `animations` parameter of `decode.3df`: paths and globs of `.vtl` files, resolved through the
 * run context (so the cache re-runs the node when a matched file changes, appears or goes) and parsed
 * against the model's vertex count.
 *
 * @module
 */
import { basename, dirname, extname, join } from "node:path";
import type { RunContext, WarningSink } from "../../../runtime/node.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { parseVtl, type VtlClip } from "./codec/parse_vtl.ts";

/** Most `.vtl` files one model reads (the games' characters hold at most 64 clips). */
export const MAX_VTL_FILES = 1024;

/**
 * Reads the clips the `animations` entries name, in entry order (a glob's matches sorted by name; a
 * file named twice is read once). A glob may use `*` and `?` in its last segment only. A glob that
 * matches nothing is a warning; a path that cannot be read, or a file that is no `.vtl`, is an error
 * naming it; a `.vtl` of another vertex count is skipped with a warning. Each clip is named after its file, without the extension, as C3Dit
 * names the clips of the `.car` it assembles.
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
  const files: string[] = [];
  for (const entry of entries) {
    const name = basename(entry);
    if (!/[*?]/.test(name)) {
      files.push(entry);
      continue;
    }
    if (/[*?]/.test(dirname(entry))) {
      throw new Error(
        `animations: '${entry}' has a wildcard in a folder name; only the file name may have one`,
      );
    }
    const pattern = globRegExp(name);
    const matches = (await ctx.listDir(dirname(entry))).filter((n) => pattern.test(n));
    if (matches.length === 0) warn(`animations: '${entry}' matches no file`);
    files.push(...matches.map((n) => join(dirname(entry), n)));
  }
  const unique = [...new Set(files)];
  if (unique.length > MAX_VTL_FILES) {
    throw new Error(`animations: ${unique.length} files are more than the ${MAX_VTL_FILES} one model reads`);
  }
  const clips: VtlClip[] = [];
  for (const file of unique) {
    let bytes: Uint8Array;
    try {
      bytes = await ctx.readFile(file);
    } catch (error) {
      throw new DecodeError({
        format: "vtl",
        at: { offset: 0 },
        expected: "a readable .vtl file",
        found: error instanceof Error ? error.message : String(error),
        file,
      });
    }
    const clipName = basename(file, extname(file));
    const clip = parseVtl(bytes, file, clipName, vertexCount, warn);
    if (clip) clips.push(clip);
  }
  return clips;
}

/** A file-name glob (`*`, `?`) as an anchored, case-insensitive RegExp (Windows-made mods mix cases). */
function globRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".");
  return new RegExp(`^${body}$`, "i");
}
