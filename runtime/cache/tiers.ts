/**
 * The cache tiers behind one lookup: in-memory results for this process, then the disk store, then
 * a shared remote cache. A hit is only a promise of outputs: values are decoded (and downloaded)
 * when something needs them, so a warm run whose final results are cached never decodes the scenes
 * in between. What the remote serves is written to the disk tier too; what is computed goes to both.
 *
 * @module
 */
import type { SocketSpecs } from "../node.ts";
import type { ActionRecord, DiskCache, FileDigest, StoredOutput } from "./disk.ts";
import { decodeValue, encodeValue } from "./codec.ts";
import {
  type EncodedOutput,
  packAction,
  type PackedAction,
  parseActionRecord,
  referToFiles,
  verifiedInline,
} from "./record.ts";
import type { RemoteCache } from "./remote.ts";
import { actionResultOf, recordOfActionResult } from "./action_result.ts";
import type { RunHint } from "./run_hint.ts";
import { type DerivedStore, withDerivedStore } from "../derived.ts";
import type { RecordExpectation } from "./record_schema.ts";
import { otherReadSets, readSetsOf, sameReads, type StaleResult, variantKey } from "./read_variants.ts";

/** A result kept in memory: decoded outputs plus what they depend on. */
export interface MemoryEntry {
  /** Output values by socket name, shared with every consumer (never mutate them). */
  readonly outputs: Readonly<Record<string, unknown>>;
  /** Warnings the node raised; replayed each time the result is reused. */
  readonly warnings: ActionRecord["warnings"];
  /** Files (and directory listings) the node read, as it named them; the result is stale once one changes. */
  readonly reads: readonly FileDigest[];
  /** Files the node wrote, relative to the output directory; the result is stale once one changes. */
  readonly writes: readonly FileDigest[];
}

/** A cache hit: its record, and a way to get its values (undefined when a blob turns out corrupt). */
export interface CacheHit {
  readonly tier: "memory" | "disk" | "remote";
  readonly entry: Omit<MemoryEntry, "outputs">;
  load(): Promise<Record<string, unknown> | undefined>;
}

/** Checks that a cached result's file dependencies still hold. */
export type Validity = (entry: Omit<MemoryEntry, "outputs">) => Promise<boolean>;

/** How {@link CacheTiers.lookup} checks what it finds, and whom it tells. */
export interface LookupCheck {
  /** Whether a result's file dependencies still hold. */
  readonly stillValid: Validity;
  /** The node's type and outputs, which a record must match. */
  readonly expect?: RecordExpectation;
  /** Hears of a damaged record or value (a miss). */
  readonly onDamage?: (message: string) => void;
  /** Hears of a miss in which no tier held anything for the key. */
  readonly onAbsent?: () => void;
  /**
   * What the files (and listings) at `paths` hold now (`TrackedFiles.readsNow`); given, a stale
   * result's read variants are looked up too.
   */
  readonly readsNow?: (paths: readonly string[]) => Promise<readonly FileDigest[]>;
}

/** Memory, disk and remote tiers. */
export class CacheTiers {
  readonly memory: Map<string, MemoryEntry>;
  readonly disk?: DiskCache;
  readonly remote?: RemoteCache;

  /** The run's hint on the remote (`run_hint.ts`), through which its lookups go. */
  readonly hint?: RunHint;
  /** Blobs the remote did not give (evicted, corrupt or unavailable: it says which): no damage here. */
  readonly #remoteLacked = new Set<string>();
  /** Keys whose record the remote served but whose written files are not here: computed again, not re-uploaded. */
  readonly #servedStale = new Set<string>();

  constructor(memory: Map<string, MemoryEntry>, disk?: DiskCache, remote?: RemoteCache, hint?: RunHint) {
    this.memory = memory;
    this.disk = disk;
    this.remote = remote;
    this.hint = hint;
  }

