/**
 * The content-addressed disk tier of the cache, holding what a remote-execution cache serves: action
 * records (an action key → its outputs' digests, small values inline; the JSON of a remote's `/ac`)
 * in one SQLite database, `actions.sqlite` (see `action_store.ts`), and blobs under `cas/<sha>`. Blobs are verified
 * on read (a corrupt or truncated entry is discarded and recomputed, never used); every write is
 * atomic (a blob: temp file + rename; a record: one transaction), so concurrent runs sharing a
 * directory are safe.
 *
 * @module
 */
import { join } from "node:path";
import type { JsonValue, SocketType } from "../node.ts";
import { atomicWrite, readWholeFile } from "../fs.ts";
import { ActionStore } from "./action_store.ts";
import { type FileStat, trustedDigest } from "./file_digests.ts";
import { listFiles, pruneCache, type PruneResult, removeOldLayout } from "./prune.ts";
import { holdsStored, packAction, type PackedAction, parseActionRecord, verifiedInline } from "./record.ts";
import type { DerivedStore } from "../derived.ts";
import type { RecordExpectation } from "./record_schema.ts";

export { INLINE_LIMIT } from "./record.ts";

/** One stored output of an action. */
export interface StoredOutput {
  /** Socket type, which selects the codec that turns the bytes back into a value. */
  readonly type: SocketType;
  /** SHA-256 (hex) of the encoded bytes; also the blob's file name under `cas/` unless inlined. */
  readonly digest: string;
  /** Length of the encoded bytes, in bytes. */
  readonly size: number;
  /** Codec metadata kept beside the bytes (e.g. a `bytes` value's file name); undefined when none. */
  readonly meta?: JsonValue;
  /** Small values are kept in the action record itself (base64), saving a file per value. */
  readonly inline?: string;
  /**
   * The absolute path of a file the node read whose bytes the output is (`io.read`'s), kept instead
   * of a copy under `cas/`: read and verified against `digest` on load, a quiet miss once the file
   * has changed or gone. Only the disk tier writes it; a remote's records never hold one.
   */
  readonly file?: string;
}

/** A file an action read or wrote, with the digest its result depends on. */
export interface FileDigest {
  /** The file's path (a directory listing's ends in `/*`); the holding field says relative to what. */
  readonly path: string;
  /**
   * SHA-256 (hex) of the contents (of the sorted entry names, for a directory listing), `"absent"`
   * for a read that failed, or `"unhashed"` in a run's result when it hashed no files
   * (`ExecuteOptions.fileDigests`).
   */
  readonly sha256: string;
}

/** What the cache remembers about one node run. */
export interface ActionRecord {
  /** Record format version; records of another version are discarded. */
  readonly version: 1;
  /** Type id of the node that produced the result. */
  readonly type: string;
  /** The node's outputs by socket name; none when {@link recompute}. */
  readonly outputs: Readonly<Record<string, StoredOutput>>;
  /**
   * The values are not kept: the node said they cost less to compute again than to load
   * (`ctx.cheapToRecompute`). The record still tells what the node read and warned, so what
   * depends on it stays cached; a run that needs the values runs the node again.
   */
  readonly recompute?: true;
  /** Warnings the node raised, replayed whenever the record is reused. */
  readonly warnings: readonly { message: string; detail?: Record<string, JsonValue> }[];
  /** Files (and directory listings) the node read; the record is only reused while they are unchanged. */
  readonly reads: readonly FileDigest[];
  /** Files the node wrote; the record is only reused while they still hold these bytes. */
  readonly writes: readonly FileDigest[];
  /**
   * The paths other results stored under the same key read (each one's `reads`, without digests), at
   * most `READ_SETS` (`record_schema.ts`): where to look for the variant that holds when this
   * record's reads do not (`CacheTiers.lookup`). Absent when no other was seen.
   */
  readonly readSets?: readonly (readonly string[])[];
}

