/**
 * Run hints: the action keys one run of a graph looked up (and the blobs it took), kept on the remote cache under a key made
 * of the graph's shape and its sources' keys, so the next machine to run it on the same inputs asks
 * for every record at once instead of one round trip per node. A node's key depends on its inputs'
 * records (the files they read), so without a hint a chain of N nodes costs N round trips in a row:
 * over a link of 20 ms, most of a build served by the remote.
 *
 * A hint only decides what is fetched early. Every key is still computed as always and every record
 * checked as always, so a stale, foreign or hostile hint costs requests (bounded by the plan's size),
 * never a wrong result.
 *
 * @module
 */
import { canonicalJson, sha256Hex } from "../canonical.ts";
import type { PlanNode } from "../plan.ts";
import { upstreamOf } from "../execute/schedule.ts";
import { actionResultOf, recordOfActionResult } from "./action_result.ts";
import type { RemoteCache } from "./remote.ts";

/** What a hint's JSON says it is. */
const KIND = "partgraph run hint";

/**
 * The remote key of the hint for a run of `nodes` (the plan's evaluated nodes, in order) whose
 * source nodes have the keys `sources` (node id → action key).
 *
 * @example
 * ```ts
 * import { runHintKey } from "./run_hint.ts";
 * import type { PlanNode } from "../plan.ts";
 *
 * const nodes: PlanNode[] = []; // a compiled plan's nodes, in evaluation order
 * console.log(runHintKey(nodes, { read: "ab".repeat(32) }).length); // 64
 * ```
 */
export function runHintKey(nodes: readonly PlanNode[], sources: Readonly<Record<string, string>>): string {
  // A fingerprinted node's params (a model's path) are not in its key, its content is: machines that
  // keep the same files at other paths find each other's hints.
  const shape = nodes.map((node) => {
    const { def } = node;
    return [node.id, def.type, def.version, def.fingerprint ? null : node.params, node.inputs];
  });
  return sha256Hex(canonicalJson({ kind: KIND, version: 1, shape, sources }));
}

/** What a hint lists: action keys, and the blobs (SHA-256 hex, size) the run took from the remote. */
export interface Hint {
  readonly keys: readonly string[];
  readonly blobs: readonly (readonly [digest: string, size: number])[];
}

/** How many runs' keys a hint keeps (see {@link RunHint.upload}). */
export const HINT_RUNS = 2;

/** Blobs larger than this are not fetched before a node asks for them. */
const EARLY_BLOB_BYTES = 64 << 20;
/** Nor more than this in all, whatever a hint lists. */
const EARLY_BYTES = 256 << 20;

/** A hint's body: an `ActionResult` (as every record on the remote) carrying the hint. */
export function hintBody(hint: Hint): Uint8Array<ArrayBuffer> {
  const json = JSON.stringify({ kind: KIND, version: 1, keys: hint.keys, blobs: hint.blobs });
  return actionResultOf(new TextEncoder().encode(json), []);
}

/** The hint in a body (at most `limit` keys and blobs), or undefined when it is not a hint. */
export function hintOf(bytes: Uint8Array, limit: number): Hint | undefined {
  const record = recordOfActionResult(bytes);
  if (typeof record === "string") return undefined;
  let hint: unknown;
  try {
    hint = JSON.parse(new TextDecoder().decode(record));
  } catch {
    return undefined;
  }
  const { kind, keys, blobs = [] } = (hint ?? {}) as { kind?: unknown; keys?: unknown; blobs?: unknown };
  if (kind !== KIND || !Array.isArray(keys) || !Array.isArray(blobs)) return undefined;
  if (keys.length > limit || blobs.length > limit || !keys.every(isDigest)) return undefined;
  const sized = (blob: unknown) =>
    Array.isArray(blob) && blob.length === 2 && isDigest(blob[0]) && Number.isSafeInteger(blob[1]) &&
    blob[1] > 0;
  return blobs.every(sized) ? { keys, blobs } : undefined;
}

function isDigest(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}

/**
 * One run's use of the remote through its hint: the first lookup that goes to the remote once the
 * hint's key is known fetches the hint beside it, and asks at once for every record and blob the hint
 * lists; later lookups wait for that and take what was asked for early.
 */
export class RunHint {
  readonly #remote: RemoteCache;
  readonly #order: readonly PlanNode[];
  readonly #sources: readonly PlanNode[];
  /** Each node's cache key, once worked out. */
  readonly #keys = new Map<string, string>();
  /** The same keys, as a set. */
  readonly #nodeKeys = new Set<string>();
  #key?: string;
  #found?: Promise<Hint | undefined>;
  /** Keys asked for already, by a lookup or early. */
  readonly #asked = new Set<string>();
  readonly #early = new Map<string, Promise<Uint8Array | undefined>>();
  /** Blobs asked for early, by digest, and the blobs the run took from the remote. */
  readonly #earlyBlobs = new Map<string, Promise<Uint8Array | undefined>>();
  readonly #blobsTaken = new Map<string, number>();
  /** A lookup went to the remote or a result went up: the run's keys are worth a hint. */
  #used = false;

