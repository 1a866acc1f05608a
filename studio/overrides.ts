/**
 * The open, edited versions of node group files that the page sends with a check or a run
 * (`groups: [{path, graph}]`), so both see the group as the user sees it, unsaved edits included.
 * Each becomes the text a Save would write (`formatGraph`), keyed by the file's real path, and the
 * runtime reads it in place of the file (`GraphSource.overrides`): parsed and validated exactly as
 * the saved file would be, never written to disk.
 *
 * @module
 */
import { formatGraph } from "./format.ts";
import type { Sandbox } from "./paths.ts";

/** The most group files one request may stand in for (a page has a handful open). */
export const MAX_OVERRIDES = 256;

/** A request body that is not what the API expects (answered with HTTP 400). */
export class BadOverrides extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadOverrides";
  }
}

/**
 * Reads a request's `groups` field: absent, or an array of `{path, graph}` with `path` a `.json`
 * file inside the sandbox (else `PathRefused`) and `graph` an object. Returns the stand-in texts by
 * real path.
 *
 * @example
 * ```ts
 * const overrides = await readOverrides([{ path: "graphs/rig.json", graph }], sandbox);
 * ```
 */
export async function readOverrides(groups: unknown, sandbox: Sandbox): Promise<Map<string, string>> {
  const overrides = new Map<string, string>();
  if (groups === undefined) return overrides;
  if (!Array.isArray(groups)) throw new BadOverrides("groups: expected an array of {path, graph}");
  if (groups.length > MAX_OVERRIDES) {
    throw new BadOverrides(`groups: at most ${MAX_OVERRIDES} files, found ${groups.length}`);
  }
  for (const [i, group] of groups.entries()) {
    const { path, graph } = group ?? {};
    if (typeof path !== "string" || !path.endsWith(".json")) {
      throw new BadOverrides(`groups[${i}].path: expected a graph file path ending in .json`);
    }
    if (!graph || typeof graph !== "object" || Array.isArray(graph)) {
      throw new BadOverrides(`groups[${i}].graph: expected a graph object`);
    }
    overrides.set(await sandbox.resolve(path), formatGraph(graph));
  }
  return overrides;
}
