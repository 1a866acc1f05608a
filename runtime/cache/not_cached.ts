/**
 * What a run says when the disk cache cannot take its results. A cache folder that cannot be written
 * (a read-only project, a folder of someone else's, a file where the folder should be, a full disk)
 * fails every node's store alike: said per node it was a dozen identical lines, so it is said once per
 * run, naming the folder and what to do, in words right for every caller (the CLI's run and batch, the
 * studio, which has `--cache-dir` but no `--no-cache`, and a library caller's `cacheDir` option); the run
 * goes on uncached. Any other failure (one value that could not be stored) is still said for its node.
 *
 * @module
 */
import { resolve } from "node:path";

/** A run's warnings for results the disk cache did not take. */
export class NotCachedNotes {
  #folderSaid = false;

  /** `dir`: the run's disk cache folder, when it has one. */
  constructor(private readonly dir?: string) {}

  /** The warning for a store that failed with `error`; undefined when this run has said it already. */
  note(error: unknown): { message: string } | undefined {
    const text = error instanceof Error ? error.message : String(error);
    if (!this.dir || !folderUnwritable(error)) return { message: `result not cached: ${text}` };
    if (this.#folderSaid) return undefined;
    this.#folderSaid = true;
    return {
      message:
        `result not cached: ${text} — the cache folder '${resolve(this.dir)}' cannot be written, so this ` +
        "run goes on without storing results there (said once per run, not per node): make it writable, " +
        "give a writable folder (--cache-dir DIR; the library's cacheDir option), or run without a disk " +
        "cache (run and batch: --no-cache; the library: cacheDir: false)",
    };
  }
}

/** OS and Deno errors that every write into the cache folder would meet again. */
const FOLDER_ERRORS = new Set(["PermissionDenied", "NotCapable", "AlreadyExists", "NotADirectory"]);

/** True when `error` says the cache folder cannot be written at all, not that one value failed. */
function folderUnwritable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // EACCES, EEXIST (a file where the folder goes), ENOTDIR, ENOSPC, EROFS; SQLite's words for a
  // database it cannot open or write (a folder in its place, a read-only folder).
  return FOLDER_ERRORS.has(error.name) || /\(os error (13|17|20|28|30)\)/.test(error.message) ||
    /unable to open database file|readonly database|disk I\/O error|database or disk is full/i.test(
      error.message,
    );
}
