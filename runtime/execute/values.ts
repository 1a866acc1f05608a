/**
 * A node's values in a run: checking what its run function returned, letting them go once every
 * consumer has loaded them (so a big model's input bytes do not outlive its decode), and handing a
 * scene to its one consumer to change in place when nothing else can see it again (`ctx.owns`).
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import type { BytesValue } from "../node.ts";
import { jsTypeOf } from "../params.ts";
import type { Plan, PlanNode } from "../plan.ts";
import { forgetWritten } from "../scene/gltf_io.ts";
import { settleExtras } from "../scene/copy.ts";

/**
 * Counts the input loads still to come of each node's values (one per consuming socket) and lets
 * the values go after the last; never those of a node a graph output names. A consumer that loads
 * again anyway (a corrupt cache blob recomputed) gets them recomputed or re-read, never a wrong
 * value: letting go costs time at worst.
 */
export class ValueReleases {
  readonly #pending = new Map<string, number>();
  /** Nodes with exactly one consuming socket that no graph output names. */
  readonly #soleConsumed = new Set<string>();

  /** Counts the consumers of every node of `plan`. */
  constructor(plan: Plan) {
    for (const node of plan.nodes.values()) {
      for (const source of Object.values(node.inputs)) {
        if ("node" in source) this.#pending.set(source.node, (this.#pending.get(source.node) ?? 0) + 1);
      }
    }
    for (const source of Object.values(plan.outputs)) if ("node" in source) this.#pending.delete(source.node);
    for (const [id, count] of this.#pending) if (count === 1) this.#soleConsumed.add(id);
  }

  /** True when node `id` has exactly one consuming socket in the plan and is no graph output. */
  hasSoleConsumer(id: string): boolean {
    return this.#soleConsumed.has(id);
  }

  /** One consumer of node `id` has loaded its values; `release` lets them go after the last. */
  consumed(id: string, release: (() => void) | undefined): void {
    const left = this.#pending.get(id);
    if (left === undefined) return;
    this.#pending.set(id, left - 1);
    if (left === 1) release?.();
  }
}

/** Marks a scene that more than one holder may see: nobody may own it. */
const SHARED = Symbol("shared");

/**
 * Which scene values a consumer may change in place. A scene is ownable while exactly one node
 * holds it: the node that produced it (computed, or decoded afresh from a disk or remote blob), with
 * one consuming socket, no graph output, and its values let go (by {@link ValueReleases}) once that
 * consumer has loaded them. A scene served by the memory tier, given as a graph input, or produced
 * by two nodes (a pass-through of a value someone else may hold) is shared for the rest of the run.
 * Every cache tier already holds its own encoding when a consumer takes the scene: the executor
 * stores a result (encoded to bytes) before it hands it on, and the writer's memo of the last
 * written scene is forgotten as ownership passes.
 */
export class Ownership {
  readonly #releases: ValueReleases;
  /** Each scene's only holder (a node id), or SHARED once anyone else may see it. */
  readonly #holders = new WeakMap<Document, string | typeof SHARED>();

  /** Ownership in a run whose values `releases` lets go; `given` are values the caller keeps. */
  constructor(releases: ValueReleases, given: Iterable<unknown>) {
    this.#releases = releases;
    this.shared(given);
  }

  /** Node `id` returned (or decoded from a blob) `outputs`: its scenes are its own unless seen before. */
  produced(id: string, outputs: Readonly<Record<string, unknown>>): void {
    const mine = this.#releases.hasSoleConsumer(id);
    for (const value of Object.values(outputs)) {
      if (!(value instanceof Document)) continue;
      this.#holders.set(value, mine && !this.#holders.has(value) ? id : SHARED);
    }
  }

  /** `values` may be seen by others (the memory tier served them, a caller keeps them). */
  shared(values: Iterable<unknown>): void {
    for (const value of values) if (value instanceof Document) this.#holders.set(value, SHARED);
  }

  /**
   * The sole consumer of node `id` loaded `value` (and the values were let go): true, once, when it
   * now owns the scene and may change it in place.
   */
  take(id: string, value: unknown): boolean {
    if (!(value instanceof Document) || this.#holders.get(value) !== id) return false;
    this.#holders.delete(value); // passed on again (returned as is), it is its new producer's
    forgetWritten(value);
    settleExtras(value); // the owner reads what it would read in a copy
    return true;
  }
}

/** A run function must return every declared output with a value of its type. */
export function checkOutputs(node: PlanNode, outputs: Record<string, unknown>): void {
  if (!outputs || typeof outputs !== "object") throw new Error("run() must return an object of outputs");
  for (const [name, spec] of Object.entries(node.def.outputs)) {
    const value = outputs[name];
    const ok = spec.type === "scene"
      ? value instanceof Document
      : spec.type === "bytes"
      ? (value as BytesValue)?.bytes instanceof Uint8Array && typeof (value as BytesValue).name === "string"
      : spec.type === "json"
      ? value !== undefined
      : jsTypeOf(value) === spec.type;
    if (!ok) throw new Error(`output '${name}' must be a ${spec.type} value`);
  }
}
