/**
 * The two cache tiers behind one lookup: in-memory results for this process, then the disk store.
 * A hit is only a promise of outputs: values are decoded from disk when something needs them, so a
 * warm run whose final results are cached never decodes the scenes in between.
 *
 * @module
 */
import type { JsonValue, SocketSpecs, SocketType } from "../node.ts";
import type { ActionRecord, DiskCache, FileDigest } from "./disk.ts";
import { decodeValue, encodeValue } from "./codec.ts";
import type { RecordExpectation } from "./record_schema.ts";

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
  readonly tier: "memory" | "disk";
  readonly entry: Omit<MemoryEntry, "outputs">;
  load(): Promise<Record<string, unknown> | undefined>;
}

/** Checks that a cached result's file dependencies still hold. */
export type Validity = (entry: Omit<MemoryEntry, "outputs">) => Promise<boolean>;

/** Memory and disk tiers. */
export class CacheTiers {
  readonly memory: Map<string, MemoryEntry>;
  readonly disk?: DiskCache;

  constructor(memory: Map<string, MemoryEntry>, disk?: DiskCache) {
    this.memory = memory;
    this.disk = disk;
  }

  /**
   * Finds a still-valid result for a key, memory first. A disk record that is damaged or does not
   * match `expect` (the node's type and outputs) is a miss, reported to `onDamage`.
   */
  async lookup(
    key: string,
    stillValid: Validity,
    expect?: RecordExpectation,
    onDamage?: (message: string) => void,
  ): Promise<CacheHit | undefined> {
    const inMemory = this.memory.get(key);
    if (inMemory) {
      if (await stillValid(inMemory)) {
        return { tier: "memory", entry: inMemory, load: () => Promise.resolve({ ...inMemory.outputs }) };
      }
      this.memory.delete(key);
    }
    const disk = this.disk;
    if (!disk) return undefined;
    const record = await disk.lookup(key, expect, onDamage);
    if (!record || !(await stillValid(record))) return undefined;
    let loading: Promise<Record<string, unknown> | undefined> | undefined;
    const load = () =>
      loading ??= (async () => {
        const outputs: Record<string, unknown> = {};
        for (const [name, stored] of Object.entries(record.outputs)) {
          // A corrupt or missing blob, or bytes that do not decode as the recorded type: the
          // caller recomputes.
          const bytes = await disk.readOutput(stored);
          const value = bytes &&
            await decodeValue(stored.type, { bytes, meta: stored.meta }).catch(() => undefined);
          if (value === undefined) {
            await disk.discard(key);
            onDamage?.(
              `cache: damaged value '${name}' of record ${key.slice(0, 12)}… discarded and recomputed`,
            );
            return undefined;
          }
          outputs[name] = value;
        }
        this.memory.set(key, { ...record, outputs });
        return outputs;
      })();
    return { tier: "disk", entry: record, load };
  }

  /** Keeps a fresh result in memory and, when there is a disk tier, on disk. */
  async store(key: string, type: string, specs: SocketSpecs, entry: MemoryEntry): Promise<void> {
    this.memory.set(key, entry);
    if (!this.disk) return;
    const encoded: Record<string, { type: SocketType; bytes: Uint8Array; meta?: JsonValue }> = {};
    for (const [name, spec] of Object.entries(specs)) {
      encoded[name] = { type: spec.type, ...await encodeValue(spec.type, entry.outputs[name]) };
    }
    const { warnings, reads, writes } = entry;
    await this.disk.store(key, { type, warnings, reads, writes }, encoded);
  }
}
