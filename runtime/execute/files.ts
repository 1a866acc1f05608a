/**
 * Tracked file access for one run: reads resolve against the working directory and are shared
 * (one read per file per run), writes stay inside the output directory and are atomic, and every
 * access is recorded with its digest so a cached result is only reused while its files still hold.
 *
 * @module
 */
import { isAbsolute, join, normalize, resolve } from "node:path";
import { sha256Hex, valueDigest } from "../canonical.ts";
import type { FileDigest } from "../cache/disk.ts";
import { atomicWrite, outputPath } from "../fs.ts";
import type { JsonValue } from "../node.ts";

/** Marks a recorded read as a directory listing rather than a file. */
export const DIR_MARK = "/*";

/**
 * The digest recorded for a read that failed (the file is missing, say): the result it shaped holds
 * only while the file still cannot be read, so a library that appears later re-runs the node.
 */
export const ABSENT = "absent";

/** What one node run read, wrote and warned about. */
export interface Recorder {
  /** Warnings in the order raised. */
  readonly warnings: { message: string; detail?: Record<string, JsonValue> }[];
  /**
   * Files (and listings, marked with {@link DIR_MARK}) read, as the node named them → digest
   * ({@link ABSENT} for a read that failed).
   */
  readonly reads: Map<string, string>;
  /** Files written, relative to the output directory → digest. */
  readonly writes: Map<string, string>;
}

/** An empty {@link Recorder}. */
export function createRecorder(): Recorder {
  return { warnings: [], reads: new Map(), writes: new Map() };
}

/** The file side of a run: shared reads, checked writes, and every digest the run saw. */
export class TrackedFiles {
  /** Every file read in this run (absolute path → digest). */
  readonly reads = new Map<string, string>();
  /** Every file written in this run (path relative to the output directory → digest). */
  readonly writes = new Map<string, string>();
  readonly #memo = new Map<string, Promise<FileRead> | ReleasedRead>();
  readonly #cwd: string;
  readonly #outDir: string;

  constructor(cwd: string, outDir: string) {
    this.#cwd = cwd;
    this.#outDir = resolve(outDir);
  }

  /**
   * Reads a file once per run, with its digest. Bytes the run has let go (see {@link release}) are
   * read again if something asks for them, and must still have the digest the run first saw.
   */
  async #read(path: string): Promise<FileRead & { abs: string }> {
    const abs = resolve(this.#cwd, path);
    let entry = this.#memo.get(abs);
    if (!(entry instanceof Promise)) {
      const released = entry, alive = released?.bytes.deref();
      entry = alive
        ? Promise.resolve({ bytes: alive, sha256: released!.sha256 })
        : Deno.readFile(abs).then((bytes) => {
          const sha256 = valueDigest(bytes);
          if (released && released.sha256 !== sha256) throw new Error(`'${path}' changed during the run`);
          return { bytes, sha256 };
        });
      this.#memo.set(abs, entry);
    }
    return { ...await entry, abs };
  }

  /**
   * The run no longer needs these values: a file read whose bytes are among them stops being kept
   * for the rest of the run (its digest is kept, to check a second read against).
   */
  release(values: readonly unknown[]): void {
    const arrays = new Set(values.map((v) => (v as { bytes?: unknown } | undefined)?.bytes));
    for (const [abs, entry] of this.#memo) {
      if (!(entry instanceof Promise)) continue;
      entry.then((read) => {
        if (arrays.has(read.bytes) && this.#memo.get(abs) === entry) {
          this.#memo.set(abs, { sha256: read.sha256, bytes: new WeakRef(read.bytes) });
        }
      }, () => {});
    }
  }

  /** The absolute path of a write path; throws when it would leave the output directory. */
  outPath(path: string): string {
    if (isAbsolute(path) || normalize(path).startsWith("..")) {
      throw new Error(`write path '${path}' leaves the output directory`);
    }
    return join(this.#outDir, path);
  }

  /** Reads a file for a node, recording it (a failed read too: the node's result depends on the failure). */
  async readFile(path: string, record: Recorder): Promise<Uint8Array> {
    let file;
    try {
      file = await this.#read(path);
    } catch (error) {
      record.reads.set(path, ABSENT);
      throw error;
    }
    record.reads.set(path, file.sha256);
    this.reads.set(file.abs, file.sha256);
    return file.bytes;
  }

  /** Lists a directory for a node (sorted names; empty when absent), recording the listing. */
  async listDir(path: string, record: Recorder): Promise<string[]> {
    const names = await listNames(resolve(this.#cwd, path));
    record.reads.set(path + DIR_MARK, listingDigest(names));
    return names;
  }

  /** Writes a file atomically for a node, recording it; never through a symlink inside the output folder. */
  async writeFile(path: string, bytes: Uint8Array, record: Recorder): Promise<void> {
    await atomicWrite(await outputPath(this.#outDir, path), bytes);
    const digest = valueDigest(bytes);
    record.writes.set(path, digest);
    this.writes.set(path, digest);
  }

  /** Adds a cached result's recorded reads (those that succeeded) and writes to the run's lists. */
  replay(reads: readonly FileDigest[], writes: readonly FileDigest[]): void {
    for (const r of reads) if (r.sha256 !== ABSENT) this.reads.set(resolve(this.#cwd, r.path), r.sha256);
    for (const w of writes) this.writes.set(w.path, w.sha256);
  }

  /**
   * Still valid: every file it read is unchanged (and every read that failed still fails) and every
   * file it wrote still holds its bytes.
   */
  async stillValid(entry: { reads: readonly FileDigest[]; writes: readonly FileDigest[] }): Promise<boolean> {
    for (const read of entry.reads) {
      if (read.path.endsWith(DIR_MARK)) {
        const names = await listNames(resolve(this.#cwd, read.path.slice(0, -DIR_MARK.length)));
        if (listingDigest(names) !== read.sha256) return false;
        continue;
      }
      const now = await this.#read(read.path).catch(() => undefined);
      if ((now?.sha256 ?? ABSENT) !== read.sha256) return false;
    }
    for (const write of entry.writes) {
      const bytes = await Deno.readFile(this.outPath(write.path)).catch(() => undefined);
      if (!bytes || sha256Hex(bytes) !== write.sha256) return false;
    }
    return true;
  }
}

/** A file's bytes and digest, as read in this run. */
interface FileRead {
  readonly bytes: Uint8Array;
  readonly sha256: string;
}

/** A read whose bytes the run let go: kept only while something else holds them. */
interface ReleasedRead {
  readonly sha256: string;
  readonly bytes: WeakRef<Uint8Array>;
}

/** Sorted entry names of a directory; empty when it does not exist. */
async function listNames(path: string): Promise<string[]> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names.sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return [];
    throw error;
  }
}

function listingDigest(names: string[]): string {
  return sha256Hex(names.join("\n"));
}

/** Map entries sorted by key, as digest records. */
export function sortedDigests(map: ReadonlyMap<string, string>): FileDigest[] {
  return [...map].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([path, sha256]) => ({ path, sha256 }));
}
