/**
 * Build manifests: what a run used and produced (graph digest, input digests, tool versions,
 * output digests), so a build can be verified later by rebuilding and comparing.
 *
 * @module
 */
import { relative } from "node:path";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import type { JsonValue } from "./node.ts";
import type { GraphRun } from "./api.ts";
import { contentDigest } from "./execute/key.ts"; // not the executor: a batch's main thread reads manifests
import { TOOL_VERSIONS } from "./version.ts";
import { isObject, isStringRecord } from "./json_shape.ts";

/** A build manifest (format 1). */
export interface Manifest {
  /** Manifest format version. */
  readonly manifest: 1;
  /** Versions of partgraph and the libraries that shape output bytes, by name (see `TOOL_VERSIONS`). */
  readonly tools: Readonly<Record<string, string>>;
  /**
   * The top graph file (relative to the working directory), a digest of the flattened plan's structure
   * and outputs, and the SHA-256 of every graph file's text by relative path.
   */
  readonly graph: { readonly file: string; readonly digest: string; readonly files: Record<string, string> };
  /** Literal graph inputs as given (paths as typed), and digests of in-memory inputs. */
  readonly inputs: Readonly<Record<string, JsonValue>>;
  /** Files read, relative to the working directory, with SHA-256. */
  readonly reads: Readonly<Record<string, string>>;
  /** Graph outputs by name: type and content digest. */
  readonly outputs: Readonly<Record<string, { type: string; digest: string }>>;
  /** Files written, relative to the output directory, with SHA-256. */
  readonly writes: Readonly<Record<string, string>>;
}

/**
 * Describes a finished run.
 *
 * @example
 * ```ts
 * import { buildManifest, createRegistry, runGraph } from "./mod.ts";
 *
 * const run = await runGraph({ version: 1, nodes: {} }, { registry: createRegistry(), cacheDir: false });
 * await Deno.writeTextFile("build.manifest.json", JSON.stringify(await buildManifest(run), null, 2));
 * ```
 */
export async function buildManifest(run: GraphRun, cwd: string = Deno.cwd()): Promise<Manifest> {
  const { plan } = run;
  const files: Record<string, string> = {};
  for (const source of plan.files) {
    if (source.text !== undefined) files[relative(cwd, source.file)] = sha256Hex(source.text);
  }
  const structure = [...plan.nodes.values()].map((n) => ({
    id: n.id,
    type: n.def.type,
    version: n.def.version,
    impl: n.implDigest ?? null,
    params: n.params,
    inputs: n.inputs,
  }));
  const inputs: Record<string, JsonValue> = { ...plan.inputLiterals };
  for (const [name, value] of Object.entries(plan.inputValues)) {
    if (value !== undefined) inputs[name] = { digest: await contentDigest(plan.inputs[name].type, value) };
  }
  const outputs: Record<string, { type: string; digest: string }> = {};
  for (const [name, value] of Object.entries(run.outputs)) {
    const type = plan.outputTypes[name];
    outputs[name] = { type, digest: await contentDigest(type, value) };
  }
  return {
    manifest: 1,
    tools: TOOL_VERSIONS,
    graph: {
      file: relative(cwd, plan.files[0].file),
      digest: sha256Hex(canonicalJson({ structure, outputs: plan.outputs })),
      files,
    },
    inputs,
    reads: Object.fromEntries(run.reads.map((r) => [relative(cwd, r.path), r.sha256])),
    outputs,
    writes: Object.fromEntries(run.writes.map((w) => [w.path, w.sha256])),
  };
}

/**
 * Why `value` is not a build manifest of format 1, naming the field (e.g. `graph.file: expected a
 * path`); undefined when it is one. A manifest is read back from disk by `verify`, so what it holds
 * is checked before anything is rebuilt from it.
 *
 * @example
 * ```ts
 * import { manifestProblem } from "./manifest.ts";
 *
 * manifestProblem({ version: 1, nodes: {} }); // "manifest: expected 1 (…)": a graph file, not a manifest
 * ```
 */
export function manifestProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "expected a JSON object";
  if (value.manifest !== 1) {
    const hint = "nodes" in value
      ? "; this is a graph file: verify takes the manifest `run --manifest` wrote"
      : "";
    const found = value.manifest === undefined ? "none" : JSON.stringify(value.manifest);
    return `manifest: expected 1 (the format of \`run --manifest\`), found ${found}${hint}`;
  }
  const graph = value.graph;
  if (!isObject(graph) || typeof graph.file !== "string" || !graph.file) return "graph.file: expected a path";
  if (typeof graph.digest !== "string") return "graph.digest: expected a digest";
  for (
    const [name, field] of [["tools", value.tools], ["graph.files", graph.files], ["reads", value.reads], [
      "writes",
      value.writes,
    ]] as const
  ) {
    if (!isStringRecord(field)) return `${name}: expected an object of strings`;
  }
  if (!isObject(value.inputs)) return "inputs: expected an object";
  if (!isObject(value.outputs)) return "outputs: expected an object";
  for (const [name, output] of Object.entries(value.outputs)) {
    if (!isObject(output) || typeof output.type !== "string" || typeof output.digest !== "string") {
      return `outputs.${name}: expected {type, digest}`;
    }
  }
  return undefined;
}

/** One difference between a manifest and a rebuild. */
export interface ManifestDifference {
  /** Dotted path of the entry that differs, e.g. `outputs.glb` or `reads.models/ship.cmp`. */
  readonly what: string;
  /** The recorded value; `null` when the rebuild has an entry the record lacks. */
  readonly expected: JsonValue;
  /** The rebuilt value; `null` when the rebuild lacks a recorded entry. */
  readonly found: JsonValue;
}

/**
 * Appends to `out` every key of `recorded` or `rebuilt` whose values differ (compared as canonical
 * JSON), named `<what>.<key>`; an entry one side lacks is `null` there.
 *
 * @example
 * ```ts
 * const out: ManifestDifference[] = [];
 * differingEntries("writes", { "a.glb": "1f…" }, { "a.glb": "9c…" }, out); // out[0].what: "writes.a.glb"
 * ```
 */
export function differingEntries(
  what: string,
  recorded: Readonly<Record<string, unknown>>,
  rebuilt: Readonly<Record<string, unknown>>,
  out: ManifestDifference[],
): void {
  for (const key of new Set([...Object.keys(recorded), ...Object.keys(rebuilt)])) {
    const x = canonicalJson(recorded[key] ?? null);
    const y = canonicalJson(rebuilt[key] ?? null);
    if (x !== y) out.push({ what: `${what}.${key}`, expected: JSON.parse(x), found: JSON.parse(y) });
  }
}

/** Lists every difference between a recorded manifest and a new one (empty: verified). */
export function compareManifests(recorded: Manifest, rebuilt: Manifest): ManifestDifference[] {
  const out: ManifestDifference[] = [];
  const compare = (what: string, a: Record<string, unknown>, b: Record<string, unknown>) =>
    differingEntries(what, a, b, out);
  compare("tools", recorded.tools, rebuilt.tools);
  compare("graph", { digest: recorded.graph.digest }, { digest: rebuilt.graph.digest });
  compare("graph.files", recorded.graph.files, rebuilt.graph.files);
  compare("reads", recorded.reads, rebuilt.reads);
  compare("outputs", recorded.outputs, rebuilt.outputs);
  compare("writes", recorded.writes, rebuilt.writes);
  return out;
}
