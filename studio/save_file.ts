/**
 * `POST /api/save`: writes a graph file in the save format, graph files only, and never over changes
 * the page has not seen. The page sends the digest of the file as it opened (or last saved) it as
 * `base`; when the file on disk has another digest now — another tab saved it, a text editor or
 * `git pull` changed it — or is gone (`deleted: true`: a branch switch, a clean-up), the answer is
 * HTTP 409 `{error, changed: true}` and nothing is written, so
 * neither side's edits are lost without the user saying so (the page asks, then saves without
 * `base`).
 *
 * @module
 */
import { dirname } from "node:path";
import { sha256Hex } from "../runtime/canonical.ts";
import { atomicWrite } from "../runtime/fs.ts";
import type { GraphFile, GraphIssue } from "../runtime/mod.ts";
import { type ApiContext, HttpError } from "./api_context.ts";
import { isGraphBytes, refuseHidden } from "./file_rules.ts";
import { formatGraph } from "./format.ts";
import { check } from "./graph_check.ts";
import { type LikelyMove, likelyMoves, sameDigestFiles } from "./moved.ts";
import { type Unreadable, unreadable } from "./unreadable.ts";

/** What the page posts to `/api/save`. */
export type SaveBody = { path?: unknown; graph?: unknown; create?: unknown; base?: unknown } | null;

/** A save's answer: what was written, or (HTTP 409) why nothing was. */
export type SaveAnswer =
  | { path: string; bytes: number; issues: GraphIssue[]; digest: string }
  | {
    error: string;
    exists?: true;
    changed?: true;
    deleted?: true;
    /** A deleted file's bytes as the page opened them are now at these paths (moved, renamed). */
    movedTo?: string[];
    /** None has those bytes: graph files that look like it, moved and edited since (`moved.ts`). */
    movedLike?: LikelyMove[];
    /** The file is not JSON now (`conflict`: it has merge-conflict markers); `digest` is its bytes'. */
    unreadable?: "conflict" | "damaged";
    digest?: string;
  };

