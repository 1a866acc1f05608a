/**
 * Node run functions kept out of the node's declaration: a built-in node file declares the node
 * (type, doc, sockets, parameters — all that listing, checking and documenting it need) and names
 * the module that does its work, which is imported on the node's first run. `partgraph nodes`,
 * `check` and `schema` then load no glTF-Transform, codec or hashing code.
 *
 * @module
 */
import type { NodeDef } from "./node.ts";

/**
 * The run function of a declared node, as its implementation module exports it for {@link lazyRun}.
 *
 * @example
 * ```ts ignore
 * // fit_hinge_run.ts, beside the declaration in fit_hinge.ts:
 * import type { NodeRun } from "./lazy_run.ts";
 * import type { rigFitHinge } from "./fit_hinge.ts";
 * export const run: NodeRun<typeof rigFitHinge> = ({ inputs, params, ctx }) => ({ scene: inputs.scene });
 * ```
 */
export type NodeRun<N> = N extends NodeDef<infer I, infer O, infer P> ? NodeDef<I, O, P>["run"] : never;

/**
 * A node's `run` kept in another module, imported on the node's first run (and shared by every
 * later one). The module exports `run`, typed with {@link NodeRun} against the declaration: the
 * declaration cannot name the module's type without a type cycle, so that export is where the
 * signature is checked.
 *
 * @example
 * ```ts ignore
 * export const rigFitHinge = defineNode({
 *   type: "rig.fit_hinge", version: 4, doc: "…", inputs: { … }, outputs: { … }, params: { … },
 *   run: lazyRun(() => import("./fit_hinge_run.ts")),
 * });
 * ```
 */
export function lazyRun(load: () => Promise<unknown>): (args: never) => Promise<never> {
  let loading: Promise<(args: unknown) => unknown> | undefined;
  const loadRun = () =>
    load().then((module) => {
      const run = (module as { run?: unknown } | undefined)?.run;
      if (typeof run !== "function") throw new TypeError("a node's implementation module must export `run`");
      return run as (args: unknown) => unknown;
    }, (error) => {
      loading = undefined; // a failed import (a module being edited) is tried again on the next run
      throw error;
    });
  return async (args) => (await (loading ??= loadRun()))(args) as never;
}
