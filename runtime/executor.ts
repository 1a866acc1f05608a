/**
 * Runs a plan: pulls from the requested outputs (graph outputs and sinks) so nothing unneeded runs,
 * runs independent branches concurrently, serves results from the cache when their key matches
 * (decoding cached values only when something needs them), stops the dependents of a failed node
 * and reports every failure with node id and type.
 *
 * Its parts are in `execute/`: options `options.ts`, keys `key.ts`, file access `files.ts`, the context
 * `context.ts`, order `schedule.ts`; a remote cache is asked through the run's hint (`cache/run_hint.ts`).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { NodeFailure, RunError } from "./errors.ts";
import type { EventSink, WarningEvent } from "./events.ts";
import type { AnyNodeDef, RunContext } from "./node.ts";
import { canonicalJson } from "./canonical.ts";
import type { Plan, PlanNode, PlanSource } from "./plan.ts";
import type { ActionRecord } from "./cache/disk.ts";
import { CacheTiers, type MemoryEntry } from "./cache/tiers.ts";
import { RunHint } from "./cache/run_hint.ts";
import {
  actionKey,
  contentDigest,
  dependentsKey,
  invokeVersions,
  nodeVersion,
  pluginVersions,
  producedKey,
  reachableInvokes,
} from "./execute/key.ts";
import { createRecorder, type Recorder, sortedDigests, TrackedFiles } from "./execute/files.ts";
import { createContext } from "./execute/context.ts";
import { evaluationOrder, upstreamOf } from "./execute/schedule.ts";
import { checkOutputs, Ownership, type ServedHit } from "./execute/values.ts";
import type { NodeReport, RunResult } from "./execute/result.ts";
import type { ExecuteOptions } from "./execute/options.ts";
import { NotCachedNotes } from "./cache/not_cached.ts";

export type { MemoryEntry } from "./cache/tiers.ts";
export type { ExecuteOptions } from "./execute/options.ts";
export type { NodeReport, RunResult } from "./execute/result.ts";
export { contentDigest } from "./execute/key.ts";

/** A node's result as its dependents see it: its key now, its values on demand. */
interface Evaluated {
  readonly key: string;
  /** No cache tier held the key before this run computed it: keys made from it are new, not looked up. */
  readonly fresh?: boolean;
  load(): Promise<Record<string, unknown>>;
  /** Lets go of the values (a later `load` recomputes or re-reads them); see `ValueReleases`. */
  release?(): void;
}

/**
 * Executes a compiled plan. Throws a {@link RunError} listing every failed node when any failed
 * (nodes downstream of a failure are skipped, not failed).
 *
 * @example
 * ```ts
 * import { compileGraph, createRegistry, defineNode, executePlan, loadGraph } from "./mod.ts";
 *
 * const one = defineNode({
 *   type: "math.one", version: 1, doc: "Gives 1.", inputs: {}, params: {},
 *   outputs: { value: { type: "number", doc: "One." } },
 *   run: () => ({ value: 1 }),
 * });
 * const graph = await loadGraph({ version: 1, nodes: { a: { type: "math.one" } }, outputs: { v: "a.value" } });
 * const plan = await compileGraph(graph, createRegistry([{ nodes: [one] }]));
 * const result = await executePlan(plan, { outDir: "out" });
 * console.log(result.outputs.v); // 1
 * ```
 */
export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<RunResult> {
  return await new Execution(plan, options).run();
}

/** The state of one run of a plan. */
class Execution {
  readonly #plan: Plan;
  readonly #tiers: CacheTiers;
  readonly #files: TrackedFiles;
  readonly #emit: EventSink;
  readonly #reports: Record<string, NodeReport> = {};
  readonly #warnings: WarningEvent[] = [];
  readonly #failures: NodeFailure[] = [];
  readonly #evaluations = new Map<string, Promise<Evaluated | undefined>>();
  readonly #invokable = new Map<string, Map<string, AnyNodeDef>>();
  readonly #options: ExecuteOptions;
  /** Lets values go after their last consumer, hands scenes over; undefined: a caller's tier keeps them. */
  readonly #ownership?: Ownership;
  /** Says a cache folder that cannot be written once per run, not once per node. */
  readonly #notCached: NotCachedNotes;