/** The SHA-256 of a file's bytes, hex: what `/api/graph` and `/api/save` answer and `base` names. */
export function fileDigest(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

/**
 * Writes a graph file. With `create: true` (a new node group's file) an existing file is never
 * replaced: the answer is `{error, exists: true}` and the page asks before saving again without it.
 * The new file is created exclusively (`createNew`), so no other writer's file is lost between a
 * check and the write. With `base`, a file whose digest differs is not replaced (`changed: true`).
 *
 * @example
 * ```ts
 * await save(ctx, { path: "graphs/a.json", graph, base: opened.digest });
 * ```
 */
export async function save(ctx: ApiContext, body: SaveBody): Promise<SaveAnswer> {
  if (typeof body?.path !== "string" || !body.path.endsWith(".json")) {
    throw new HttpError(400, "save needs a path ending in .json");
  }
  if (!body.graph || typeof body.graph !== "object") throw new HttpError(400, "save needs a graph object");
  if (body.base !== undefined && typeof body.base !== "string") {
    throw new HttpError(400, "save's base is the digest /api/graph answered (a string)");
  }
  const abs = await ctx.sandbox.resolve(body.path);
  const shown = ctx.sandbox.display(abs);
  const { bytes: old, damaged } = await refuseNonGraphTarget(ctx, abs, body.base);
  if (damaged && fileDigest(old!) !== body.base) {
    // A file the page opened as a graph is not JSON now: a merge half done, another editor's save
    // cut short. The page asks, naming why; confirmed, it sends the digest of these very bytes.
    return {
      error: `${shown} on disk ${damaged.reason}: not saved over it`,
      changed: true,
      unreadable: damaged.conflict ? "conflict" : "damaged",
      digest: fileDigest(old!),
    };
  }
  if (body.base !== undefined && old === undefined && !await Deno.lstat(abs).then(() => true, () => false)) {
    // Deleted or moved (a branch switched, a clean-up) since the page opened it: not made again unasked.
    // A file of the same bytes elsewhere is where it went (git mv, a file manager): the page offers it.
    const movedTo = await sameDigestFiles(ctx.sandbox, body.base, abs);
    const movedLike = movedTo.length ? [] : await likelyMoves(ctx.sandbox, body.graph, abs);
    return {
      error: `${shown} was deleted or moved on disk since this page opened it: not written again`,
      changed: true,
      deleted: true,
      ...(movedTo.length ? { movedTo } : {}),
      ...(movedLike.length ? { movedLike } : {}),
    };
  }
  if (body.base !== undefined && old !== undefined && !damaged && fileDigest(old) !== body.base) {
    return {
      error: `${shown} changed on disk since this page opened it (another tab, an editor or git wrote ` +
        "it): not saved over it",
      changed: true,
    };
  }
  const text = formatGraph(body.graph);
  const bytes = new TextEncoder().encode(text);
  try {
    if (body.create === true) {
      // A new graph's folder may not exist yet (graphs/ in a project that had none): made, as atomicWrite does.
      await Deno.mkdir(dirname(abs), { recursive: true });
      try {
        await Deno.writeFile(abs, bytes, { createNew: true });
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
        return { error: `${shown} exists`, exists: true };
      }
    } else await atomicWrite(abs, bytes);
  } catch (error) {
    throw notWritable(ctx, abs, error);
  }
  const issues = await check(ctx, abs, body.graph as GraphFile);
  return { path: shown, bytes: text.length, issues, digest: fileDigest(bytes) };
}

/**
 * A write the system or the studio's own permissions refused, as what a user can act on (HTTP 403):
 * the graph and the folder by their shown paths, why, and what to do. Before, the page showed the raw
 * error naming a temporary file (`Permission denied (os error 13): open 'graphs/.123-0-ab.tmp-…'`)
 * or Deno's "run again with the --allow-write flag" (HTTP 500). Any other error is returned as it is.
 */
function notWritable(ctx: ApiContext, abs: string, error: unknown): unknown {
  const file = ctx.sandbox.display(abs);
  const folder = ctx.sandbox.display(dirname(abs));
  const kept = "; the edits stay in this page, unsaved";
  if (error instanceof Deno.errors.NotCapable) {
    return new HttpError(
      403,
      `cannot save ${file}: the studio was started without write access to ${folder}/ (start it with ` +
        `--allow-write=${folder} too, or Open a path under graphs/ and Save there)${kept}`,
    );
  }
  // EROFS (a read-only mount) has no class of its own in Deno: it is known by its OS error number.
  const readOnly = /\(os error 30\)/.test(String(error));
  if (error instanceof Deno.errors.PermissionDenied || readOnly) {
    return new HttpError(
      403,
      `cannot save ${file}: the system refused to write in ${folder}/ (` +
        `${readOnly ? "a read-only file system" : "permission denied"}); make it writable, or Open a path ` +
        `in a folder that is and Save there${kept}`,
    );
  }
  return error;
}

/**
 * What `GET /api/exists` answers the page before Ctrl+G or a new graph's first save writes a file: by
 * save's own rules, so a path save would refuse is refused here too (HTTP 403 for a hidden folder or
 * `node_modules`, a symlink leading out of the sandbox). An existing file says whether save may replace
 * it (`graph`: a graph file) and, when it may, the digest of its bytes: an overwrite the user confirms
 * sends it as `base`, so a file changed after the question is not written over unseen.
 */
export async function exists(ctx: ApiContext, path: string): Promise<ExistsAnswer> {
  const abs = await ctx.sandbox.resolve(path);
  refuseHidden(ctx, abs, "/api/exists");
  const shown = ctx.sandbox.display(abs);
  const stat = await Deno.lstat(abs).catch(() => undefined);
  if (!stat) return { path: shown, exists: false };
  const bytes = stat.isFile ? await Deno.readFile(abs).catch(() => undefined) : undefined;
  return bytes && isGraphBytes(bytes)
    ? { path: shown, exists: true, graph: true, digest: fileDigest(bytes) }
    : { path: shown, exists: true, graph: false };
}

/** `GET /api/exists`'s answer (see {@link exists}). */
export type ExistsAnswer =
  | { path: string; exists: false }
  | { path: string; exists: true; graph: true; digest: string }
  | { path: string; exists: true; graph: false };

/**
 * Save writes graph files only: never into a hidden folder (`.git`, `.partgraph-cache`) or
 * `node_modules`, and never over an existing file that is not a graph (`deno.json`, a lock file, a
 * JSON schema), whatever path the page (or a process on the loopback) sends: HTTP 403 naming why.
 * One exception: a file that is not JSON at all (merge-conflict markers, a half-written save) when
 * the page sends a `base` (it opened the path as a graph): that is `damaged`, and {@link save} writes
 * over it only once the page sends its bytes' own digest (the user confirmed these bytes). Returns
 * the file's bytes as they are now (undefined for a new file).
 */
async function refuseNonGraphTarget(
  ctx: ApiContext,
  abs: string,
  base: unknown,
): Promise<{ bytes?: Uint8Array; damaged?: Unreadable }> {
  refuseHidden(ctx, abs, "save");
  const bytes = await Deno.readFile(abs).catch(() => undefined);
  if (bytes === undefined) return {}; // a new file (or one save cannot read, which the write reports)
  if (isGraphBytes(bytes)) return { bytes };
  const damaged = base === undefined ? undefined : unreadable(bytes);
  if (damaged) return { bytes, damaged };
  throw new HttpError(
    403,
    `save refused: '${ctx.sandbox.display(abs)}' exists and is not a graph file (no "nodes" object); ` +
      "the studio replaces only graph files",
  );
}
