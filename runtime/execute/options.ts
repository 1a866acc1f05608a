/**
 * The options of a run of a plan (`executePlan`): where files go, which cache tiers it uses, what it
 * returns and whom it tells.
 *
 * @module
 */
import type { EventSink } from "../events.ts";
import type { DiskCache } from "../cache/disk.ts";
import type { MemoryEntry } from "../cache/tiers.ts";
import type { RemoteCache } from "../cache/remote.ts";

/** Options of {@link executePlan}. */
export interface ExecuteOptions {
  /** Output directory that write paths resolve in. */
  readonly outDir: string;
  /** Directory read paths resolve against (default: the working directory). */
  readonly cwd?: string;
  /** In-memory tier; pass the same map to later runs to keep results warm. */
  readonly memory?: Map<string, MemoryEntry>;
  /** Disk tier; omit for no disk cache. */
  readonly disk?: DiskCache;
  /** Bypass every cache tier (nothing read, nothing stored). */
  readonly noCache?: boolean;
  /** Shared remote tier, looked up after the disk and written with it; omit for none. */
  readonly remote?: RemoteCache;
  /** Recompute every node, never reading a cache tier, but store the fresh results (e.g. `verify`). */
  readonly refresh?: boolean;
  /**
   * Graph outputs to return (default: all). Others still run (they may write files) but their values
   * are never loaded, so a warm run that only writes files decodes nothing.
   */
  readonly outputs?: readonly string[];
  /** Called synchronously for every node state change and warning, in the order they happen. */
  readonly onEvent?: EventSink;
  /** With `noCache`, false hashes no file (listed `"unhashed"`, sources keyed by path); else ignored. */
  readonly fileDigests?: boolean;
}