  /**
   * Finds a still-valid result for a key: memory, then disk, then the remote; then, when a tier held
   * a stale one and `check.readsNow` is given, the read variant that holds for the files as they are
   * now (`read_variants.ts`). A record that is damaged or does not match `check.expect` (the node's
   * type and outputs) is a miss, reported to `onDamage`, and so is a value that turns out corrupt or
   * undecodable when it is loaded. `onAbsent` hears of a miss in which no tier held anything for the
   * key (not even a stale or damaged record).
   */
  async lookup(key: string, check: LookupCheck): Promise<CacheHit | undefined> {
    const stale: StaleResult[] = [];
    const inMemory = this.memory.get(key);
    if (inMemory) {
      if (await check.stillValid(inMemory)) {
        return { tier: "memory", entry: inMemory, load: () => Promise.resolve({ ...inMemory.outputs }) };
      }
      this.memory.delete(key);
      stale.push(inMemory);
    }
    let held = false;
    const damaged = (message: string) => (held = true, check.onDamage?.(message));
    const found = await this.#fromDisk(key, key, check, stale, damaged) ??
      await this.#remoteLookup(key, key, check, stale, damaged);
    if (found || !stale.length) {
      if (!found && !held) check.onAbsent?.();
      return found;
    }
    return check.readsNow ? await this.#variantLookup(key, stale, check, check.readsNow, damaged) : undefined;
  }

