/**
 * The content-addressed disk tier of the cache, laid out like a remote-execution cache so it can
 * later be served over HTTP: `ac/<key>.json` maps an action key to its outputs' digests, `cas/<sha>`
 * holds the blobs. Blobs are verified on read (a corrupt or truncated entry is discarded and
 * recomputed, never used); every write is atomic (temp file + rename), so concurrent runs sharing a
 * directory are safe.
 *
 * @module
 */
import { join } from "node:path";
import type { JsonValue, SocketType } from "../node.ts";
import { sha256Hex } from "../canonical.ts";
import { atomicWrite } from "../fs.ts";
import { type EncodedOutput, packAction, type PackedAction, parseActionRecord } from "./record.ts";
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
}

/** A file an action read or wrote, with the digest its result depends on. */
export interface FileDigest {
  /** The file's path (a directory listing's ends in `/*`); the holding field says relative to what. */
  readonly path: string;
  /**
   * SHA-256 (hex) of the contents (of the sorted entry names, for a directory listing), or `"absent"`
   * for a read that failed.
   */
  readonly sha256: string;
}

/** What the cache remembers about one node run. */
export interface ActionRecord {
  /** Record format version; records of another version are discarded. */
  readonly version: 1;
  /** Type id of the node that produced the result. */
  readonly type: string;
  /** The node's outputs by socket name. */
  readonly outputs: Readonly<Record<string, StoredOutput>>;
  /** Warnings the node raised, replayed whenever the record is reused. */
  readonly warnings: readonly { message: string; detail?: Record<string, JsonValue> }[];
  /** Files (and directory listings) the node read; the record is only reused while they are unchanged. */
  readonly reads: readonly FileDigest[];
  /** Files the node wrote; the record is only reused while they still hold these bytes. */
  readonly writes: readonly FileDigest[];
}

/** Size figures of a cache directory. */
export interface CacheStats {
  /** The cache directory. */
  readonly dir: string;
  /** Number of action records (cached node results) under `ac/`. */
  readonly actions: number;
  /** Number of output blobs under `cas/` (small outputs live inline in records, not here). */
  readonly blobs: number;
  /** Total size of records and blobs, in bytes. */
  readonly bytes: number;
  /** The size cap pruning shrinks the cache below, in bytes. */
  readonly maxBytes: number;
}

