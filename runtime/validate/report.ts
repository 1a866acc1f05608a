/**
 * What the validation modules share: the issue reporter, the socket shapes of a scope's nodes,
 * and small JSON helpers.
 *
 * @module
 */
import type { GraphIssueKind } from "../errors.ts";
import type { GraphInputDecl } from "../graph.ts";
import type { JsonValue, PluginTables, SocketType } from "../node.ts";

/** Adds one issue to the scope being validated. */
export type Report = (kind: GraphIssueKind, path: string, message: string) => void;

/** Sockets of one node as validation sees them: its declaration or a group's signature. */
export interface NodeShape {
  /** Input sockets by name. */
  readonly inputs: Readonly<Record<string, { type: SocketType; optional: boolean }>>;
  /** Output socket types by name. */
  readonly outputs: Readonly<Record<string, SocketType>>;
}

/** What the checks of one scope (graph file) look at. */
export interface ScopeFacts {
  /** The scope's declared inputs. */
  readonly inputs: Readonly<Record<string, GraphInputDecl>>;
  /** Literal values known for inputs (given from outside, or by the group node using this file). */
  readonly known: Readonly<Record<string, JsonValue>>;
  /** The raw node declarations by id. */
  readonly decls: Readonly<Record<string, unknown>>;
  /** The shape of every node whose type is known. */
  readonly shapes: ReadonlyMap<string, NodeShape>;
  /** The registry in use (plug-in tables for plug-in parameter specs). */
  readonly plugins: PluginTables;
  /** Where issues go. */
  readonly issue: Report;
}

export { isObject } from "../json_shape.ts";

/** Escapes a key for a JSON Pointer. */
export function esc(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