/** Size figures of a cache directory. */
export interface CacheStats {
  /** The cache directory. */
  readonly dir: string;
  /** Number of action records (cached node results) in `actions.sqlite`. */
  readonly actions: number;
  /** Number of output blobs under `cas/` (small outputs live inline in records, not here). */
  readonly blobs: number;
  /** Number of file digests remembered (see `file_digests.ts`), by absolute path. */
  readonly files: number;
  /** Total size of records, blobs and remembered file digests, in bytes. */
  readonly bytes: number;
  /** The size cap pruning shrinks the cache below, in bytes. */
  readonly maxBytes: number;
}

/** Default size cap: 2 GiB. */
export const DEFAULT_MAX_BYTES = 2 * 1024 ** 3;

/** What a record of derived bytes holds (see {@link DiskCache.derivedStore}). */
const DERIVED = { type: "derived", outputs: { bytes: { type: "bytes" } } } as const;

/** Blobs of an action this large are written in the background, overlapping the next node's work. */
const BACKGROUND_BYTES = 1 << 20;

/**
 * A cache directory.
 *
 * @example
 * ```ts
 * import { DiskCache } from "../mod.ts";
 *
 * const disk = new DiskCache(".partgraph-cache");
 * const record = await disk.lookup("0".repeat(64)); // an action key; undefined on a miss
 * ```
 */
export class DiskCache {
  /** The cache directory; created on first lookup or store. */
  readonly dir: string;
  /** Size cap in bytes that `prune()` shrinks the cache below by default. */
  readonly maxBytes: number;

  /** Opens (without touching the disk) the cache in `dir`, capped at `maxBytes` (default 2 GiB). */
  constructor(dir: string, maxBytes = DEFAULT_MAX_BYTES) {
    this.dir = dir;
    this.maxBytes = maxBytes;
  }

  #store?: Promise<ActionStore>;
  /** The record database once {@link #actions} has opened it. */
  #opened?: ActionStore;

