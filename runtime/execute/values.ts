/**
 * A node's values in a run: checking what its run function returned, and letting them go once every
 * consumer has loaded them, so a big model's input bytes do not outlive its decode.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import type { BytesValue } from "../node.ts";
import { jsTypeOf } from "../params.ts";
import type { Plan, PlanNode } from "../plan.ts";

/**
 * Counts the input loads still to come of each node's values (one per consuming socket) and lets
 * the values go after the last; never those of a node a graph output names. A consumer that loads
 * again anyway (a corrupt cache blob recomputed) gets them recomputed or re-read, never a wrong
 * value: letting go costs time at worst.
 */
export class ValueReleases {
  readonly #pending = new Map<string, number>();

  /** Counts the consumers of every node of `plan`. */
  constructor(plan: Plan) {
    for (const node of plan.nodes.values()) {
      for (const source of Object.values(node.inputs)) {
        if ("node" in source) this.#pending.set(source.node, (this.#pending.get(source.node) ?? 0) + 1);
      }
    }
    for (const source of Object.values(plan.outputs)) if ("node" in source) this.#pending.delete(source.node);
  }

  /** One consumer of node `id` has loaded its values; `release` lets them go after the last. */
  consumed(id: string, release: (() => void) | undefined): void {
    const left = this.#pending.get(id);
    if (left === undefined) return;
    this.#pending.set(id, left - 1);
    if (left === 1) release?.();
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