  /**
   * The read variant of `key` that holds for the files as they are now, looked for under each read
   * set the stale results name; on a miss, the sets are kept for the result's {@link store}.
   */
  async #variantLookup(
    key: string,
    stale: readonly StaleResult[],
    check: LookupCheck,
    readsNow: NonNullable<LookupCheck["readsNow"]>,
    damaged: (message: string) => void,
  ): Promise<CacheHit | undefined> {
    const sets = readSetsOf(stale);
    const variants: string[] = [];
    for (const paths of sets) {
      const reads = await readsNow(paths);
      // The variant of the files as they are now, unless that is what was found stale (its writes are not here).
      if (!stale.some((result) => sameReads(result.reads, reads))) variants.push(variantKey(key, reads));
    }
    // Every variant on disk before any on the remote: a round trip only when this machine has none.
    for (const at of variants) {
      const hit = await this.#fromDisk(at, key, check, [], damaged);
      if (hit) return hit;
    }
    // On the remote all at once (one round trip, not one each); a deterministic node has at most one that holds.
    const remote = await Promise.all(variants.map((at) => this.#remoteLookup(at, key, check, [], damaged)));
    const hit = remote.find((found) => found !== undefined);
    if (!hit) this.#readSets.set(key, sets);
    return hit;
  }

  /**
   * The disk's still-valid record at `at` (`key` itself or one of its read variants), kept in memory
   * under `key` once loaded; a stale one is added to `stale`.
   */
  async #fromDisk(
    at: string,
    key: string,
    check: LookupCheck,
    stale: StaleResult[],
    damaged: (message: string) => void,
  ): Promise<CacheHit | undefined> {
    const disk = this.disk;
    const record = await disk?.lookup(at, check.expect, damaged);
    if (!record) return undefined;
    if (!(await check.stillValid(record))) {
      stale.push(record);
      return undefined;
    }
    // A record taken from the remote may point to blobs not downloaded yet: fetch them then.
    const read = async (stored: StoredOutput) =>
      await disk!.readOutput(stored) ?? await this.#remoteBlob(stored);
    return this.#hit("disk", at, key, record, read, check.onDamage);
  }

  /** The same for the remote's record at `at`, which is kept on disk too. */
  async #remoteLookup(
    at: string,
    key: string,
    check: LookupCheck,
    stale: StaleResult[],
    damaged: (message: string) => void,
  ): Promise<CacheHit | undefined> {
    const bytes = await (this.hint ?? this.remote)?.getAction(at);
    if (!bytes) return undefined;
    const body = recordOfActionResult(bytes);
    const parsed = typeof body === "string"
      ? `not an ActionResult: ${body}`
      : parseActionRecord(new TextDecoder().decode(body), check.expect);
    // A path is only meaningful on the machine that stored it (see StoredOutput.file).
    const record = typeof parsed === "string" || !Object.values(parsed.outputs).some((out) => out.file)
      ? parsed
      : "an output refers to a local file";
    if (typeof record === "string") {
      damaged(`remote cache: damaged record ${at.slice(0, 12)}… ignored and recomputed (${record})`);
      return undefined;
    }
    if (!(await check.stillValid(record))) {
      // Only what it wrote is missing here (a file write's output): computing it again gives the same
      // record, which the remote has. One whose reads changed gives a new record, which goes up.
      if (record.writes.length && await check.stillValid({ ...record, writes: [] })) {
        this.#servedStale.add(at);
      }
      stale.push(record);
      return undefined;
    }
    // Keep the record locally at once (its blobs follow when they are needed), so the next run
    // finds every step of this one on disk even if it never needed their values.
    await this.disk?.storePacked(at, { record, blobs: new Map() }).catch(() => {});
    return this.#hit("remote", at, key, record, (stored) => this.#remoteBlob(stored), check.onDamage);
  }

  /** A stored output's bytes from the remote, verified, and kept on disk too. */
  async #remoteBlob(stored: StoredOutput): Promise<Uint8Array | undefined> {
    if (stored.inline !== undefined) return verifiedInline(stored);
    const blob = await (this.hint ?? this.remote)?.getBlob(stored.digest, stored.size);
    if (blob) await this.disk?.storeBlob(stored.digest, blob).catch(() => {});
    else this.#remoteLacked.add(stored.digest);
    return blob;
  }

  /**
   * A hit on the record stored at `at`, for `key`, whose values are read (once, on demand) through
   * `read` and then kept in memory under `key`. A missing or corrupt blob, or bytes that do not
   * decode as the recorded type, discards the record: the caller recomputes.
   */
  #hit(
    tier: "disk" | "remote",
    at: string,
    key: string,
    record: ActionRecord,
    read: (stored: StoredOutput) => Promise<Uint8Array | undefined>,
    onDamage?: (message: string) => void,
  ): CacheHit {
    let loading: Promise<Record<string, unknown> | undefined> | undefined;
    const load = () =>
      loading ??= (async () => {
        if (record.recompute) return undefined; // no values kept: the caller runs the node again
        const outputs: Record<string, unknown> = {};
        for (const [name, stored] of Object.entries(record.outputs)) {
          const bytes = await read(stored);
          const value = bytes &&
            await decodeValue(stored.type, { bytes, meta: stored.meta }).catch(() => undefined);
          if (value === undefined) {
            await this.disk?.discard(at);
            // A file that moved or changed since is no damage: the node reads what is there now.
            if (stored.file && !bytes) return undefined;
            if (!bytes && this.#remoteLacked.has(stored.digest)) return undefined;
            onDamage?.(
              `cache: damaged value '${name}' of record ${at.slice(0, 12)}… discarded and recomputed`,
            );
            return undefined;
          }
          outputs[name] = value;
        }
        this.memory.set(key, { ...record, outputs });
        return outputs;
      })();
    return { tier, entry: record, load };
  }

  #derived?: Promise<DerivedStore | undefined>;

  /**
   * Runs a node's `work` with the disk tier as the store of the bytes it derives (`runtime/derived.ts`);
   * none without a disk tier. A `refresh` run recalls nothing, and keeps what it derives.
   */
  withDerivedStore<T>(work: () => T | Promise<T>, refresh = false): T | Promise<T> {
    if (!this.disk) return work(); // no store, no detour: a memory-only run pays nothing per node
    this.#derived ??= this.disk.derivedStore(!refresh);
    return this.#derived.then((store) => withDerivedStore(store, work));
  }

  /** Waits for the uploads under way and writes what the disk tier holds back for its next batch (at the end of a run). */
  async flush(): Promise<void> {
    while (this.#uploading.size) await Promise.all(this.#uploading);
    this.remote?.endOfRun(); // 403s nothing told apart from reads refused: one note
    await this.disk?.flush();
  }

  /**
   * Keeps a fresh result in memory and in the disk and remote tiers there are. `how.files` (digest
   * → absolute path) are the files the node read: an output that is one of them is kept on disk as a
   * reference to it (see {@link referToFiles}), on the remote as a blob. With `how.recompute`, the
   * disk and remote tiers get the record without the values (`ActionRecord.recompute`). With
   * `how.variants` (a node whose key does not cover what it reads), the record goes under its read
   * variant's key too, and names the read sets of the variants the lookup found stale.
   */
  async store(
    key: string,
    type: string,
    specs: SocketSpecs,
    entry: MemoryEntry,
    onLateFailure?: (error: unknown) => void,
    how: {
      readonly files?: ReadonlyMap<string, string>;
      readonly recompute?: boolean;
      readonly variants?: boolean;
    } = {},
  ): Promise<void> {
    this.memory.set(key, entry);
    const seen = this.#readSets.get(key) ?? [];
    this.#readSets.delete(key);
    const remote = this.remote?.down || this.remote?.readOnly ? undefined : this.remote;
    if (!this.disk && !remote) return;
    const { warnings, reads, writes } = entry;
    const encoded: Record<string, EncodedOutput> = {};
    for (const [name, spec] of Object.entries(how.recompute ? {} : specs)) {
      encoded[name] = { type: spec.type, ...await encodeValue(spec.type, entry.outputs[name]) };
    }
    const variants = how.variants && reads.length > 0;
    const readSets = variants ? otherReadSets(seen, reads) : [];
    const values = packAction(
      { type, warnings, reads, writes, ...readSets.length ? { readSets } : {} },
      encoded,
    );
    const packed = how.recompute
      ? { ...values, record: { ...values.record, recompute: true as const } }
      : values;
    const keys = variants ? [key, variantKey(key, reads)] : [key];
    await this.disk?.storePacked(keys, referToFiles(packed, how.files ?? new Map()), onLateFailure);
    // The upload goes on beside the run's next nodes (a round trip per request, even to a server on
    // the same machine); `flush` waits for it. A remote that fails only warns, so nothing is lost.
    const uploads = keys.filter((at) => !this.#servedStale.has(at));
    if (remote && uploads.length) {
      this.hint?.uploaded();
      const uploading = upload(remote, uploads, packed);
      this.#uploading.add(uploading);
      uploading.finally(() => this.#uploading.delete(uploading));
    }
  }

  /** Read sets of the stale records a lookup found for a key it then missed, for its {@link store}. */
  readonly #readSets = new Map<string, string[][]>();

  /** Uploads still under way (see {@link store}). */
  readonly #uploading = new Set<Promise<void>>();
}

/**
 * Uploads blobs first, then the record under each of `keys` (as an `ActionResult` listing them:
 * `action_result.ts`), so a record on the server never points nowhere.
 */
async function upload(
  remote: RemoteCache,
  keys: readonly string[],
  { record, blobs }: PackedAction,
): Promise<void> {
  // A blob the server would not take (too large for it) leaves the record here: it would point nowhere.
  for (const [digest, bytes] of blobs) if (!await remote.putBlob(digest, bytes)) return;
  const listed = Object.entries(record.outputs)
    .filter(([, stored]) => stored.inline === undefined)
    .map(([path, { digest, size }]) => ({ path, digest, size }));
  const body = actionResultOf(new TextEncoder().encode(JSON.stringify(record)), listed);
  for (const key of keys) await remote.putAction(key, body);
}
