/**
 * Events a run emits, for progress displays and the CLI's `--json` NDJSON stream.
 *
 * @module
 */
import type { JsonValue } from "./node.ts";

/** A node's state change. `cached` means its result came from the memory or disk cache. */
export interface NodeEvent {
  readonly event: "node";
  readonly id: string;
  readonly type: string;
  readonly state: "running" | "cached" | "done" | "failed" | "skipped";
  /** Wall time of the node's own work (or of the cache lookup), in milliseconds. */
  readonly ms?: number;
  /** Which cache tier served it. */
  readonly tier?: "memory" | "disk";
  readonly error?: Record<string, unknown>;
}

/** A warning raised by a node (also replayed when its result comes from the cache). */
export interface WarningEvent {
  readonly event: "warning";
  readonly id: string;
  readonly type: string;
  readonly message: string;
  readonly detail?: Record<string, JsonValue>;
}

/** Any run event. */
export type RunEvent = NodeEvent | WarningEvent;

/** Receives run events. */
export type EventSink = (event: RunEvent) => void;
