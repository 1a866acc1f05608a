/**
 * A graph file's sockets as a node group (its inputs and typed outputs), from the runtime's own
 * validation, so the editor draws a group node exactly as the runtime will wire it.
 *
 * @module
 */
import {
  type GraphInputDecl,
  loadGraph,
  type Registry,
  type SocketType,
  validateScope,
} from "../runtime/mod.ts";

/** A node group's sockets as plain JSON; `undefined` when the graph does not validate. */
export interface GroupSockets {
  readonly inputs: Readonly<Record<string, GraphInputDecl>>;
  readonly outputs: Readonly<Record<string, SocketType>>;
  /** Inputs that feed a parameter inside: the group node takes them as parameters, not sockets. */
  readonly paramInputs: readonly string[];
}

/** Reads the graph file at `abs` and returns its signature, or undefined when it has issues. */
export async function readGroupSockets(abs: string, registry: Registry): Promise<GroupSockets | undefined> {
  try {
    const { scope } = await validateScope(await loadGraph(abs), registry);
    if (!scope) return undefined;
    const { inputs, outputs, paramInputs } = scope.signature;
    return { inputs, outputs, paramInputs: [...paramInputs].sort() };
  } catch {
    return undefined; // unreadable or not JSON: the editor shows the check's issues instead
  }
}
