/**
 * A node run on a scene handed over to it, as `partgraph run` and `batch` hand a step's scene to its
 * one consumer: `ctx.owns("scene")` is true, and the scene is readied for change in place the first
 * time the node asks, as the executor readies it (`readyForChange`: the writer's memo forgotten, the
 * extras settled). The caller must hold the scene nowhere else afterwards.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { AnyNodeDef, JsonValue } from "../../runtime/node.ts";
import { readyForChange } from "../../runtime/execute/values.ts";
import { runNode, type TestContext, testContext } from "./context.ts";

/**
 * Runs `node` with `scene` on its `scene` input, owned (see the module doc); warnings go to `ctx`,
 * and a node it invokes owns nothing, as in a run.
 *
 * @example
 * ```ts
 * const { scene } = await runHandedOver(rigParts, decoded); // `decoded` is not used again
 * ```
 */
export async function runHandedOver(
  node: AnyNodeDef,
  scene: Document,
  params: Record<string, JsonValue> = {},
  ctx: TestContext = testContext(),
  // deno-lint-ignore no-explicit-any
): Promise<Record<string, any>> {
  let readied = false;
  const owning: TestContext = {
    ...ctx, // the same warning list; `invoke` keeps the caller's context, which owns nothing
    owns(input) {
      if (input !== "scene") return false;
      if (!readied) readied = true, readyForChange(scene);
      return true;
    },
  };
  return await runNode(node, { scene }, params, owning);
}
