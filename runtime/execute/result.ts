/**
 * What a run of a plan produced, and how each node fared (re-exported by `executor.ts`).
 *
 * @module
 */
import type { WarningEvent } from "../events.ts";
import type { FileDigest } from "../cache/disk.ts";

/** How one node fared. */
export interface NodeReport {
  /** The node's type id. */
  readonly type: string;
  /**
   * `cached`: served from a cache tier; `skipped`: an upstream node failed, so it never ran; `done`:
   * ran, also after being found cached when a consumer then needed values the cache had not kept
   * (a corrupt blob, a result cheaper to compute again): its events then say `cached`, `running`,
   * `done`, and its warnings once.
   */
  readonly state: "done" | "cached" | "failed" | "skipped";
  /** Wall time of the node's own work (or of the cache lookup) in milliseconds; 0 when skipped. */
  readonly ms: number;
  /** Cache key (SHA-256 hex) of the result; undefined for failed and skipped nodes. */
  readonly key?: string;
  /** Which cache tier served the result; undefined unless `state` is `cached`. */
  readonly tier?: "memory" | "disk" | "remote";
}

/** What a run produced. */
export interface RunResult {
  /** Graph outputs by name. */
  readonly outputs: Record<string, unknown>;
  /** Per-node outcome, for the nodes that were needed. */
  readonly nodes: Record<string, NodeReport>;
  /** Every warning raised, including those replayed from cached results, in the order emitted. */
  readonly warnings: WarningEvent[];
  /** Every file read (absolute paths), with digests. */
  readonly reads: FileDigest[];
  /** Every file written (paths relative to the output directory), with digests. */
  readonly writes: FileDigest[];
}
