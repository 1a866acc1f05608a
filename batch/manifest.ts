/**
 * Batch manifests: for every input of a batch, its digest, the files it produced with their
 * digests, its warnings and its error. A manifest holds nothing that depends on timing, caching or
 * sharding apart from the `shard` field, so the manifests of shards 1/N … N/N merge into exactly the
 * manifest of the unsharded batch.
 *
 * @module
 */
import { canonicalJson } from "../runtime/canonical.ts";
import type { JsonValue } from "../runtime/node.ts";
import { sortKeysDeep } from "../runtime/canonical.ts";
import { isObject, isStringList, isStringRecord } from "../runtime/json_shape.ts";
import { differingEntries, type ManifestDifference } from "../runtime/manifest.ts";

/** What one input of a batch gave. */
export interface BatchInputRecord {
  /** The path the graph input was given. */
  readonly path: string;
  /** SHA-256 of the input file; null when it could not be read. */
  readonly digest: string | null;
  /** True when the graph ran to the end for this input. */
  readonly ok: boolean;
  /** Files written, relative to the batch's `--out`, with SHA-256. */
  readonly writes: Readonly<Record<string, string>>;
  /** Warnings, as `node id: message`. */
  readonly warnings: readonly string[];
  /** The error, when not ok: a message plus the failed nodes or graph problems. */
  readonly error?: JsonValue;
}

/** A batch manifest (format 1). */
export interface BatchManifest {
  /** Format version. */
  readonly batch: 1;
  /** Versions of partgraph and of the libraries that shape output bytes. */
  readonly tools: Readonly<Record<string, string>>;
  /** The graph file (relative to the working directory) and the SHA-256 of every graph file it uses. */
  readonly graph: { readonly file: string; readonly files: Readonly<Record<string, string>> };
  /** `--set` values as typed. */
  readonly sets: readonly string[];
  /** The graph input each path was given to, the base folder, and every input of the whole batch. */
  readonly selection: { readonly each: string; readonly base: string; readonly inputs: readonly string[] };
  /** The shard this manifest covers (`I/N`), or null for a whole batch (and a merge). */
  readonly shard: string | null;
  /** What each input covered here gave, by path relative to the base. */
  readonly inputs: Readonly<Record<string, BatchInputRecord>>;
}

/** The outcome of {@link mergeManifests}. */
export interface MergeResult {
  /** The merged manifest (shard null). */
  readonly manifest: BatchManifest;
  /** Inputs of the selection no manifest covers. */
  readonly missing: readonly string[];
  /** Inputs more than one manifest covers, with the files (indexes into the given list) that do. */
  readonly duplicated: readonly {
    readonly input: string;
    readonly manifests: readonly number[];
    /** The manifests disagree on what the input gave: a build that is not reproducible, or a changed input. */
    readonly conflicting: boolean;
  }[];
}

/**
 * Why `value` is not a batch manifest of format 1, naming the field (e.g. `inputs.ship.cmp.writes:
 * expected an object of digests`); undefined when it is one. Shard manifests come from other
 * machines' disks, so `batch --merge` checks each before it joins them.
 *
 * @example
 * ```ts
 * import { batchManifestProblem } from "./manifest.ts";
 *
 * batchManifestProblem({ batch: 1 }); // "tools: expected an object of versions"
 * ```
 */
export function batchManifestProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "expected a JSON object";
  if (value.batch !== 1) return "batch: expected 1 (the format `partgraph batch` writes)";
  if (!isStringRecord(value.tools)) return "tools: expected an object of versions";
  const { graph, selection } = value;
  if (!isObject(graph) || typeof graph.file !== "string" || !isStringRecord(graph.files)) {
    return "graph: expected {file, files}";
  }
  if (!isStringList(value.sets)) return "sets: expected a list of strings";
  if (
    !isObject(selection) || typeof selection.each !== "string" || typeof selection.base !== "string" ||
    !isStringList(selection.inputs)
  ) return "selection: expected {each, base, inputs}";
  if (value.shard !== null && typeof value.shard !== "string") return "shard: expected I/N or null";
  if (!isObject(value.inputs)) return "inputs: expected an object";
  for (const [name, record] of Object.entries(value.inputs)) {
    const where = `inputs.${name}`;
    if (!isObject(record)) return `${where}: expected an object`;
    if (typeof record.path !== "string") return `${where}.path: expected a string`;
    if (record.digest !== null && typeof record.digest !== "string") {
      return `${where}.digest: expected a digest`;
    }
    if (typeof record.ok !== "boolean") return `${where}.ok: expected true or false`;
    if (!isStringRecord(record.writes)) return `${where}.writes: expected an object of digests`;
    if (!isStringList(record.warnings)) return `${where}.warnings: expected a list of strings`;
  }
  return undefined;
}

