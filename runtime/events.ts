/**
 * Events a run emits, for progress displays and the CLI's `--json` NDJSON stream.
 *
 * @module
 */
import type { JsonValue } from "./node.ts";

/** A node's state change. `cached` means its result came from the memory, disk or remote cache. */
export interface NodeEvent {
  /** Discriminates the event kind. */
  readonly event: "node";
  /** The node's flattened id (`group/inner` inside node groups). */
  readonly id: string;
  /** The node's type id. */
  readonly type: string;
  /** `running` when its own work starts; `skipped` when an upstream node failed, so it never ran. */
  readonly state: "running" | "cached" | "done" | "failed" | "skipped";
  /** Wall time of the node's own work (or of the cache lookup), in milliseconds. */
  readonly ms?: number;
  /** Which cache tier served it. */
  readonly tier?: "memory" | "disk" | "remote";
  /** The failure as JSON (a `NodeFailure`'s `toJSON()`); present only when `state` is `failed`. */
  readonly error?: Record<string, unknown>;
}

/** A warning raised by a node (also replayed when its result comes from the cache). */
export interface WarningEvent {
  /** Discriminates the event kind. */
  readonly event: "warning";
  /** The flattened id of the node that warned. */
  readonly id: string;
  /** The type id of the node that warned. */
  readonly type: string;
  /** The warning, for people. */
  readonly message: string;
  /** Structured data the node attached (e.g. counts or names), for tools. */
  readonly detail?: Record<string, JsonValue>;
}

/** Any run event. */
export type RunEvent = NodeEvent | WarningEvent;

/** Receives run events. */
export type EventSink = (event: RunEvent) => void;