  /**
   * The record database, opened (and created) on first use by this instance; a later instance checks
   * it is still the same file. A failure to open is not kept: the next call tries again.
   */
  #actions(): Promise<ActionStore> {
    return this.#store ??= ActionStore.open(this.dir).then((store) => this.#opened = store!).catch(
      (error) => {
        this.#store = undefined;
        throw error;
      },
    );
  }

  #blobPath(digest: string): string {
    return join(this.dir, "cas", digest.slice(0, 2), digest);
  }

  /**
   * The action record for a key, or undefined. A record that is unreadable, not of the record's
   * shape, or not what `expect` describes is discarded (so it is recomputed and overwritten) and
   * reported to `onDamage`, and so is a damaged database (replaced by an empty one).
   */
  async lookup(
    key: string,
    expect?: RecordExpectation,
    onDamage?: (message: string) => void,
  ): Promise<ActionRecord | undefined> {
    let actions: ActionStore, text: string | undefined;
    try {
      actions = await this.#actions();
      text = actions.get(key);
    } catch {
      return undefined; // an unreadable cache is a miss, as a missing one
    }
    const damage = actions.takeDamage();
    if (damage) onDamage?.(damage);
    if (text === undefined) return undefined;
    const record = parseActionRecord(text, expect);
    if (typeof record !== "string") return record;
    await this.discard(key);
    onDamage?.(`cache: damaged record ${key.slice(0, 12)}… discarded and recomputed (${record})`);
    return undefined;
  }

  /**
   * Adds to the bytes stored since the last prune and says whether a prune is due: the folder is
   * only scanned after writes of 5 % of the cap, so small runs never pay for a full scan. Concurrent
   * runs add to the same counter (kept in the record database).
   */
  noteStored(bytes: number): boolean {
    try {
      return this.#opened?.addStored(bytes, this.maxBytes * 0.05) ?? false;
    } catch {
      return false; // a read-only or busy cache: pruning is left to the next run
    }
  }

  /**
   * The verified bytes of one stored output, or undefined when missing or corrupt (a corrupt blob is
   * then deleted; a file an output refers to is only ever read).
   */
  async readOutput(output: StoredOutput): Promise<Uint8Array | undefined> {
    if (output.inline !== undefined) return verifiedInline(output);
    let bytes: Uint8Array;
    const path = output.file ?? this.#blobPath(output.digest);
    try {
      // Only a regular file (a pipe there would block the run), never more than the record says (a
      // blob replaced by something huge is a miss, not an allocation).
      if (!(await Deno.stat(path)).isFile) return undefined;
      bytes = await readWholeFile(path, output.size);
    } catch {
      return undefined;
    }
    if (holdsStored(bytes, output)) return bytes;
    if (output.file === undefined) await Deno.remove(this.#blobPath(output.digest)).catch(() => {});
    return undefined;
  }

  /**
   * The digest remembered for a file (its absolute path) whose stat is now `stat`, when the memo's
   * rule trusts it (see `file_digests.ts`); undefined otherwise, or when the cache cannot be read.
   */
  async recallDigest(path: string, stat: FileStat): Promise<string | undefined> {
    try {
      return trustedDigest((await this.#actions()).getFile(path), stat);
    } catch {
      return undefined; // an unreadable cache: hash the file
    }
  }

  /**
   * Remembers a file's digest and the stat it had when hashing began at `hashedAtMs`; written with
   * the next batch of records. A cache that cannot be opened remembers nothing.
   */
  async rememberDigest(path: string, stat: FileStat, sha256: string, hashedAtMs: number): Promise<void> {
    try {
      (await this.#actions()).putFile(path, { ...stat, sha256, hashedAtMs });
    } catch { /* the next run hashes the file again */ }
  }

  /**
   * Stores a packed action: blobs first, then the record, so a record never points nowhere. Blobs of
   * {@link BACKGROUND_BYTES} or more are written in the background (the run goes on computing while
   * the disk takes them; {@link flush} waits for them), and a failure to write them, which drops the
   * record, reaches `onLateFailure` instead of the caller. The record goes under every key of `keys`
   * (a result and its read variant: `CacheTiers.store`).
   */
  async storePacked(
    keys: string | readonly string[],
    { record, blobs }: PackedAction,
    onLateFailure?: (error: unknown) => void,
  ): Promise<void> {
    const actions = await this.#actions();
    const json = JSON.stringify(record);
    const size = new TextEncoder().encode(json).byteLength;
    const write = async () => {
      for (const [digest, bytes] of blobs) await this.storeBlob(digest, bytes);
      for (const key of typeof keys === "string" ? [keys] : keys) {
        actions.put(key, json, size);
        this.#storedThisProcess += size;
      }
    };
    let bytes = 0;
    for (const blob of blobs.values()) bytes += blob.byteLength;
    if (bytes < BACKGROUND_BYTES) return await write();
    const writing = write().catch((error) => onLateFailure?.(error));
    this.#writing.add(writing);
    writing.finally(() => this.#writing.delete(writing));
  }

  /** Blob writes still in progress (see {@link storePacked}). */
  readonly #writing = new Set<Promise<void>>();

  /**
   * Writes the records stored so far (they go in batches; a run's end writes the last one). A batch
   * that cannot be written is dropped: it costs speed, never a result.
   */
  async flush(): Promise<void> {
    while (this.#writing.size) await Promise.all(this.#writing);
    if (!this.#store) return;
    try {
      (await this.#store).flush();
    } catch { /* a full or read-only disk: the results are recomputed next time */ }
  }

  /** Stores one blob under its digest (the caller has verified it), unless it is already there. */
  async storeBlob(digest: string, bytes: Uint8Array): Promise<void> {
    const path = this.#blobPath(digest);
    const exists = await Deno.stat(path).then((s) => s.size === bytes.byteLength, () => false);
    if (exists) return;
    await atomicWrite(path, bytes);
    this.#storedThisProcess += bytes.byteLength;
  }

  #storedThisProcess = 0;

  /** Bytes this instance has stored and not yet reported to {@link noteStored}; resets it. */
  takeStoredBytes(): number {
    const bytes = this.#storedThisProcess;
    this.#storedThisProcess = 0;
    return bytes;
  }

  /** Forgets one action. */
  async discard(key: string): Promise<void> {
    try {
      (await this.#actions()).delete(key);
    } catch { /* an unwritable cache keeps it; the record is checked on every read anyway */ }
  }

  /**
   * The cache as the store of derived bytes (`runtime/derived.ts`): records of type `derived` with one
   * `bytes` output, verified (size, SHA-256) when recalled and pruned like every record. With `recall`
   * false (a refresh run) nothing is recalled, and what is derived is still kept. Undefined when the
   * cache cannot be opened.
   */
  async derivedStore(recall = true): Promise<DerivedStore | undefined> {
    let actions: ActionStore;
    try {
      actions = await this.#actions();
    } catch {
      return undefined;
    }
    return {
      recall: (key) => recall ? this.#recallDerived(actions, key) : undefined,
      remember: (key, bytes) => {
        const packed = packAction({ type: DERIVED.type, warnings: [], reads: [], writes: [] }, {
          bytes: { type: "bytes", bytes },
        });
        // Awaited by `flush`, like a big blob: the run's end writes it.
        const writing = this.storePacked(key, packed).catch(() => {});
        this.#writing.add(writing);
        writing.finally(() => this.#writing.delete(writing));
      },
    };
  }

  #recallDerived(actions: ActionStore, key: string): Uint8Array | undefined {
    try {
      const text = actions.get(key);
      const record = text === undefined ? undefined : parseActionRecord(text, DERIVED);
      if (!record || typeof record === "string") return undefined;
      const stored = record.outputs.bytes;
      if (stored.inline !== undefined) return verifiedInline(stored);
      const path = this.#blobPath(stored.digest);
      // Checked before anything is read: that size, and a regular file (a pipe there would block).
      const info = Deno.statSync(path);
      if (!info.isFile || info.size !== stored.size) return undefined;
      const bytes = Deno.readFileSync(path);
      return holdsStored(bytes, stored) ? bytes : undefined;
    } catch {
      return undefined; // gone, unreadable or damaged: derived again
    }
  }

  /** Counts actions, blobs, remembered file digests and bytes. */
  async stats(): Promise<CacheStats> {
    const store = await ActionStore.open(this.dir, false);
    const { actions, bytes: recordBytes } = store?.totals() ?? { actions: 0, bytes: 0 };
    const { files, bytes: fileBytes } = store?.fileTotals() ?? { files: 0, bytes: 0 };
    const blobs = await listFiles(join(this.dir, "cas"));
    const bytes = blobs.reduce((sum, f) => sum + f.size, recordBytes + fileBytes);
    return { dir: this.dir, actions, blobs: blobs.length, files, bytes, maxBytes: this.maxBytes };
  }

  /**
   * Shrinks the cache below `maxBytes`: least recently used actions go first, each with the blobs
   * no remaining action refers to. Returns what was removed. Blobs no action refers to at all are
   * removed too, unless under a minute old: another run may have stored them and not yet the record.
   * So are the remembered digests of files that are gone or changed since (the memo can never trust
   * them again), whatever the cache's size.
   */
  async prune(maxBytes = this.maxBytes): Promise<PruneResult> {
    return await pruneCache(this.dir, maxBytes);
  }

  /** Removes everything. */
  async clear(): Promise<void> {
    await removeOldLayout(this.dir);
    const store = await ActionStore.open(this.dir, false);
    store?.deleteAll();
    store?.shrink();
    for (const sub of ["cas", "tmp"]) {
      await Deno.remove(join(this.dir, sub), { recursive: true }).catch(() => {});
    }
  }
}
