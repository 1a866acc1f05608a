/**
 * Runs a plan: pulls from the requested outputs (graph outputs and sinks) so nothing unneeded runs,
 * runs independent branches concurrently, serves results from the cache when their key matches
 * (decoding cached values only when something needs them), stops the dependents of a failed node
 * and reports every failure with node id and type.
 *
 * Cache key = SHA-256 over canonical JSON of: key schema, node type, implementation version (and
 * custom module digest), tool versions, parameters after defaults (or a source's content
 * fingerprint), and the keys of its inputs.
 *
 * @module
 */
import { isAbsolute, join, normalize, resolve } from "node:path";
import { Document } from "@gltf-transform/core";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import { NodeFailure, RunError } from "./errors.ts";
import type { EventSink, WarningEvent } from "./events.ts";
import type { BytesValue, JsonValue, RunContext, SocketType } from "./node.ts";
import type { Plan, PlanNode, PlanSource } from "./plan.ts";
import type { ActionRecord, DiskCache, FileDigest } from "./cache/disk.ts";
import { CacheTiers, type MemoryEntry } from "./cache/tiers.ts";
import { encodeValue } from "./cache/codec.ts";
import { atomicWrite, outputPath } from "./fs.ts";
import { jsTypeOf, withDefaults } from "./params.ts";
import { TOOL_VERSIONS } from "./version.ts";

export type { MemoryEntry } from "./cache/tiers.ts";

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
  /** Called synchronously for every node state change and warning, in the order they happen. */
  readonly onEvent?: EventSink;
}

/** How one node fared. */
export interface NodeReport {
  /** The node's type id. */
  readonly type: string;
  /** `cached`: served from a cache tier; `skipped`: an upstream node failed, so it never ran. */
  readonly state: "done" | "cached" | "failed" | "skipped";
  /** Wall time of the node's own work (or of the cache lookup) in milliseconds; 0 when skipped. */
  readonly ms: number;
  /** Cache key (SHA-256 hex) of the result; undefined for failed and skipped nodes. */
  readonly key?: string;
  /** Which cache tier served the result; undefined unless `state` is `cached`. */
  readonly tier?: "memory" | "disk";
}

/** What a run produced. */
export interface RunResult {
  /** Graph outputs by name. */
  readonly outputs: Record<string, unknown>;
  /** Per-node outcome, for the nodes that were needed. */
  readonly nodes: Record<string, NodeReport>;
  /** Every warning raised, including those replayed from cached results, in the order emitted. */
  readonly warnings: WarningEvent[];
  /** Every file read (absolute paths), with digests. */
  readonly reads: FileDigest[];
  /** Every file written (paths relative to the output directory), with digests. */
  readonly writes: FileDigest[];
}

const KEY_SCHEMA = 1;
const TOOLS_JSON = canonicalJson(TOOL_VERSIONS);

/** A node's result as its dependents see it: its key now, its values on demand. */
interface Evaluated {
  readonly key: string;
  load(): Promise<Record<string, unknown>>;
}

/**
 * Executes a compiled plan. Throws a {@link RunError} listing every failed node when any failed
 * (nodes downstream of a failure are skipped, not failed).
 *
 * @example
 * ```ts
 * const plan = await compileGraph(await loadGraph("graphs/gltf.json"), createRegistry(), { model: "a.glb" });
 * const result = await executePlan(plan, { outDir: "out" });
 * ```
 */
