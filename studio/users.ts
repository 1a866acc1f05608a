/**
 * Which graph files use a node group file: `GET /api/users`. Renaming a group's input or output in
 * the page changes every graph that uses it; those not open in the page are found here, among the
 * graph files the studio lists (`graphs/`) and those beside the group file.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { uneditable } from "./editable.ts";
import type { Sandbox } from "./paths.ts";

/** The graph files that use a group file: those the editor can open, and those it cannot draw. */
export interface GroupUsers {
  /** The group file, as the server displays paths. */
  readonly path: string;
  /** Graph files with a node group that runs it, which the editor can open. */
  readonly users: string[];
  /** Graph files that run it but that the editor cannot draw (or read): to be fixed by hand. */
  readonly unopenable: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Finds the `.json` files in `graphs/` and in the group file's folder whose nodes include a node group
 * (`type: "graph"`) whose `graph` resolves to `path`. A file that is not JSON is no user; one of
 * another shape that names the group anyway is listed as unopenable.
 *
 * @example
 * ```ts
 * await groupUsers(sandbox, "graphs/rig.json");
 * // { path: "graphs/rig.json", users: ["graphs/aircraft.json", "graphs/aircraft_file.json"], unopenable: [] }
 * ```
 */
export async function groupUsers(sandbox: Sandbox, path: string): Promise<GroupUsers> {
  const group = await sandbox.resolve(path);
  const folders = new Set([dirname(group)]);
  const graphs = await sandbox.resolve("graphs").catch(() => undefined);
  if (graphs) folders.add(graphs);
  const users: string[] = [], unopenable: string[] = [];
  for (const folder of folders) {
    const entries = await Array.fromAsync(Deno.readDir(folder)).catch(() => []);
    for (const entry of entries.filter((e) => e.isFile && e.name.endsWith(".json"))) {
      const file = join(folder, entry.name);
      if (file === group) continue;
      let graph: unknown;
      try {
        graph = JSON.parse(await Deno.readTextFile(file));
      } catch {
        continue;
      }
      const nodes = isObject(graph) && isObject(graph.nodes) ? Object.values(graph.nodes) : [];
      const runs = nodes.some((node) =>
        isObject(node) && node.type === "graph" && typeof node.graph === "string" &&
        resolve(folder, node.graph) === group
      );
      if (!runs) continue;
      (uneditable(graph).length ? unopenable : users).push(sandbox.display(file));
    }
  }
  return { path: sandbox.display(group), users: users.sort(), unopenable: unopenable.sort() };
}