/** Default size cap: 2 GiB. */
export const DEFAULT_MAX_BYTES = 2 * 1024 ** 3;

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
  /** The cache directory; created on first store. */
  readonly dir: string;
  /** Size cap in bytes that `prune()` shrinks the cache below by default. */
  readonly maxBytes: number;

  /** Opens (without touching the disk) the cache in `dir`, capped at `maxBytes` (default 2 GiB). */
  constructor(dir: string, maxBytes = DEFAULT_MAX_BYTES) {
    this.dir = dir;
    this.maxBytes = maxBytes;
  }

  #actionPath(key: string): string {
    return join(this.dir, "ac", key.slice(0, 2), `${key}.json`);
  }

  #blobPath(digest: string): string {
    return join(this.dir, "cas", digest.slice(0, 2), digest);
  }

  /**
   * The action record for a key, or undefined. A record that is unreadable, not of the record's
   * shape, or not what `expect` describes is discarded (so it is recomputed and overwritten) and
   * reported to `onDamage`.
   */
  async lookup(
    key: string,
    expect?: RecordExpectation,
    onDamage?: (message: string) => void,
  ): Promise<ActionRecord | undefined> {
    const path = this.#actionPath(key);
    let text: string;
    try {
      // Records are small: a synchronous read costs a fraction of an async one.
      text = Deno.readTextFileSync(path);
    } catch {
      return undefined;
    }
    const record = parseActionRecord(text, expect);
    if (typeof record !== "string") {
      this.#touch(path);
      return record;
    }
    await this.discard(key);
    onDamage?.(`cache: damaged record ${key.slice(0, 12)}… discarded and recomputed (${record})`);
    return undefined;
  }

  /** Marks a record as recently used, for pruning; failure to touch is harmless. */
  #touch(path: string): void {
    try {
      const now = new Date();
      Deno.utimeSync(path, now, now);
    } catch { /* a concurrent prune removed it */ }
  }

  /**
   * Adds to the bytes stored since the last prune and says whether a prune is due: the folder is
   * only scanned after writes of 5 % of the cap, so small runs never pay for a full scan. The
   * counter is approximate under concurrent runs, which only shifts when the next scan happens.
   */
  noteStored(bytes: number): boolean {
    const path = join(this.dir, "stored-since-prune");
    let total = bytes;
    try {
      total += Number(Deno.readTextFileSync(path)) || 0;
    } catch { /* first write */ }
    const due = total >= this.maxBytes * 0.05;
    try {
      Deno.mkdirSync(this.dir, { recursive: true });
      Deno.writeTextFileSync(path, String(due ? 0 : total));
    } catch { /* read-only cache: pruning is the owner's business */ }
    return due;
  }

  /** The verified bytes of one stored output, or undefined when missing or corrupt (then deleted). */
  async readOutput(output: StoredOutput): Promise<Uint8Array | undefined> {
    let bytes: Uint8Array;
    if (output.inline !== undefined) {
      try {
        bytes = Uint8Array.fromBase64(output.inline);
      } catch {
        return undefined; // not base64: as corrupt as a blob with the wrong digest
      }
    } else {
      try {
        bytes = await Deno.readFile(this.#blobPath(output.digest));
      } catch {
        return undefined;
      }
    }
    if (bytes.byteLength !== output.size || sha256Hex(bytes) !== output.digest) {
      if (output.inline === undefined) await Deno.remove(this.#blobPath(output.digest)).catch(() => {});
      return undefined;
    }
    return bytes;
  }

  /** Stores an action's outputs (blobs first, then the record, so a record never points nowhere). */
  async store(
    key: string,
    record: Omit<ActionRecord, "outputs" | "version">,
    outputs: Record<string, EncodedOutput>,
  ): Promise<PackedAction> {
    const packed = packAction(record, outputs);
    await this.storePacked(key, packed);
    return packed;
  }

  /** Stores a packed action (blobs first, then the record, so a record never points nowhere). */
  async storePacked(key: string, { record, blobs }: PackedAction): Promise<void> {
    for (const [digest, bytes] of blobs) await this.storeBlob(digest, bytes);
    const recordBytes = new TextEncoder().encode(JSON.stringify(record));
    await atomicWrite(this.#actionPath(key), recordBytes);
    this.#storedThisProcess += recordBytes.byteLength;
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
    await Deno.remove(this.#actionPath(key)).catch(() => {});
  }

  /** Counts actions, blobs and bytes. */
  async stats(): Promise<CacheStats> {
    const actions = await listFiles(join(this.dir, "ac"));
    const blobs = await listFiles(join(this.dir, "cas"));
    const bytes = [...actions, ...blobs].reduce((sum, f) => sum + f.size, 0);
    return { dir: this.dir, actions: actions.length, blobs: blobs.length, bytes, maxBytes: this.maxBytes };
  }

  /**
   * Shrinks the cache below `maxBytes`: least recently used actions go first, then every blob no
   * remaining action refers to. Returns what was removed.
   */
  async prune(maxBytes = this.maxBytes): Promise<{ actions: number; blobs: number; bytes: number }> {
    const actions = (await listFiles(join(this.dir, "ac"))).sort((a, b) =>
      a.mtime - b.mtime || (a.path < b.path ? -1 : 1)
    );
    const blobs = await listFiles(join(this.dir, "cas"));
    let total = [...actions, ...blobs].reduce((sum, f) => sum + f.size, 0);
    const removed = { actions: 0, blobs: 0, bytes: 0 };
    if (total <= maxBytes) return removed;
    const live = new Map<string, (typeof actions)[number]>();
    for (const action of actions) live.set(action.path, action);
    const referenced = async () => {
      const digests = new Set<string>();
      for (const action of live.values()) {
        try {
          const record = JSON.parse(await Deno.readTextFile(action.path)) as ActionRecord;
          for (const out of Object.values(record.outputs)) digests.add(out.digest);
        } catch { /* unreadable records hold nothing */ }
      }
      return digests;
    };
    let blobSet = blobs;
    for (const action of actions) {
      if (total <= maxBytes) break;
      await Deno.remove(action.path).catch(() => {});
      live.delete(action.path);
      removed.actions++;
      removed.bytes += action.size;
      total -= action.size;
      // Reclaim orphaned blobs as we go, so we stop as soon as we are under the cap.
      const keep = await referenced();
      const next = [];
      for (const blob of blobSet) {
        if (keep.has(blob.name)) next.push(blob);
        else {
          await Deno.remove(blob.path).catch(() => {});
          removed.blobs++;
          removed.bytes += blob.size;
          total -= blob.size;
        }
      }
      blobSet = next;
    }
    return removed;
  }

  /** Removes everything. */
  async clear(): Promise<void> {
    for (const sub of ["ac", "cas", "tmp"]) {
      await Deno.remove(join(this.dir, sub), { recursive: true }).catch(() => {});
    }
  }
}

interface FileInfo {
  path: string;
  name: string;
  size: number;
  mtime: number;
}

async function listFiles(dir: string): Promise<FileInfo[]> {
  const out: FileInfo[] = [];
  let shards: Deno.DirEntry[];
  try {
    shards = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return out;
  }
  for (const shard of shards) {
    if (!shard.isDirectory) continue;
    for await (const entry of Deno.readDir(join(dir, shard.name))) {
      if (!entry.isFile || entry.name.includes(".tmp-")) continue;
      const path = join(dir, shard.name, entry.name);
      const info = await Deno.stat(path).catch(() => undefined);
      if (info) out.push({ path, name: entry.name, size: info.size, mtime: info.mtime?.getTime() ?? 0 });
    }
  }
  return out;
}
