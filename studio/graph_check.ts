/**
 * The studio's checks of a graph as the page has it: the runtime's own validation (what
 * `partgraph check` runs), plus the sandbox rules for node group files, custom node modules and read
 * paths; and the live check's sockets, from the same open versions of the group files.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { GraphError, type GraphFile, type GraphIssue, type Plan, validateScope } from "../runtime/mod.ts";
import { planOf } from "../runtime/plan.ts";
import { graphFromObject, type GraphSource } from "../runtime/graph.ts";
import type { ApiContext } from "./api_context.ts";
import { PathRefused } from "./paths.ts";
import { readsOutside } from "./reads.ts";
import { type GroupSockets, readGroupsSockets, socketsOf, sourceSockets } from "./signature.ts";

/** A check's or run's request: the graph, where it lives, and the open versions of its group files. */
export interface GraphBody {
  /** Where the graph lives (its relative paths resolve there), resolved in the sandbox. */
  readonly path: string;
  readonly graph: GraphFile;
  /** Group files' texts as open in the page, by real path, read in place of the files. */
  readonly overrides: ReadonlyMap<string, string>;
}

/** The graph as a runtime source; its node groups read from `overrides` first. */
export function sourceOf(
  ctx: ApiContext,
  path: string,
  graph: GraphFile,
  overrides: ReadonlyMap<string, string>,
) {
  const source = graphFromObject(graph, dirname(path), ctx.sandbox.display(path));
  return overrides.size ? { ...source, overrides } : source;
}

/**
 * The runtime's own validation, plus the sandbox rules for custom node modules and read paths. A read
 * path outside the sandbox is reported beside the validator's issues, not only once there are none.
 */
export async function check(
  ctx: ApiContext,
  path: string,
  graph: GraphFile,
  overrides: ReadonlyMap<string, string> = new Map(),
): Promise<GraphIssue[]> {
  const outside = await modulesOutside(ctx, path, graph, overrides);
  return outside.length ? outside : await checkConfined(ctx, sourceOf(ctx, path, graph, overrides));
}

/**
 * {@link check} of a graph whose group files and modules are known to lie inside the sandbox. The graph
 * is validated and compiled once (what `checkGraph` does), and a valid graph's read paths are taken
 * from that plan: compiling it again for them doubled a 20,000-node graph's check.
 */
export async function checkConfined(ctx: ApiContext, source: GraphSource): Promise<GraphIssue[]> {
  return (await validatedOnce(ctx, source)).issues;
}

/**
 * The check's issues and the graph's sockets as a node group from one validation: a valid graph's
 * scope gives both its plan (for the read paths) and its sockets (see `socketsOf`); only a graph with
 * issues is validated again as a group, which may still have sockets (an input with no default is an
 * issue at the top level, not in a group). Opening a 20,000-node graph validated it three times.
 */
async function validatedOnce(
  ctx: ApiContext,
  source: GraphSource,
): Promise<{ issues: GraphIssue[]; signature?: GroupSockets }> {
  let plan: Plan | undefined, issues: GraphIssue[] = [];
  const validated = await validateScope(source, ctx.registry, {});
  if (validated.scope && !validated.issues.length) {
    try {
      plan = planOf(validated.scope, {});
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      issues = error.issues;
    }
  } else issues = validated.issues;
  const signature = validated.scope && !validated.issues.length
    ? socketsOf(validated.scope)
    : await sourceSockets(source, ctx.registry);
  return { issues: [...issues, ...await readsOutside(ctx.sandbox, source, ctx.registry, plan)], signature };
}

/**
 * The page's live check: the issues, and the sockets the editor draws, from the same open versions
 * of the group files — the graph's own as a node group (`signature`: the page gives it to every group
 * node that runs this file) and each group's it uses (`groups`, by `graph` field; null for one with
 * issues). So a socket added or removed in an unsaved group is on its nodes exactly when the check and
 * a run see it. No sockets when a group file or module lies outside the sandbox (none is read).
 */
export async function liveCheck(ctx: ApiContext, { path, graph, overrides }: GraphBody) {
  const outside = await modulesOutside(ctx, path, graph, overrides);
  if (outside.length) return { issues: outside };
  const source = sourceOf(ctx, path, graph, overrides);
  const inside = (p: string) => ctx.sandbox.resolve(p);
  const { issues, signature } = await validatedOnce(ctx, source);
  return {
    issues,
    signature,
    groups: await readGroupsSockets(graph, dirname(path), inside, ctx.registry, overrides),
  };
}

/**
 * Node group files and custom node modules (which run code) must lie inside the sandbox, in this graph
 * and in every group it includes, before the runtime reads or imports any of them.
 */
export async function modulesOutside(
  ctx: ApiContext,
  path: string,
  graph: GraphFile,
  overrides: ReadonlyMap<string, string> = new Map(),
  seen = new Set<string>(),
): Promise<GraphIssue[]> {
  const issues: GraphIssue[] = [];
  if (seen.has(path)) return issues; // a cycle: the validator reports it
  seen.add(path);
  const file = ctx.sandbox.display(path);
  const inside = async (relative: unknown, at: string): Promise<string | undefined> => {
    try {
      return await ctx.sandbox.resolve(resolve(dirname(path), String(relative)));
    } catch (error) {
      if (!(error instanceof PathRefused)) throw error;
      issues.push({ kind: "invalid_graph", path: at, message: error.message, file });
    }
  };
  for (const [i, module] of (Array.isArray(graph.modules) ? graph.modules : []).entries()) {
    await inside(module, `/modules/${i}`);
  }
  const nodes = graph.nodes && typeof graph.nodes === "object" ? Object.entries(graph.nodes) : [];
  for (const [id, node] of nodes) {
    if (node?.type !== "graph" || typeof node.graph !== "string") continue;
    const group = await inside(node.graph, `/nodes/${id.replaceAll("~", "~0")}/graph`);
    const text = group && (overrides.get(group) ?? await Deno.readTextFile(group).catch(() => undefined));
    let json: unknown;
    try {
      json = text === undefined ? undefined : JSON.parse(text);
    } catch {
      continue; // not JSON: the validator reports it
    }
    if (json && typeof json === "object") {
      issues.push(...await modulesOutside(ctx, group!, json as GraphFile, overrides, seen));
    }
  }
  return issues;
}
