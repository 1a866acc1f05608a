/**
 * Tracked file access for one run: reads resolve against the working directory and are shared
 * (one read per file per run), writes stay inside the output directory and are atomic, and every
 * access is recorded with its digest so a cached result is only reused while its files still hold.
 * With a disk cache, the digests of files hashed are remembered with their stat (`file_digests.ts`),
 * so checking an unchanged file (a cached result's inputs and outputs, a source's fingerprint) needs
 * a stat, not a read.
 *
 * @module
 */
import { isAbsolute, join, normalize, resolve } from "node:path";
import { knownValueDigest, sha256Hasher, sha256Hex, valueDigest } from "../canonical.ts";
import type { FileDigest } from "../cache/disk.ts";
import { type FileStat, fileStat } from "../cache/file_digests.ts";
import { atomicWrite, outputPath, readWholeFile } from "../fs.ts";
import type { JsonValue } from "../node.ts";

/** Marks a recorded read as a directory listing rather than a file. */
export const DIR_MARK = "/*";

/**
 * The digest recorded for a read that failed (the file is missing, say): the result it shaped holds
 * only while the file still cannot be read, so a library that appears later re-runs the node.
 */
export const ABSENT = "absent";

/**
 * The digest recorded for a file a run did not hash: a run with no cache tier and no use for
 * digests (see `ExecuteOptions.fileDigests`) saves hashing every model it reads and writes.
 */
export const UNHASHED = "unhashed";

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
  /** The node said its values cost less to compute again than to load (`ctx.cheapToRecompute`). */
  recompute: boolean;
}

/** An empty {@link Recorder}. */
export function createRecorder(): Recorder {
  return { warnings: [], reads: new Map(), writes: new Map(), recompute: false };
}

/** File digests remembered across runs, by absolute path (the disk cache's, `DiskCache`). */
export interface DigestMemo {
  /** The remembered digest, if the memo's rule trusts it for a file whose stat is now `stat`. */
  recallDigest(path: string, stat: FileStat): Promise<string | undefined>;
  /** Remembers a digest with the stat the file had when hashing began at `hashedAtMs`. */
  rememberDigest(path: string, stat: FileStat, sha256: string, hashedAtMs: number): Promise<void>;
}

/** How a run uses a {@link DigestMemo}. */
export interface DigestMemoUse {
  /** The memo. */
  readonly memo: DigestMemo;
  /** False to re-hash every file (a refresh run); what it hashes is still remembered. */
  readonly trust: boolean;
}

/** The file side of a run: shared reads, checked writes, and every digest the run saw. */
export class TrackedFiles {
  /** Every file read in this run (absolute path → digest). */
  readonly reads = new Map<string, string>();
  /** Every file written in this run (path relative to the output directory → digest). */
  readonly writes = new Map<string, string>();
  readonly #memo = new Map<string, Promise<FileRead> | KnownDigest>();
  readonly #cwd: string;
  readonly #outDir: string;
  readonly #digests?: DigestMemoUse;
  /** Whether reads and writes are hashed (else recorded {@link UNHASHED}). */
  readonly hashing: boolean;

  /**
   * Reads resolve against `cwd`, writes inside `outDir`; `digests` remembers (and recalls) digests.
   * With `hashing` false, reads and writes are recorded as {@link UNHASHED} (a run without a cache
   * tier, whose caller needs no digests); {@link fileDigest}, which a node asks for, still hashes.
   */
  constructor(cwd: string, outDir: string, digests?: DigestMemoUse, hashing = true) {
    this.#cwd = cwd;
    this.#outDir = resolve(outDir);
    this.#digests = digests;
    this.hashing = hashing;
  }

