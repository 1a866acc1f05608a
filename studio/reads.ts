/**
 * Read-path parameters (e.g. `io.read`'s `path`, after graph inputs and defaults) that leave the
 * sandbox: the page must not read files through a run that it could not open directly.
 *
 * A valid graph's read paths come from its compiled plan (exactly what a run would read). A graph
 * with other issues has no plan, yet a path outside the sandbox is worth reporting at once, beside
 * those issues, not only once they are fixed: its read paths are then taken from its JSON as far as
 * it goes — parameters of known node types given as text, `$literal` or a graph input's default, in
 * the graph and in the node groups it includes.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { GraphFile, GraphIssue, Plan, Registry } from "../runtime/mod.ts";
import { type GraphSource, isInputRef, isLiteral } from "../runtime/graph.ts";
import { loadModules } from "../runtime/validate/modules.ts";
import { PathRefused, type Sandbox } from "./paths.ts";

/** A read-path parameter's value, by flattened node id (`group/inner` inside node groups). */
interface ReadPath {
  readonly id: string;
  readonly param: string;
  readonly value: string;
}

/**
 * Issues for the read paths of `source` that leave the sandbox; `plan` is the graph's compiled plan
 * when it passed the runtime's validation (the source of truth then). The paths are resolved as one
 * batch ({@link Sandbox.resolveMany}): a generated graph reads 10,000s of files from a few folders.
 */
export async function readsOutside(
  sandbox: Sandbox,
  source: GraphSource,
  registry: Registry,
  plan: Plan | undefined,
): Promise<GraphIssue[]> {
  const reads = plan ? plannedReads(plan) : await declaredReads(sandbox, source, registry);
  const resolved = await sandbox.resolveMany(reads.map((read) => read.value));
  const issues: GraphIssue[] = [];
  for (const [i, { id, param }] of reads.entries()) {
    const refused = resolved[i];
    if (!(refused instanceof PathRefused)) continue;
    // A node inside a group is marked on the group node: that is what the page shows.
    const [top, ...inner] = id.split("/");
    const at = `/nodes/${top.replaceAll("~", "~0")}${inner.length ? "" : `/params/${param}`}`;
    issues.push({ kind: "bad_param", path: at, message: `${id}: ${refused.message}` });
  }
  return issues;
}

/** The read paths of a valid graph's plan. */
function plannedReads(plan: Plan): ReadPath[] {
  const reads: ReadPath[] = [];
  for (const node of plan.nodes.values()) {
    for (const [param, spec] of Object.entries(node.def.params)) {
      const value = node.params[param];
      if (spec.type === "path" && spec.access === "read" && typeof value === "string" && value !== "") {
        reads.push({ id: node.id, param, value });
      }
    }
  }
  return reads;
}

/**
 * The read paths a graph that does not validate declares, as far as its JSON can be read: whatever
 * is malformed is skipped (the validator reports it). `bindings` are the values of the graph's
 * inputs (a group's from its group node; the top graph's defaults).
 */
async function declaredReads(
  sandbox: Sandbox,
  source: GraphSource,
  registry: Registry,
  prefix = "",
  bindings?: Record<string, unknown>,
  seen = new Set<string>(),
): Promise<ReadPath[]> {
  const graph = source.json as GraphFile;
  if (!isObject(graph) || !isObject(graph.nodes) || seen.has(source.file)) return [];
  seen = new Set([...seen, source.file]); // a group cycle: the validator reports it
  const inputs = isObject(graph.inputs) ? graph.inputs : {};
  bindings ??= Object.fromEntries(
    Object.entries(inputs).map(([name, decl]) => [name, isObject(decl) ? decl.default : undefined]),
  );
  const value = (given: unknown) =>
    isInputRef(given) ? bindings[given.$input] : isLiteral(given) ? given.$literal : given;
  // The graph's own modules (already confined to the sandbox) declare node types too.
  const types = (await loadModules(graph.modules, source, registry, () => {})).registry;
  const reads: ReadPath[] = [];
  for (const [id, node] of Object.entries(graph.nodes)) {
    if (!isObject(node) || typeof node.type !== "string") continue;
    const params = isObject(node.params) ? node.params : {};
    if (node.type === "graph") {
      const group = await groupSource(sandbox, source, node.graph);
      if (!group) continue;
      const declared = isObject((group.json as GraphFile).inputs) ? (group.json as GraphFile).inputs! : {};
      const inner = Object.fromEntries(
        Object.entries(declared).map((
          [name, decl],
        ) => [name, name in params ? value(params[name]) : isObject(decl) ? decl.default : undefined]),
      );
      reads.push(...await declaredReads(sandbox, group, registry, `${prefix}${id}/`, inner, seen));
      continue;
    }
    for (const [param, spec] of Object.entries(types.get(node.type)?.params ?? {})) {
      if (spec.type !== "path" || spec.access !== "read") continue;
      const given = value(param in params ? params[param] : spec.default);
      if (typeof given === "string" && given !== "") {
        reads.push({ id: `${prefix}${id}`, param, value: given });
      }
    }
  }
  return reads;
}

/** A node group's graph file, when it lies inside the sandbox and parses. */
async function groupSource(
  sandbox: Sandbox,
  from: GraphSource,
  file: unknown,
): Promise<GraphSource | undefined> {
  if (typeof file !== "string") return undefined;
  try {
    const abs = await sandbox.resolve(resolve(from.dir, file));
    // The page's open version of the group, when it sent one, is what the run would read.
    const text = from.overrides?.get(abs) ?? await Deno.readTextFile(abs);
    return { json: JSON.parse(text), file: abs, dir: dirname(abs), overrides: from.overrides };
  } catch {
    return undefined; // outside, unreadable or not JSON: reported by the sandbox check or the validator
  }
}

// deno-lint-ignore no-explicit-any
function isObject(value: unknown): value is Record<string, any> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}
