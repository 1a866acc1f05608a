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
import type { CacheHit } from "../cache/tiers.ts";
import { forgetWritten } from "../scene/written_memo.ts";
import { settleExtras } from "../scene/copy.ts";

/**
 * Counts the input loads still to come of each node's values (one per consuming socket) and lets
 * the values go after the last; never those of a node a graph output names. A consumer that loads
 * again anyway (a corrupt cache blob recomputed) gets them recomputed or re-read, never a wrong
 * value: letting go costs time at worst.
 */
class ValueReleases {
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

/** A cache hit's values as a run hands them out; `release` when they are let go. */
export interface ServedHit {
  load(): Promise<Record<string, unknown> | undefined>;
  release?(): void;
}

/** Marks a scene that more than one holder may see: nobody may own it. */
const SHARED = Symbol("shared");

/**
 * The values of a run that lets them go (see {@link ValueReleases}), and which scenes a consumer
 * may change in place. A scene is ownable while exactly one node holds it: the node that produced it
 * (computed, or decoded afresh from a disk or remote blob), with one consuming socket and no graph
 * output, whose values are let go as that consumer loads them. A scene served by the memory tier,
 * given as a graph input, or produced by two nodes (a pass-through of a value someone else may
 * hold) is shared for the rest of the run. Every cache tier already holds its own encoding when a
 * consumer takes the scene: the executor stores a result (encoded to bytes) before it hands it on,
 * and the writer's memo of the last written scene is forgotten as ownership passes.
 */
export class Ownership {
  readonly #releases: ValueReleases;
  /** Each scene's only holder (a node id), or SHARED once anyone else may see it. */
  readonly #holders = new WeakMap<Document, string | typeof SHARED>();

  /** The values of one run of `plan`; its graph inputs' values are the caller's. */
  constructor(plan: Plan) {
    this.#releases = new ValueReleases(plan);
    this.shared(Object.values(plan.inputValues));
  }

  /**
   * One consumer of node `id` has loaded `value` from it; `release` lets the node's values go after
   * the last. True, once, when this consumer now owns the scene and may change it in place.
   */
  consumed(id: string, release: (() => void) | undefined, value: unknown): boolean {
    this.#releases.consumed(id, release); // first: then no tier or evaluation hands the value out
    return this.#take(id, value);
  }

  /** Node `id` returned (or decoded from a blob) `outputs`: its scenes are its own unless seen before. */
  produced(id: string, outputs: Readonly<Record<string, unknown>>): void {
    const mine = this.#releases.hasSoleConsumer(id);
    for (const value of Object.values(outputs)) {
      if (!(value instanceof Document)) continue;
      this.#holders.set(value, mine && !this.#holders.has(value) ? id : SHARED);
    }
  }

  /**
   * A cache hit's values as this run hands them out. A memory hit's are shared at once (the tier
   * and the node that stored them hold them too); a blob's are decoded for node `id` alone. Once let
   * go, `load` gives undefined (the executor recomputes) rather than the same decoded objects again,
   * which their consumer may have changed.
   */
  async served(id: string, hit: CacheHit): Promise<ServedHit> {
    if (hit.tier === "memory") this.shared(Object.values(await hit.load() ?? {}));
    let released = false;
    return {
      load: async () => {
        const outputs = released ? undefined : await hit.load();
        if (outputs) this.produced(id, outputs); // a memory hit's stay shared: seen before
        return outputs;
      },
      release: () => void (released = true),
    };
  }

  /** `values` may be seen by others (the memory tier served them, a caller keeps them). */
  shared(values: Iterable<unknown>): void {
    for (const value of values) if (value instanceof Document) this.#holders.set(value, SHARED);
  }

  #take(id: string, value: unknown): boolean {
    if (!(value instanceof Document) || this.#holders.get(value) !== id) return false;
    this.#holders.delete(value); // passed on again (returned as is), it is its new producer's
    return true;
  }
}

/**
 * Readies an owned scene for changes in place, when its owner first asks (`ctx.owns`): the writer's
 * memo of it is forgotten (it would hand out the bytes of the scene as it was), and its extras are
 * settled, so the owner reads what it would read in a copy. An owner that never asks changes
 * nothing, and keeps the memo: `export.gltf` then reuses the GLB the cache tier just wrote.
 */
export function readyForChange(scene: Document): void {
  forgetWritten(scene);
  settleExtras(scene);
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