  /**
   * Reads a file once per run, with its digest. Bytes the run has let go (see {@link release}), or
   * never read because the memo knew the digest, are read if something asks for them, and must
   * still have the digest the run first saw.
   */
  async #read(path: string): Promise<FileRead & { abs: string }> {
    const abs = resolve(this.#cwd, path);
    let entry = this.#memo.get(abs);
    if (!(entry instanceof Promise)) {
      const known = entry, alive = known?.bytes?.deref();
      entry = alive
        ? Promise.resolve({ bytes: alive, sha256: known!.sha256 })
        : this.#hash(abs).then((read) => {
          if (known && known.sha256 !== read.sha256) throw new Error(`'${path}' changed during the run`);
          return read;
        });
      this.#memo.set(abs, entry);
    }
    return { ...await entry, abs };
  }

  /**
   * Reads and hashes a file, and remembers its digest with the stat taken before the read (so a
   * change during the read shows in the next stat) and the moment before that stat.
   */
  async #hash(abs: string): Promise<FileRead> {
    const hashedAtMs = Date.now();
    const info = this.#digests && await Deno.stat(abs).catch(() => undefined);
    const hasher = this.hashing ? sha256Hasher() : undefined;
    const bytes = await readWholeFile(abs, Infinity, hasher?.update);
    const sha256 = hasher ? knownValueDigest(bytes, hasher.hex()) : UNHASHED;
    const stat = info && fileStat(info);
    if (stat?.size === bytes.byteLength) {
      await this.#digests!.memo.rememberDigest(abs, stat, sha256, hashedAtMs);
    }
    return { bytes, sha256 };
  }

  /** The memo's digest of a file whose stat it trusts; undefined when it has none (or must not be trusted). */
  async #recall(abs: string): Promise<string | undefined> {
    if (!this.#digests?.trust) return undefined;
    const info = await Deno.stat(abs).catch(() => undefined);
    const stat = info && fileStat(info);
    return stat && await this.#digests.memo.recallDigest(abs, stat);
  }

  /** A file's digest in this run: the one the run saw, else the memo's, else read and hashed. */
  async #digest(path: string): Promise<string> {
    const abs = resolve(this.#cwd, path);
    const entry = this.#memo.get(abs);
    if (entry) return await this.#hashed(path, entry instanceof Promise ? await entry : entry);
    const recalled = await this.#recall(abs);
    // Checked again: another node may have read the file while this one was asking the memo.
    if (recalled === undefined || this.#memo.has(abs)) {
      return await this.#hashed(path, await this.#read(path));
    }
    this.#memo.set(abs, { sha256: recalled });
    return recalled;
  }

  /** The digest of a file the run knows; one it read unhashed is hashed now (a node asks for it). */
  async #hashed(path: string, known: { readonly sha256: string }): Promise<string> {
    return known.sha256 === UNHASHED ? valueDigest((await this.#read(path)).bytes) : known.sha256;
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
    // A digest a node asked for (`fileDigest`) stays in the run's list over an unhashed read.
    if (file.sha256 !== UNHASHED || !this.reads.has(file.abs)) this.reads.set(file.abs, file.sha256);
    return file.bytes;
  }

  /**
   * A file's SHA-256 for a node, recorded as {@link readFile} records it, without reading the file
   * when the memo knows it. Throws (recording the failure) when the file cannot be read.
   */
  async fileDigest(path: string, record: Recorder): Promise<string> {
    let sha256;
    try {
      sha256 = await this.#digest(path);
    } catch (error) {
      record.reads.set(path, ABSENT);
      throw error;
    }
    record.reads.set(path, sha256);
    this.reads.set(resolve(this.#cwd, path), sha256);
    return sha256;
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
    // Not remembered: a file just written is racily clean (its mtime is now), so the memo could not
    // vouch for it yet; the next run's check hashes it once and remembers that.
    const digest = this.hashing ? valueDigest(bytes) : UNHASHED;
    record.writes.set(path, digest);
    this.writes.set(path, digest);
  }

  /**
   * The files among `reads` (a node's, as it named them) that were read whole, by digest, with their
   * absolute paths: where the cache may find an output that is one of them.
   */
  readFiles(reads: ReadonlyMap<string, string>): Map<string, string> {
    const files = new Map<string, string>();
    for (const [path, sha256] of reads) {
      if (sha256 !== ABSENT && !path.endsWith(DIR_MARK)) files.set(sha256, resolve(this.#cwd, path));
    }
    return files;
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
    for (const read of entry.reads) if (await this.#readNow(read.path) !== read.sha256) return false;
    for (const write of entry.writes) {
      const abs = this.outPath(write.path);
      const kind = await checkable(abs);
      const now = kind !== undefined
        ? kind
        : await this.#recall(abs) ?? await this.#hash(abs).then((file) => file.sha256, () => ABSENT);
      if (now !== write.sha256) return false;
    }
    return true;
  }

  /**
   * What the files (and listings) at `paths` hold now, as a node reading them would record it: the
   * reads of the cached variant, if any, that holds for the files as they are (`CacheTiers.lookup`).
   */
  async readsNow(paths: readonly string[]): Promise<FileDigest[]> {
    const reads: FileDigest[] = [];
    for (const path of paths) reads.push({ path, sha256: await this.#readNow(path) });
    return reads;
  }

  /** The digest a read of `path` (a file, or a listing marked with {@link DIR_MARK}) records now. */
  async #readNow(path: string): Promise<string> {
    if (path.endsWith(DIR_MARK)) {
      return listingDigest(await listNames(resolve(this.#cwd, path.slice(0, -DIR_MARK.length))));
    }
    return await checkable(resolve(this.#cwd, path)) ?? await this.#digest(path).catch(() => ABSENT);
  }
}

/** What a check of a cached record reads at a path that is not a regular file: no digest matches it. */
const NOT_A_FILE = "not a regular file";

/**
 * Undefined when `abs` is a regular file, which a check may read and hash; else the digest a check
 * takes for it without reading: {@link ABSENT} when nothing (or a folder, which no read succeeds on)
 * is there, {@link NOT_A_FILE} for a pipe, a device or a socket. A cached record is untrusted input
 * (a damaged disk, a hostile server): the paths it names must not make a check block on a pipe or
 * read a device that never ends.
 */
async function checkable(abs: string): Promise<string | undefined> {
  const info = await Deno.stat(abs).catch(() => undefined);
  return !info || info.isDirectory ? ABSENT : info.isFile ? undefined : NOT_A_FILE;
}

/** A file's bytes and digest, as read in this run. */
interface FileRead {
  readonly bytes: Uint8Array;
  readonly sha256: string;
}

/**
 * A file whose digest the run knows without holding its bytes: a read the run let go (its bytes
 * kept only while something else holds them), or a digest the memo vouched for (no bytes).
 */
interface KnownDigest {
  readonly sha256: string;
  readonly bytes?: WeakRef<Uint8Array>;
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