  /** The hint of a run of `order` (the plan's nodes it evaluates, upstream first), on `remote`. */
  constructor(remote: RemoteCache, order: readonly PlanNode[]) {
    this.#remote = remote;
    this.#order = order;
    this.#sources = order.filter((node) => !upstreamOf(node).length);
  }

  /** Notes a node's cache key; the hint's own key is known once every source node has its key. */
  keyed(node: PlanNode, key: string): void {
    this.#keys.set(node.id, key);
    this.#nodeKeys.add(key);
    if (this.#key || !this.#sources.every((source) => this.#keys.has(source.id))) return;
    this.#key = runHintKey(
      this.#order,
      Object.fromEntries(this.#sources.map((source) => [source.id, this.#keys.get(source.id)!])),
    );
  }

  /** The remote's record bytes for `key` (see `RemoteCache.getAction`), fetched early when the hint listed it. */
  async getAction(key: string): Promise<Uint8Array | undefined> {
    this.#used = true;
    if (this.#key && !this.#found) this.#found = this.#fetch(this.#key); // beside this lookup
    else await this.#found;
    const early = this.#early.get(key);
    this.#early.delete(key);
    this.#asked.add(key);
    const bytes = await (early ?? this.#remote.getAction(key));
    // Not a node's key: a read variant's (`read_variants.ts`), which the next run should ask for early too.
    if (bytes && !this.#nodeKeys.has(key)) this.#variants.add(key);
    return bytes;
  }

  /** Read variants' keys that the remote served to this run. */
  readonly #variants = new Set<string>();

  /** A blob from the remote (see `RemoteCache.getBlob`), fetched early when the hint listed it. */
  async getBlob(digest: string, size: number): Promise<Uint8Array | undefined> {
    await this.#found;
    const early = this.#earlyBlobs.get(digest);
    this.#earlyBlobs.delete(digest);
    const blob = await early ?? await this.#remote.getBlob(digest, size);
    if (blob) this.#blobsTaken.set(digest, size);
    return blob;
  }

  /** Notes that a result of the run went up. */
  uploaded(): void {
    this.#used = true;
  }

  /**
   * Uploads as the run's hint the keys of its cached nodes (upstream first) and of the read variants
   * the remote served it, then the keys of the hint it found that are not among them (up to
   * {@link HINT_RUNS} runs' worth), and the blobs it took from the remote; unless the hint found says
   * as much already (a run served from its own disk takes no blob, and leaves the blobs the hint
   * lists for the machines that need them). Machines whose files differ share one hint key while a
   * decode's dependents have other keys on each (read variants): each finds its own keys in the hint
   * instead of replacing the other's.
   */
  async upload(): Promise<void> {
    if (!this.#key || !this.#used) return;
    const own = [
      ...this.#order.filter((node) => node.def.cache !== false).map((node) => this.#keys.get(node.id)!),
      ...this.#variants,
    ];
    const found = await this.#found;
    const listed = new Set(found?.blobs.map(([digest]) => digest));
    const foundKeys = new Set(found?.keys);
    if (own.every((key) => foundKeys.has(key)) && [...this.#blobsTaken.keys()].every((d) => listed.has(d))) {
      return;
    }
    const ownKeys = new Set(own);
    const keys = [...own, ...foundKeys].filter((key, i) => i < own.length || !ownKeys.has(key));
    await this.#remote.putAction(
      this.#key,
      hintBody({ keys: keys.slice(0, this.#limit), blobs: [...this.#blobsTaken] }),
    );
  }

  /** The most keys (and blobs) a hint of this run's plan lists. */
  get #limit(): number {
    return HINT_RUNS * this.#order.length;
  }

  async #fetch(hintKey: string): Promise<Hint | undefined> {
    const bytes = await this.#remote.getAction(hintKey);
    const hint = bytes && hintOf(bytes, this.#limit);
    for (const key of hint?.keys ?? []) {
      if (this.#asked.has(key) || this.#early.has(key)) continue;
      this.#early.set(key, this.#remote.getAction(key).catch(() => undefined));
    }
    let early = 0;
    for (const [digest, size] of hint?.blobs ?? []) {
      if (size > EARLY_BLOB_BYTES || early + size > EARLY_BYTES || this.#earlyBlobs.has(digest)) continue;
      early += size;
      // A hint may list blobs the server no longer holds: no warning until a record needs one.
      this.#earlyBlobs.set(digest, this.#remote.getBlob(digest, size, true).catch(() => undefined));
    }
    return hint;
  }
}