export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<RunResult> {
  const outDir = resolve(options.outDir);
  const cwd = options.cwd ?? Deno.cwd();
  const tiers = new CacheTiers(
    options.noCache ? new Map() : options.memory ?? new Map(),
    options.noCache ? undefined : options.disk,
  );
  const emit = options.onEvent ?? (() => {});
  const reports: Record<string, NodeReport> = {};
  const warnings: WarningEvent[] = [];
  const failures: NodeFailure[] = [];
  const allReads = new Map<string, string>();
  const allWrites = new Map<string, string>();
  const fileMemo = new Map<string, Promise<{ bytes: Uint8Array; sha256: string }>>();
  const evaluations = new Map<string, Promise<Evaluated | undefined>>();

  const readTracked = async (path: string) => {
    const abs = resolve(cwd, path);
    let entry = fileMemo.get(abs);
    if (!entry) {
      entry = Deno.readFile(abs).then((bytes) => ({ bytes, sha256: sha256Hex(bytes) }));
      fileMemo.set(abs, entry);
    }
    return { ...await entry, abs };
  };
  const outPath = (path: string) => {
    if (isAbsolute(path) || normalize(path).startsWith("..")) {
      throw new Error(`write path '${path}' leaves the output directory`);
    }
    return join(outDir, path);
  };
  /** Still valid: every file it read is unchanged and every file it wrote still holds its bytes. */
  const stillValid = async (entry: { reads: readonly FileDigest[]; writes: readonly FileDigest[] }) => {
    for (const read of entry.reads) {
      if (read.path.endsWith(DIR_MARK)) {
        const names = await listNames(resolve(cwd, read.path.slice(0, -DIR_MARK.length)));
        if (listingDigest(names) !== read.sha256) return false;
        continue;
      }
      const now = await readTracked(read.path).catch(() => undefined);
      if (!now || now.sha256 !== read.sha256) return false;
    }
    for (const write of entry.writes) {
      const bytes = await Deno.readFile(outPath(write.path)).catch(() => undefined);
      if (!bytes || sha256Hex(bytes) !== write.sha256) return false;
    }
    return true;
  };

  const evaluate = (id: string): Promise<Evaluated | undefined> => {
    let pending = evaluations.get(id);
    if (!pending) {
      pending = evaluateNode(plan.nodes.get(id)!);
      evaluations.set(id, pending);
    }
    return pending;
  };

  async function evaluateNode(node: PlanNode): Promise<Evaluated | undefined> {
    const { def } = node;
    const ups = [...new Set(Object.values(node.inputs).flatMap((s) => "node" in s ? [s.node] : []))];
    const results = await Promise.all(ups.map(evaluate));
    const upstream = new Map<string, Evaluated>();
    for (const [i, up] of ups.entries()) {
      if (!results[i]) {
        reports[node.id] = { type: def.type, state: "skipped", ms: 0 };
        emit({ event: "node", id: node.id, type: def.type, state: "skipped" });
        return undefined;
      }
      upstream.set(up, results[i]!);
    }
    const ctx = createContext(node, createRecorder());
    const started = performance.now();
    try {
      const params = def.fingerprint ? await def.fingerprint(node.params, ctx) : node.params;
      const inputKeys: Record<string, string> = {};
      for (const [name, source] of Object.entries(node.inputs)) {
        inputKeys[name] = await valueKey(source, upstream);
      }
      const key = sha256Hex(
        `{"schema":${KEY_SCHEMA},"type":${JSON.stringify(def.type)},"version":${def.version},` +
          `"impl":${JSON.stringify(node.implDigest ?? null)},"tools":${TOOLS_JSON},` +
          `"params":${canonicalJson(params)},"inputs":${canonicalJson(inputKeys)}}`,
      );
      if (def.cache !== false) {
        // A fingerprinted node (a source) is keyed by the content it read, wherever it now lives.
        const valid = def.fingerprint
          ? (e: { writes: readonly FileDigest[] }) => stillValid({ reads: [], writes: e.writes })
          : stillValid;
        // Reported once, not stored with the result: the damage is gone once the record is rewritten.
        const hit = await tiers.lookup(key, valid, def, (message) => replayWarnings(node, [{ message }]));
        if (hit) {
          const ms = performance.now() - started;
          reports[node.id] = { type: def.type, state: "cached", ms, key, tier: hit.tier };
          emit({ event: "node", id: node.id, type: def.type, state: "cached", ms, tier: hit.tier });
          replayWarnings(node, hit.entry.warnings);
          if (!def.fingerprint) {
            for (const r of hit.entry.reads) allReads.set(resolve(cwd, r.path), r.sha256);
          }
          for (const w of hit.entry.writes) allWrites.set(w.path, w.sha256);
          let loading: Promise<Record<string, unknown>> | undefined;
          // A blob found corrupt when finally needed is recomputed, never used.
          const load = () =>
            loading ??= hit.load().then((outputs) => outputs ?? compute(node, key, upstream)).catch(
              (error) => {
                // Keep the blame on this node, not on the consumer that asked for its value.
                throw error instanceof NodeFailure ? error : new NodeFailure(node.id, def.type, error);
              },
            );
          return { key, load };
        }
      }
      const outputs = await compute(node, key, upstream, ctx);
      if (def.cache === false) {
        // An uncached node's dependents are keyed by what it actually produced.
        const digests: Record<string, string> = {};
        for (const [name, spec] of Object.entries(def.outputs)) {
          digests[name] = await contentDigest(spec.type, outputs[name]);
        }
        return { key: sha256Hex(`uncached:${canonicalJson(digests)}`), load: () => Promise.resolve(outputs) };
      }
      return { key, load: () => Promise.resolve(outputs) };
    } catch (error) {
      const failure = error instanceof NodeFailure ? error : new NodeFailure(node.id, def.type, error);
      failures.push(failure);
      const ms = performance.now() - started;
      reports[node.id] = { type: def.type, state: "failed", ms };
      emit({ event: "node", id: node.id, type: def.type, state: "failed", ms, error: failure.toJSON() });
      return undefined;
    }
  }

  /** Runs a node's function (after loading its inputs' values) and caches the result. */
  async function compute(
    node: PlanNode,
    key: string,
    upstream: Map<string, Evaluated>,
    ctx = createContext(node, createRecorder()),
  ): Promise<Record<string, unknown>> {
    const { def } = node;
    const { record } = ctx;
    const inputs: Record<string, unknown> = {};
    for (const [name, source] of Object.entries(node.inputs)) {
      inputs[name] = "node" in source
        ? (await upstream.get(source.node)!.load())[source.socket]
        : "literal" in source
        ? source.literal ?? undefined // null: an absent optional input
        : plan.inputValues[source.graphInput];
    }
    emit({ event: "node", id: node.id, type: def.type, state: "running" });
    const started = performance.now(); // the node's own work, not the wait for its inputs
    const outputs = await def.run({ inputs, params: node.params, ctx }) as Record<string, unknown>;
    checkOutputs(node, outputs);
    const ms = performance.now() - started;
    const entry: MemoryEntry = {
      outputs,
      warnings: record.warnings,
      reads: [...record.reads].map(([path, sha256]) => ({ path, sha256 })),
      writes: [...record.writes].map(([path, sha256]) => ({ path, sha256 })),
    };
    if (def.cache !== false) {
      try {
        await tiers.store(key, def.type, def.outputs, entry);
      } catch (error) {
        // A cache that cannot be written (disk full, read-only) costs speed, never the result.
        record.warnings.push({
          message: `result not cached: ${error instanceof Error ? error.message : error}`,
        });
      }
    }
    reports[node.id] = { type: def.type, state: "done", ms, key };
    emit({ event: "node", id: node.id, type: def.type, state: "done", ms });
    replayWarnings(node, record.warnings);
    return outputs;
  }

  function createContext(node: PlanNode, record: Recorder): RunContext & { record: Recorder } {
    return {
      nodeId: node.id,
      plugins: plan.registry,
      record,
      warn(message, detail) {
        record.warnings.push(detail ? { message, detail } : { message });
      },
      async readFile(path) {
        const file = await readTracked(path);
        record.reads.set(path, file.sha256);
        allReads.set(file.abs, file.sha256);
        return file.bytes;
      },
      async listDir(path) {
        const names = await listNames(resolve(cwd, path));
        const digest = listingDigest(names);
        record.reads.set(path + DIR_MARK, digest);
        return names;
      },
      async writeFile(path, bytes) {
        await atomicWrite(await outputPath(outDir, path), bytes);
        const digest = sha256Hex(bytes);
        record.writes.set(path, digest);
        allWrites.set(path, digest);
      },
      async invoke(type, inputs, params = {}) {
        const target = plan.registry.get(type);
        if (!target) throw new Error(`unknown node type '${type}'`);
        return await target.run({ inputs, params: withDefaults(target.params, params), ctx: this });
      },
    };
  }

  async function valueKey(source: PlanSource, upstream: Map<string, Evaluated>): Promise<string> {
    if ("node" in source) return `${upstream.get(source.node)!.key}#${source.socket}`;
    if ("literal" in source) return `literal:${canonicalJson(source.literal)}`;
    const type = plan.inputs[source.graphInput].type;
    return `input:${await contentDigest(type, plan.inputValues[source.graphInput])}`;
  }

  function replayWarnings(node: PlanNode, list: ActionRecord["warnings"]) {
    for (const w of list) {
      const event: WarningEvent = { event: "warning", id: node.id, type: node.def.type, ...w };
      warnings.push(event);
      emit(event);
    }
  }

  // Pull from what was asked for: graph outputs and sinks.
  const wanted = new Set<string>();
  for (const source of Object.values(plan.outputs)) if ("node" in source) wanted.add(source.node);
  for (const node of plan.nodes.values()) if (node.def.sink) wanted.add(node.id);
  await Promise.all([...wanted].sort().map(evaluate));

  const outputs: Record<string, unknown> = {};
  if (!failures.length) {
    for (const [name, source] of Object.entries(plan.outputs)) {
      try {
        outputs[name] = "node" in source
          ? (await (await evaluate(source.node))!.load())[source.socket]
          : "literal" in source
          ? source.literal
          : plan.inputValues[source.graphInput];
      } catch (error) {
        const node = plan.nodes.get((source as { node: string }).node)!;
        failures.push(error instanceof NodeFailure ? error : new NodeFailure(node.id, node.def.type, error));
      }
    }
  }
  if (failures.length) throw new RunError(failures);
  const files = (map: Map<string, string>) =>
    [...map].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([path, sha256]) => ({ path, sha256 }));
  return { outputs, nodes: reports, warnings, reads: files(allReads), writes: files(allWrites) };
}

/** Marks a recorded read as a directory listing rather than a file. */
const DIR_MARK = "/*";

/** Sorted entry names of a directory; empty when it does not exist. */
async function listNames(path: string): Promise<string[]> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names.sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return [];
    throw error;
  }
}

function listingDigest(names: string[]): string {
  return sha256Hex(names.join("\n"));
}

/** What one node run read, wrote and warned about. */
interface Recorder {
  readonly warnings: { message: string; detail?: Record<string, JsonValue> }[];
  readonly reads: Map<string, string>;
  readonly writes: Map<string, string>;
}

function createRecorder(): Recorder {
  return { warnings: [], reads: new Map(), writes: new Map() };
}

/** Content digest of a value of a socket type (for manifests and uncached nodes' dependents). */
export async function contentDigest(type: SocketType, value: unknown): Promise<string> {
  const encoded = await encodeValue(type, value);
  const meta = encoded.meta === undefined ? "" : canonicalJson(encoded.meta);
  return sha256Hex(encoded.bytes) + (meta ? `:${sha256Hex(meta)}` : "");
}

/** A run function must return every declared output with a value of its type. */
function checkOutputs(node: PlanNode, outputs: Record<string, unknown>): void {
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
