/**
 * A graph file's sockets as a node group (its inputs and typed outputs), from the runtime's own
 * validation, so the editor draws a group node exactly as the runtime will wire it.
 *
 * @module
 */
import { resolve } from "node:path";
import { type GraphInputDecl, type Registry, type SocketType, validateScope } from "../runtime/mod.ts";
import type { Scope } from "../runtime/validate.ts";
import { type GraphSource, readGraphFile } from "../runtime/graph.ts";

/** A node group's sockets as plain JSON; `undefined` when the graph does not validate. */
export interface GroupSockets {
  readonly inputs: Readonly<Record<string, GraphInputDecl>>;
  readonly outputs: Readonly<Record<string, SocketType>>;
  /** Inputs that feed a parameter inside: the group node takes them as parameters, not sockets. */
  readonly paramInputs: readonly string[];
}

/**
 * The sockets of each node group a graph uses, by its `graph` field as written: `null` for a file
 * outside the sandbox (`inside` throws), unreadable, or with issues. The editor draws a group node
 * from these, so opening a graph needs one request, however many groups it has or lacks. A file in
 * `overrides` (the page's open version of it, by real path) is read from there, as a check or run
 * of the graph reads it.
 */
export async function readGroupsSockets(
  graph: { nodes?: unknown },
  dir: string,
  inside: (path: string) => Promise<string>,
  registry: Registry,
  overrides?: ReadonlyMap<string, string>,
): Promise<Record<string, GroupSockets | null>> {
  const groups: Record<string, GroupSockets | null> = {};
  const nodes = graph.nodes && typeof graph.nodes === "object" ? Object.values(graph.nodes) : [];
  for (const node of nodes) {
    const file = node?.type === "graph" ? node.graph : undefined;
    if (typeof file !== "string" || Object.hasOwn(groups, file)) continue;
    const abs = await inside(resolve(dir, file)).catch(() => undefined);
    groups[file] = (abs === undefined ? undefined : await readGroupSockets(abs, registry, overrides)) ?? null;
  }
  return groups;
}

/**
 * Reads the graph file at `abs` (or its text in `overrides`, read as the runtime reads a group's
 * file) and returns its signature, or undefined when it is unreadable or has issues.
 */
export async function readGroupSockets(
  abs: string,
  registry: Registry,
  overrides?: ReadonlyMap<string, string>,
): Promise<GroupSockets | undefined> {
  const { source } = await readGraphFile(abs, overrides);
  return source && await sourceSockets(source, registry);
}

/**
 * A graph's sockets as a node group, validated as the runtime validates a group's file (its own
 * groups read through `source.overrides`); undefined when it has issues.
 */
export async function sourceSockets(
  source: GraphSource,
  registry: Registry,
): Promise<GroupSockets | undefined> {
  try {
    const { scope } = await validateScope(source, registry);
    return scope && socketsOf(scope);
  } catch {
    return undefined; // a module that throws on load: the editor shows the check's issues instead
  }
}

/**
 * The sockets of a validated scope. They come from its declarations alone (inputs, outputs, the
 * inputs its parameters use), never from the values it was validated with, so a scope validated as a
 * top-level graph gives the same sockets as one validated as a group.
 */
export function socketsOf(scope: Scope): GroupSockets {
  const { inputs, outputs, paramInputs } = scope.signature;
  return { inputs, outputs, paramInputs: [...paramInputs].sort() };
}