  constructor(plan: Plan, options: ExecuteOptions) {
    this.#plan = plan;
    this.#options = options;
    const remote = options.noCache ? undefined : options.remote;
    this.#tiers = new CacheTiers(
      options.noCache ? new Map() : options.memory ?? new Map(),
      options.noCache ? undefined : options.disk,
      remote,
      remote && new RunHint(remote, evaluationOrder(plan)),
    );
    // A refresh re-hashes every file (it trusts no cache), and remembers what it hashed.
    this.#files = new TrackedFiles(
      options.cwd ?? Deno.cwd(),
      options.outDir,
      options.noCache || !options.disk ? undefined : { memo: options.disk, trust: !options.refresh },
      !(options.noCache && options.fileDigests === false),
    );
    this.#notCached = new NotCachedNotes(options.noCache ? undefined : options.disk?.dir);
    this.#emit = options.onEvent ?? (() => {});
    // A run with its own memory tier lets a node's values go once every consumer has loaded them, so a
    // big model's input bytes do not outlive its decode. A caller's memory tier keeps them all.
    if (!options.memory || options.noCache) this.#ownership = new Ownership(plan);
  }

  async run(): Promise<RunResult> {
    try {
      return await this.#run();
    } finally {
      await this.#tiers.flush(); // the disk tier's last batch of records
    }
  }

  async #run(): Promise<RunResult> {
    // Upstream first, so each node finds its inputs' evaluations already started: no recursion.
    for (const node of evaluationOrder(this.#plan)) this.#evaluations.set(node.id, this.#evaluate(node));
    await Promise.all(this.#evaluations.values());
    if (!this.#failures.length) await this.#tiers.hint?.upload();

    const outputs: Record<string, unknown> = {};
    if (!this.#failures.length) {
      const returned = this.#options.outputs && new Set(this.#options.outputs);
      for (const [name, source] of Object.entries(this.#plan.outputs)) {
        if (returned && !returned.has(name)) continue;
        try {
          outputs[name] = await this.#valueOf(source);
        } catch (error) {
          const node = this.#plan.nodes.get((source as { node: string }).node)!;
          this.#failures.push(asFailure(node, error));
        }
      }
    }
    if (this.#failures.length) throw new RunError(this.#failures);
    return {
      outputs,
      nodes: this.#reports,
      warnings: this.#warnings,
      reads: sortedDigests(this.#files.reads),
      writes: sortedDigests(this.#files.writes),
    };
  }

  /** A node's result: from the cache when its key matches, else computed. Undefined when it failed. */
  async #evaluate(node: PlanNode): Promise<Evaluated | undefined> {
    const { def } = node;
    const upstream = new Map<string, Evaluated>();
    for (const up of upstreamOf(node)) {
      const result = await this.#evaluations.get(up)!;
      if (!result) {
        this.#report(node, { type: def.type, state: "skipped", ms: 0 });
        return undefined;
      }
      upstream.set(up, result);
    }
    const record = createRecorder();
    const started = performance.now();
    try {
      const ctx = this.#context(node, record);
      const key = await this.#keyOf(node, upstream, ctx);
      this.#tiers.hint?.keyed(node, key);
      let fresh = [...upstream.values()].some((up) => up.fresh);
      if (def.cache !== false && !this.#options.refresh && !fresh) {
        const hit = await this.#cached(node, key, upstream, started, () => fresh = true);
        if (hit) return hit;
      }
      let outputs: Record<string, unknown> | undefined = await this.#compute(node, key, upstream, record);
      const computed = {
        load: () => outputs ? Promise.resolve(outputs) : this.#compute(node, key, upstream, createRecorder()),
        release: () => {
          this.#files.release(Object.values(outputs ?? {}));
          this.#tiers.memory.delete(key);
          outputs = undefined;
        },
      };
      if (def.cache !== false) {
        const reads = [...record.reads].map(([path, sha256]) => ({ path, sha256 }));
        return { key: dependentsKey(node.def, key, reads), fresh, ...computed };
      }
      // An uncached node's dependents are keyed by what it actually produced.
      const digests: Record<string, string> = {};
      for (const [name, spec] of Object.entries(def.outputs)) {
        digests[name] = await contentDigest(spec.type, outputs[name]);
      }
      return { key: producedKey(digests), ...computed };
    } catch (error) {
      const failure = asFailure(node, error);
      this.#failures.push(failure);
      const ms = performance.now() - started;
      this.#reports[node.id] = { type: def.type, state: "failed", ms };
      this.#emit({
        event: "node",
        id: node.id,
        type: def.type,
        state: "failed",
        ms,
        error: failure.toJSON(),
      });
      return undefined;
    }
  }

  /** The node's cache key: one object of everything that shapes its output. */
  async #keyOf(node: PlanNode, upstream: Map<string, Evaluated>, ctx: RunContext): Promise<string> {
    const { def } = node;
    const registry = this.#plan.registry;
    const inputs: Record<string, string> = {};
    for (const [name, source] of Object.entries(node.inputs)) {
      inputs[name] = await this.#sourceKey(source, upstream);
    }
    return actionKey({
      type: def.type,
      node: nodeVersion(registry, def),
      // Unhashed, a source's key is its params: unique in the run, and no other run sees it.
      params: def.fingerprint && this.#files.hashing ? await def.fingerprint(node.params, ctx) : node.params,
      inputs,
      invokes: invokeVersions(registry, this.#invokableFrom(def)),
      plugins: pluginVersions(registry, def),
    });
  }

  /** A still-valid cached result, reported and with its warnings and files replayed; else undefined. */
  async #cached(
    node: PlanNode,
    key: string,
    upstream: Map<string, Evaluated>,
    started: number,
    onAbsent: () => void,
  ): Promise<Evaluated | undefined> {
    const { def } = node;
    // A fingerprinted node (a source) is keyed by the content it read, wherever it now lives; any
    // other node that reads files has a result for each state of them (`read_variants.ts`).
    const hit = await this.#tiers.lookup(key, {
      stillValid: (entry) =>
        this.#files.stillValid(def.fingerprint ? { reads: [], writes: entry.writes } : entry),
      expect: def,
      // Reported once, not stored with the result: the damage is gone once the record is rewritten.
      onDamage: (message) => this.#replayWarnings(node, [{ message }]),
      onAbsent,
      readsNow: def.fingerprint ? undefined : (paths) => this.#files.readsNow(paths),
    });
    if (!hit) return undefined;
    const ms = performance.now() - started;
    this.#report(node, { type: def.type, state: "cached", ms, key, tier: hit.tier });
    this.#replayWarnings(node, hit.entry.warnings);
    this.#files.replay(def.fingerprint ? [] : hit.entry.reads, hit.entry.writes);
    const served: ServedHit = this.#ownership ? await this.#ownership.served(node.id, hit) : hit;
    let loading: Promise<Record<string, unknown>> | undefined;
    // A blob found corrupt when finally needed is recomputed, never used; the blame stays on this
    // node, not on the consumer that asked for its value.
    const load = () =>
      loading ??= served.load()
        .then((outputs) => outputs ?? this.#compute(node, key, upstream, createRecorder(), true))
        .catch((error) => Promise.reject(asFailure(node, error)));
    const release = () => {
      loading = undefined;
      served.release?.();
      this.#tiers.memory.delete(key);
    };
    return { key: dependentsKey(node.def, key, hit.entry.reads), load, release };
  }

  /**
   * Runs a node's function (after loading its inputs' values) and caches the result. `rerun`: the
   * node was served cached, its warnings replayed, and it runs now for values the cache did not keep.
   */
  async #compute(
    node: PlanNode,
    key: string,
    upstream: Map<string, Evaluated>,
    record: Recorder,
    rerun = false,
  ): Promise<Record<string, unknown>> {
    const { def } = node;
    const inputs: Record<string, unknown> = {};
    const owned = new Map<string, Document>();
    for (const [name, source] of Object.entries(node.inputs)) {
      inputs[name] = await this.#valueOf(source, upstream);
      const release = "node" in source ? upstream.get(source.node)?.release : undefined;
      if ("node" in source && this.#ownership?.consumed(source.node, release, inputs[name])) {
        owned.set(name, inputs[name] as Document);
      }
    }
    this.#emit({ event: "node", id: node.id, type: def.type, state: "running" });
    const started = performance.now(); // the node's own work, not the wait for its inputs
    const ctx = this.#context(node, record, owned);
    const run = () => def.run({ inputs, params: node.params, ctx });
    const outputs = await this.#tiers.withDerivedStore(run, this.#options.refresh) as Record<string, unknown>;
    checkOutputs(node, outputs);
    this.#ownership?.produced(node.id, outputs);
    const ms = performance.now() - started;
    const entry: MemoryEntry = {
      outputs,
      warnings: record.warnings,
      reads: [...record.reads].map(([path, sha256]) => ({ path, sha256 })),
      writes: [...record.writes].map(([path, sha256]) => ({ path, sha256 })),
    };
    if (def.cache !== false) {
      // A cache that cannot be written (disk full, read-only) costs speed, never the result.
      const notCached = (error: unknown) => {
        const note = this.#notCached.note(error);
        return note ? [note] : [];
      };
      try {
        await this.#tiers.store(
          key,
          def.type,
          def.outputs,
          entry,
          (error) => this.#replayWarnings(node, notCached(error)),
          {
            files: this.#files.readFiles(record.reads),
            recompute: record.recompute,
            variants: !def.fingerprint,
          },
        );
      } catch (error) {
        record.warnings.push(...notCached(error));
      }
    }
    this.#report(node, { type: def.type, state: "done", ms, key });
    if (!rerun) this.#replayWarnings(node, record.warnings);
    return outputs;
  }

  #context(node: PlanNode, record: Recorder, owned?: ReadonlyMap<string, Document>): RunContext {
    return createContext(node.id, node.def, record, {
      registry: this.#plan.registry,
      files: this.#files,
      invokable: this.#invokableFrom(node.def),
      owned,
    });
  }

  /** The node types a type can reach through `ctx.invoke`, worked out once per type and run. */
  #invokableFrom(def: AnyNodeDef): Map<string, AnyNodeDef> {
    let reached = this.#invokable.get(def.type);
    if (!reached) this.#invokable.set(def.type, reached = reachableInvokes(this.#plan.registry, def));
    return reached;
  }

  /** The value a source gives: an upstream output, a literal, or a graph input given in memory. */
  async #valueOf(source: PlanSource, upstream?: Map<string, Evaluated>): Promise<unknown> {
    if ("node" in source) {
      const evaluated = upstream?.get(source.node) ?? await this.#evaluations.get(source.node)!;
      return (await evaluated!.load())[source.socket];
    }
    if ("literal" in source) return source.literal ?? undefined; // null: an absent optional input
    return this.#plan.inputValues[source.graphInput];
  }

  async #sourceKey(source: PlanSource, upstream: Map<string, Evaluated>): Promise<string> {
    if ("node" in source) return `${upstream.get(source.node)!.key}#${source.socket}`;
    if ("literal" in source) return `literal:${canonicalJson(source.literal)}`;
    const type = this.#plan.inputs[source.graphInput].type;
    return `input:${await contentDigest(type, this.#plan.inputValues[source.graphInput])}`;
  }

  #report(node: PlanNode, report: NodeReport): void {
    this.#reports[node.id] = report;
    const { state, ms, tier } = report;
    const detail = { ...(state === "skipped" ? {} : { ms }), ...(tier ? { tier } : {}) };
    this.#emit({ event: "node", id: node.id, type: node.def.type, state, ...detail });
  }

  #replayWarnings(node: PlanNode, list: ActionRecord["warnings"]): void {
    for (const w of list) {
      const event: WarningEvent = { event: "warning", id: node.id, type: node.def.type, ...w };
      this.#warnings.push(event);
      this.#emit(event);
    }
  }
}

function asFailure(node: PlanNode, error: unknown): NodeFailure {
  return error instanceof NodeFailure ? error : new NodeFailure(node.id, node.def.type, error);
}
