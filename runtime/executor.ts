/**
 * Runs a plan: pulls from the requested outputs (graph outputs and sinks) so nothing unneeded runs,
 * runs independent branches concurrently, serves results from the cache when their key matches,
 * stops the dependents of a failed node and reports every failure with node id and type.
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
import { decodeValue, encodeValue } from "./cache/codec.ts";
import { atomicWrite } from "./fs.ts";
import { TOOL_VERSIONS } from "./version.ts";

/** A result kept in memory: decoded outputs plus what they depend on. */
export interface MemoryEntry {
  readonly outputs: Readonly<Record<string, unknown>>;
  readonly warnings: ActionRecord["warnings"];
  readonly reads: readonly FileDigest[];
  readonly writes: readonly FileDigest[];
}

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
  readonly onEvent?: EventSink;
}

/** How one node fared. */
export interface NodeReport {
  readonly type: string;
  readonly state: "done" | "cached" | "failed" | "skipped";
  readonly ms: number;
  readonly key?: string;
  readonly tier?: "memory" | "disk";
}

/** What a run produced. */
export interface RunResult {
  /** Graph outputs by name. */
  readonly outputs: Record<string, unknown>;
  /** Per-node outcome, for the nodes that were needed. */
  readonly nodes: Record<string, NodeReport>;
  readonly warnings: WarningEvent[];
  /** Every file read (absolute paths), with digests. */
  readonly reads: FileDigest[];
  /** Every file written (paths relative to the output directory), with digests. */
  readonly writes: FileDigest[];
}

const KEY_SCHEMA = 1;
const TOOLS_JSON = canonicalJson(TOOL_VERSIONS);

interface Evaluated {
  key: string;
  outputs: Record<string, unknown>;
}

/**
 * Executes a compiled plan. Throws a {@link RunError} listing every failed node when any failed
 * (nodes downstream of a failure are skipped, not failed).
 */
