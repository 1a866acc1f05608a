/**
 * Run code kept out of node declarations: a built-in node file declares the node (type, doc,
 * sockets, parameters — all that listing, checking and documenting it need) and imports what its
 * run needs only when the node first runs, with {@link lazyRun} or {@link importOnUse}. `partgraph
 * nodes`, `check` and `schema` then load no glTF-Transform, codec or hashing code.
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
 * signature is checked. Give the module as a URL: an `import("./x.ts")` written out in the
 * declaring file would be followed by Deno when that file loads, with everything it imports.
 *
 * @example
 * ```ts ignore
 * export const rigFitHinge = defineNode({
 *   type: "rig.fit_hinge", version: 4, doc: "…", inputs: { … }, outputs: { … }, params: { … },
 *   run: lazyRun(new URL("./fit_hinge_run.ts", import.meta.url)),
 * });
 * ```
 */
export function lazyRun(module: URL | (() => Promise<unknown>)): (args: never) => Promise<never> {
  const load = module instanceof URL ? () => import(module.href) : module;
  let loading: Promise<(args: unknown) => unknown> | undefined;
  const loadRun = () =>
    load().then((loaded) => {
      const run = (loaded as { run?: unknown } | undefined)?.run;
      if (typeof run !== "function") throw new TypeError("a node's implementation module must export `run`");
      return run as (args: unknown) => unknown;
    }, (error) => {
      loading = undefined; // a failed import (a module being edited) is tried again on the next run
      throw error;
    });
  const run = async (args: never) => (await (loading ??= loadRun()))(args) as never;
  preloads.set(run, () => (loading ??= loadRun()));
  return run;
}

/**
 * `run` (a node's run that imports what it needs with {@link importOnUse} as it goes, not a
 * {@link lazyRun}) with `load` as what {@link preloadRun} loads ahead of its first call: a batch
 * worker's first input then pays no import in its time limit.
 *
 * @example
 * ```ts ignore
 * run: preloadWith(async ({ inputs }) => (await bundle()).pack(inputs.data), bundle),
 * ```
 */
export function preloadWith<F extends object>(run: F, load: () => Promise<unknown>): F {
  preloads.set(run, load);
  return run;
}

/** How each run made by {@link lazyRun} or given {@link preloadWith} loads its modules ahead of its first call. */
const preloads = new WeakMap<object, () => Promise<unknown>>();

/**
 * Loads the modules of a run made by {@link lazyRun} or given {@link preloadWith} before its first
 * call, so that call pays no import (a batch worker's first input then counts no module loading in
 * its time limit). A resolver's `resolve` takes {@link preloadWith} the same way. Any other run needs
 * nothing; never rejects (a module that fails to load fails the node when it runs).
 *
 * @example
 * ```ts ignore
 * await preloadRun(rigFitHinge.run); // fit_hinge_run.ts and what it imports are loaded
 * ```
 */
export async function preloadRun(run: unknown): Promise<void> {
  await preloads.get(run as object)?.().catch(() => {});
}

/**
 * Imports a module when it is first needed, typed as `M` (`typeof import("<the same specifier>")`).
 * Deno follows every `import("…")` written out in a module as soon as that module loads — the
 * whole graph behind it, npm packages included — so a declaration that writes out its run's imports
 * pays for them at start-up; a specifier passed here is resolved only when the call happens.
 *
 * @example
 * ```ts ignore
 * const { writeGlb } = await importOnUse<typeof import("./gltf_io.ts")>("./gltf_io.ts", import.meta.url);
 * ```
 */
export function importOnUse<M>(specifier: string, base?: string): Promise<M> {
  const href = base === undefined ? specifier : new URL(specifier, base).href;
  // A second import() of a loaded module still costs a trip through the module loader (about 0.1 ms,
  // paid by every node run); the promise is kept instead, and dropped if it fails so a later call retries.
  let loading = imported.get(href);
  if (!loading) {
    loading = import(href);
    imported.set(href, loading);
    loading.catch(() => imported.delete(href));
  }
  return loading as Promise<M>;
}

/** {@link importOnUse}'s modules by resolved specifier. */
const imported = new Map<string, Promise<unknown>>();