/** Formats a manifest as stable, diff-friendly JSON (sorted keys, two-space indent, final newline). */
export function formatManifest(manifest: BatchManifest): string {
  return JSON.stringify(sortKeysDeep(manifest), null, 2) + "\n";
}

/**
 * Joins shard manifests of one batch. Throws a `TypeError` when they come from different batches
 * (graph, tools, `--set` values or selection differ); reports inputs missing or covered twice.
 *
 * @example
 * ```ts
 * const { manifest, missing } = mergeManifests([shard1, shard2, shard3]);
 * ```
 */
export function mergeManifests(manifests: readonly BatchManifest[]): MergeResult {
  if (!manifests.length) throw new TypeError("nothing to merge");
  const first = manifests[0];
  const identity = (m: BatchManifest) =>
    canonicalJson({ tools: m.tools, graph: m.graph, sets: m.sets, selection: m.selection } as never);
  for (const [i, m] of manifests.entries()) {
    if (m?.batch !== 1) throw new TypeError(`manifest ${i + 1} is not a batch manifest (format 1)`);
    if (identity(m) !== identity(first)) {
      throw new TypeError(
        `manifest ${i + 1} is of another batch than manifest 1 (graph, tools, --set values or inputs differ)`,
      );
    }
  }
  const inputs: Record<string, BatchInputRecord> = {};
  const seenIn = new Map<string, number[]>();
  for (const [i, m] of manifests.entries()) {
    for (const [rel, record] of Object.entries(m.inputs)) {
      inputs[rel] ??= record;
      seenIn.set(rel, [...seenIn.get(rel) ?? [], i]);
    }
  }
  const duplicated = [...seenIn].filter(([, at]) => at.length > 1).map(([input, at]) => ({
    input,
    manifests: at,
    conflicting: new Set(at.map((i) => canonicalJson(manifests[i].inputs[input] as never))).size > 1,
  }));
  const missing = first.selection.inputs.filter((rel) => !(rel in inputs));
  const sorted = Object.fromEntries(Object.keys(inputs).sort().map((rel) => [rel, inputs[rel]]));
  return { manifest: { ...first, shard: null, inputs: sorted }, missing, duplicated };
}

/**
 * Every difference between a recorded batch manifest and a rebuild of the inputs it covers (empty:
 * verified): tool versions, graph files, and per input its digest, outcome, files, warnings and
 * error (`inputs.<input>.writes.<file>` and so on).
 *
 * @example
 * ```ts
 * const differences = compareBatchManifests(recorded, rebuilt.manifest);
 * ```
 */
export function compareBatchManifests(recorded: BatchManifest, rebuilt: BatchManifest): ManifestDifference[] {
  const out: ManifestDifference[] = [];
  differingEntries("tools", recorded.tools, rebuilt.tools, out);
  differingEntries("graph.files", recorded.graph.files, rebuilt.graph.files, out);
  for (const input of new Set([...Object.keys(recorded.inputs), ...Object.keys(rebuilt.inputs)])) {
    const [was, now] = [recorded.inputs[input], rebuilt.inputs[input]];
    if (!was || !now) {
      differingEntries("inputs", { [input]: was ?? null }, { [input]: now ?? null }, out);
      continue;
    }
    const { writes: wasWrites, ...wasRest } = was, { writes: nowWrites, ...nowRest } = now;
    differingEntries(`inputs.${input}`, wasRest, nowRest, out);
    differingEntries(`inputs.${input}.writes`, wasWrites, nowWrites, out);
  }
  return out;
}