export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<RunResult> {
  const outDir = resolve(options.outDir);
  const cwd = options.cwd ?? Deno.cwd();
  const memory = options.noCache ? new Map<string, MemoryEntry>() : options.memory ?? new Map();
  const disk = options.noCache ? undefined : options.disk;
  const emit = options.onEvent ?? (() => {});
  const reports: Record<string, NodeReport> = {};
  const warnings: WarningEvent[] = [];
  const failures: NodeFailure[] = [];
  const allReads = new Map<string, string>();
  const allWrites = new Map<string, string>();
  const fileMemo = new Map<string, Promise<{ bytes: Uint8Array; sha256: string }>>();
  const evaluations = new Map<string, Promise<Evaluated | undefined>>();

  const readTracked = (path: string) => {
    const abs = resolve(cwd, path);
    let entry = fileMemo.get(abs);
    if (!entry) {
      entry = Deno.readFile(abs).then((bytes) => ({ bytes, sha256: sha256Hex(bytes) }));
      fileMemo.set(abs, entry);
    }
    return entry.then((e) => ({ ...e, abs }));
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
      const now = await readTracked(read.path).catch(() => undefined);
      if (!now || now.sha256 !== read.sha256) return false;
    }
    for (const write of entry.writes) {
      const bytes = await Deno.readFile(outPath(write.path)).catch(() => undefined);
      if (!bytes || sha256Hex(bytes) !== write.sha256) return false;
    }
    return true;
  };

  const valueKey = async (source: PlanSource, upstream: Map<string, Evaluated>): Promise<string> => {
    if ("node" in source) return `${upstream.get(source.node)!.key}#${source.socket}`;
    if ("literal" in source) return `literal:${canonicalJson(source.literal)}`;
    const value = plan.inputValues[source.graphInput];
    const type = plan.inputs[source.graphInput].type;
    return `input:${await contentDigest(type, value)}`;
  };

  const evaluate = (id: string): Promise<Evaluated | undefined> => {
    let pending = evaluations.get(id);
    if (!pending) {
      pending = run(plan.nodes.get(id)!);
      evaluations.set(id, pending);
    }
    return pending;
  };

  async function run(node: PlanNode): Promise<Evaluated | undefined> {
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
    const inputs: Record<string, unknown> = {};
    for (const [name, source] of Object.entries(node.inputs)) {
      inputs[name] = "node" in source
        ? upstream.get(source.node)!.outputs[source.socket]
        : "literal" in source
        ? source.literal
        : plan.inputValues[source.graphInput];
    }

    const nodeWarnings: { message: string; detail?: Record<string, JsonValue> }[] = [];
    const reads = new Map<string, string>();
    const writes = new Map<string, string>();
    const ctx: RunContext = {
      nodeId: node.id,
      plugins: plan.registry,
      warn(message, detail) {
        nodeWarnings.push(detail ? { message, detail } : { message });
      },
      async readFile(path) {
        const file = await readTracked(path);
        reads.set(path, file.sha256);
        allReads.set(file.abs, file.sha256);
        return file.bytes;
      },
      async writeFile(path, bytes) {
        const target = outPath(path);
        await atomicWrite(target, bytes);
        const digest = sha256Hex(bytes);
        writes.set(path, digest);
        allWrites.set(path, digest);
      },
      async invoke(type, invokeInputs, params = {}) {
        const target = plan.registry.get(type);
        if (!target) throw new Error(`unknown node type '${type}'`);
        const full: Record<string, unknown> = {};
        for (const [name, spec] of Object.entries(target.params)) full[name] = params[name] ?? spec.default;
        return await target.run({ inputs: invokeInputs, params: full, ctx: this });
      },
    };

    const started = performance.now();
    let key = "";
    try {
      const cacheable = def.cache !== false;
      const params = def.fingerprint ? await def.fingerprint(node.params, ctx) : node.params;
      const inputKeys: Record<string, string> = {};
      for (const [name, source] of Object.entries(node.inputs)) {
        inputKeys[name] = await valueKey(source, upstream);
      }
      key = sha256Hex(
        `{"schema":${KEY_SCHEMA},"type":${JSON.stringify(def.type)},"version":${def.version},` +
          `"impl":${JSON.stringify(node.implDigest ?? null)},"tools":${TOOLS_JSON},` +
          `"params":${canonicalJson(params)},"inputs":${canonicalJson(inputKeys)}}`,
      );

      if (cacheable) {
        const hit = await lookup(key);
        if (hit) {
          const ms = performance.now() - started;
          reports[node.id] = { type: def.type, state: "cached", ms, key, tier: hit.tier };
          emit({ event: "node", id: node.id, type: def.type, state: "cached", ms, tier: hit.tier });
          replayWarnings(node, hit.entry.warnings);
          for (const r of hit.entry.reads) allReads.set(resolve(cwd, r.path), r.sha256);
          for (const w of hit.entry.writes) allWrites.set(w.path, w.sha256);
          return { key, outputs: hit.entry.outputs as Record<string, unknown> };
        }
      }

      emit({ event: "node", id: node.id, type: def.type, state: "running" });
      const outputs = await def.run({ inputs, params: node.params, ctx }) as Record<string, unknown>;
      checkOutputs(node, outputs);
      const ms = performance.now() - started;
      const entry: MemoryEntry = {
        outputs,
        warnings: nodeWarnings,
        reads: [...reads].map(([path, sha256]) => ({ path, sha256 })),
        writes: [...writes].map(([path, sha256]) => ({ path, sha256 })),
      };
      if (cacheable) {
        memory.set(key, entry);
        if (disk) await storeOnDisk(node, key, entry);
      } else {
        // An uncached node's dependents are keyed by what it actually produced.
        key = sha256Hex(`uncached:${canonicalJson(await outputDigests(node, outputs))}`);
      }
      reports[node.id] = { type: def.type, state: "done", ms, key };
      emit({ event: "node", id: node.id, type: def.type, state: "done", ms });
      replayWarnings(node, nodeWarnings);
      return { key, outputs };
    } catch (error) {
      const failure = error instanceof NodeFailure ? error : new NodeFailure(node.id, def.type, error);
      failures.push(failure);
      const ms = performance.now() - started;
      reports[node.id] = { type: def.type, state: "failed", ms, key: key || undefined };
      emit({ event: "node", id: node.id, type: def.type, state: "failed", ms, error: failure.toJSON() });
      return undefined;
    }
  }

  function replayWarnings(node: PlanNode, list: ActionRecord["warnings"]) {
    for (const w of list) {
      const event: WarningEvent = { event: "warning", id: node.id, type: node.def.type, ...w };
      warnings.push(event);
      emit(event);
    }
  }

  async function lookup(key: string): Promise<{ entry: MemoryEntry; tier: "memory" | "disk" } | undefined> {
    const inMemory = memory.get(key);
    if (inMemory) {
      if (await stillValid(inMemory)) return { entry: inMemory, tier: "memory" };
      memory.delete(key);
    }
    if (!disk) return undefined;
    const record = await disk.lookup(key);
    if (!record || !(await stillValid(record))) return undefined;
    const outputs: Record<string, unknown> = {};
    for (const [name, stored] of Object.entries(record.outputs)) {
      const bytes = await disk.readOutput(stored);
      if (!bytes) {
        await disk.discard(key); // corrupt or missing blob: recompute
        return undefined;
      }
      outputs[name] = await decodeValue(stored.type, { bytes, meta: stored.meta });
    }
    const entry: MemoryEntry = {
      outputs,
      warnings: record.warnings,
      reads: record.reads,
      writes: record.writes,
    };
    memory.set(key, entry);
    return { entry, tier: "disk" };
  }

  async function storeOnDisk(node: PlanNode, key: string, entry: MemoryEntry) {
    const encoded: Record<string, { type: SocketType; bytes: Uint8Array; meta?: JsonValue }> = {};
    for (const [name, spec] of Object.entries(node.def.outputs)) {
      encoded[name] = { type: spec.type, ...await encodeValue(spec.type, entry.outputs[name]) };
    }
    await disk!.store(key, {
      type: node.def.type,
      warnings: entry.warnings,
      reads: entry.reads,
      writes: entry.writes,
    }, encoded);
  }

  // Pull from what was asked for: graph outputs and sinks.
  const wanted = new Set<string>();
  for (const source of Object.values(plan.outputs)) if ("node" in source) wanted.add(source.node);
  for (const node of plan.nodes.values()) if (node.def.sink) wanted.add(node.id);
  await Promise.all([...wanted].sort().map(evaluate));

  if (failures.length) throw new RunError(failures);
  const outputs: Record<string, unknown> = {};
  for (const [name, source] of Object.entries(plan.outputs)) {
    outputs[name] = "node" in source
      ? (await evaluate(source.node))!.outputs[source.socket]
      : "literal" in source
      ? source.literal
      : plan.inputValues[source.graphInput];
  }
  const files = (map: Map<string, string>) =>
    [...map].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([path, sha256]) => ({ path, sha256 }));
  return { outputs, nodes: reports, warnings, reads: files(allReads), writes: files(allWrites) };
}

/** Content digest of a value of a socket type (for manifests and uncached nodes' dependents). */
export async function contentDigest(type: SocketType, value: unknown): Promise<string> {
  const encoded = await encodeValue(type, value);
  const meta = encoded.meta === undefined ? "" : canonicalJson(encoded.meta);
  return sha256Hex(encoded.bytes) + (meta ? `:${sha256Hex(meta)}` : "");
}

async function outputDigests(
  node: PlanNode,
  outputs: Record<string, unknown>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(node.def.outputs)) {
    out[name] = await contentDigest(spec.type, outputs[name]);
  }
  return out;
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
      : typeof value === spec.type;
    if (!ok) throw new Error(`output '${name}' must be a ${spec.type} value`);
  }
}
