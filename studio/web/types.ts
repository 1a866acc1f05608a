/// <reference lib="dom" />
/**
 * Shapes the page exchanges with the studio server (the server sends the runtime's own facts).
 *
 * @module
 */

/** A JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A socket of a node definition. */
export interface SocketDef {
  type: string;
  doc: string;
  optional?: boolean;
}

/** A parameter spec, as `partgraph nodes` describes it. */
export interface ParamDef {
  type: "number" | "string" | "boolean" | "enum" | "json" | "path";
  doc: string;
  default?: Json;
  min?: number;
  max?: number;
  integer?: boolean;
  values?: Json[];
  access?: string;
}

/** One node type of the catalogue. */
export interface NodeDef {
  type: string;
  version: number;
  doc: string;
  inputs: Record<string, SocketDef>;
  outputs: Record<string, SocketDef>;
  params: Record<string, ParamDef>;
}

/** The catalogue. */
export interface Catalogue {
  types: string[];
  nodes: NodeDef[];
}

/** A node group's sockets. */
export interface GroupSockets {
  inputs: Record<string, { type: string; default?: Json; description?: string }>;
  outputs: Record<string, string>;
  paramInputs: string[];
}

/** `GET /api/graph`'s answer: a graph file as the editor opens it. */
export interface OpenedGraph {
  /** The file's path as the server displays it. */
  path: string;
  graph: Graph;
  /** Its sockets as a node group, when it validates. */
  signature?: GroupSockets;
  /** The node types of its own `modules`, described as the catalogue's. */
  nodes?: NodeDef[];
  /** The sockets of each node group it uses, by its `graph` field; null when the file has none. */
  groups?: Record<string, GroupSockets | null>;
  /** SHA-256 of the file's bytes as read: Save sends it back to learn whether the file changed since. */
  digest?: string;
}

/** One node of a graph file. */
export interface GraphNode {
  type: string;
  graph?: string;
  params?: Record<string, Json>;
  inputs?: Record<string, string | { $input: string }>;
  comment?: string;
}

/** A graph file, as the editor changes it. */
export interface Graph {
  $schema?: string;
  version: 1;
  name?: string;
  description?: string;
  inputs?: Record<string, { type: string; default?: Json; description?: string }>;
  modules?: string[];
  nodes: Record<string, GraphNode>;
  outputs?: Record<string, string>;
  ui?: { nodes?: Record<string, [number, number]>; inputs?: [number, number]; outputs?: [number, number] };
}

/** A validation issue, as `partgraph check --json` reports it. */
export interface Issue {
  kind: string;
  path: string;
  message: string;
  file?: string;
}

/** A run event (the runtime's NodeEvent / WarningEvent). */
export interface RunEvent {
  event: "node" | "warning";
  id: string;
  type: string;
  state?: "running" | "cached" | "done" | "failed" | "skipped";
  ms?: number;
  message?: string;
  error?: { message?: string };
}

/** Fetches JSON from the studio API; throws the server's message on failure. */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(
    path,
    body === undefined ? undefined : {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    },
  );
  const data = await response.json();
  if (!response.ok) throw new Error(data.error ?? `${path}: HTTP ${response.status}`);
  return data as T;
}

/** Joins a graph file's folder and a relative path, as the runtime resolves group and module paths. */
export function joinPath(fromFile: string, relative: string): string {
  if (relative.startsWith("/")) return relative;
  const parts = fromFile.split("/").slice(0, -1);
  for (const part of relative.split("/")) {
    if (part === "..") parts.length && parts[parts.length - 1] !== ".." ? parts.pop() : parts.push("..");
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/**
 * The path of `to` relative to the folder `fromDir` (both as the server displays paths: relative to
 * the project, or absolute), as a group node's `graph` field names a file. Undefined when it cannot be
 * said without knowing folder names the paths leave out (one absolute and one not, or `fromDir`
 * climbing above the project with `..`).
 */
export function relativePath(fromDir: string, to: string): string | undefined {
  if (fromDir.startsWith("/") !== to.startsWith("/")) return undefined;
  const from = fromDir.split("/").filter((p) => p && p !== ".");
  const target = to.split("/").filter((p) => p && p !== ".");
  let shared = 0;
  while (shared < from.length && shared < target.length && from[shared] === target[shared]) shared++;
  const up = from.slice(shared);
  if (up.includes("..")) return undefined;
  return [...up.map(() => ".."), ...target.slice(shared)].join("/") || ".";
}

/** The folder of a path as the server displays it ("" for a file in the project's top folder). */
export function folderOf(path: string): string {
  return path.split("/").slice(0, -1).join("/") || (path.startsWith("/") ? "/" : "");
}
