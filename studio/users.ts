/**
 * Which graph files use a node group file: `GET /api/users`. Renaming a group's input or output in
 * the page changes every graph that uses it; those not open in the page are found here, among the
 * `.json` files under every folder the studio may open (the project, `--root` folders, `--out`): a
 * graph elsewhere cannot be opened in the studio, so none of its users the page could draw is missed.
 * Dependencies and tool state (`node_modules`, dot-folders such as `.git` and the cache) are not graphs
 * and are left out; so are symlinks (a link cannot lead the walk out of the sandbox, or round in a loop).
 *
 * @module
 */
import { join, resolve, sep } from "node:path";
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
  /** The folders searched, each with every folder below it (the sandbox's roots, as displayed). */
  readonly searched: string[];
  /** How many `.json` files were read. */
  readonly files: number;
  /** False when the walk stopped at {@link WALK_LIMIT} entries: users past it were not looked for. */
  readonly complete: boolean;
  /**
   * The folders not searched to the end (as displayed, shallowest first, at most
   * {@link UNFINISHED_NAMED}; none inside another): users below them may have been missed.
   */
  readonly unfinished: string[];
  /** How many folders were not searched to the end, those named and the rest. */
  readonly unfinishedCount: number;
}

/** Folder names never walked: dependencies, not graphs (a project's holds thousands of package.json). */
const SKIPPED = new Set(["node_modules"]);
/** Directory entries walked at most, so a huge `--root` (a game's whole install) cannot stall a rename. */
export const WALK_LIMIT = 50_000;
/** Larger `.json` files are run outputs or data, not graphs: not read. */
const MAX_BYTES = 4 << 20;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Finds the `.json` files under the sandbox's roots whose nodes include a node group
 * (`type: "graph"`) whose `graph` resolves to `path`. A file that is not JSON is no user; one of
 * another shape that names the group anyway is listed as unopenable.
 *
 * @example
 * ```ts
 * await groupUsers(sandbox, "graphs/rig.json");
 * // { path: "graphs/rig.json", users: ["graphs/aircraft.json", "graphs/aircraft_file.json"], unopenable: [],
 * //   searched: [".", "out"], files: 20, complete: true, unfinished: [], unfinishedCount: 0 }
 * ```
 */
export async function groupUsers(sandbox: Sandbox, path: string): Promise<GroupUsers> {
  const group = await sandbox.resolve(path);
  const users: string[] = [], unopenable: string[] = [];
  let itself = 0; // the group file is read by the walk, but is not one of the files looked in
  const { files, complete, unfinished } = await walkJsonFiles(sandbox, (file, folder, text) => {
    if (file === group) return void (itself = 1);
    const runs = runsGroup(text, folder, group);
    if (runs) (uneditable(runs).length ? unopenable : users).push(sandbox.display(file));
  });
  // A root inside another (out/ in the project) was walked with it.
  const searched = sandbox.roots.filter((root) => !inAnother(root, sandbox.roots));
  return {
    path: sandbox.display(group),
    users: users.sort(),
    unopenable: unopenable.sort(),
    searched: searched.map((root) => sandbox.display(root) || "."),
    files: files - itself,
    complete,
    unfinished: unfinished.slice(0, UNFINISHED_NAMED).map((folder) => sandbox.display(folder) || "."),
    unfinishedCount: unfinished.length,
  };
}

/** Entries a folder has walked in each round before the other open folders have theirs. */
const SHARE = 500;
/** Folders named at most as not searched to the end (a game's install may leave thousands). */
export const UNFINISHED_NAMED = 20;

/** What {@link walkJsonFiles} walked: `.json` files read, and the folders it did not finish. */
export interface JsonWalk {
  readonly files: number;
  /** False when the walk stopped at {@link WALK_LIMIT} entries. */
  readonly complete: boolean;
  /**
   * Folders not searched to the end (absolute, shallowest first, then by name), none inside another
   * of them: what lies below one of these may hold files never looked at. Empty when complete.
   */
  readonly unfinished: string[];
}

/** A folder to walk, and the tree it is in: a root, or a folder just below a root, which shares one. */
interface Queued {
  readonly path: string;
  readonly tree: string;
}

/** A folder being walked: its entries (sorted by name, so the walk is the same on every machine). */
interface OpenFolder extends Queued {
  readonly entries: Deno.DirEntry[];
  next: number;
}

/**
 * Calls `visit` with each `.json` file under the sandbox's roots (its path, folder and text) small
 * enough to be a graph, dependencies, dot-folders and symlinks left out, at most {@link WALK_LIMIT}
 * entries walked.
 *
 * The budget is shared fairly: the walk goes in rounds, breadth first (the roots, then the folders
 * found in the round before), and in each round each tree — a root's own entries, or everything
 * under one folder just below a root — walks at most {@link SHARE} entries. Walking each folder to
 * its end before the next (depth first, as before) let one big folder — an `out/` of 70,000 scratch
 * files, a tool's cache of a hundred folders of 500 — spend the whole budget before the `graphs/`
 * beside it was opened. Now a big tree is walked last, and the answer names the trees (a folder just
 * below a root, or a root) it left unfinished.
 */
export async function walkJsonFiles(
  sandbox: Sandbox,
  visit: (file: string, folder: string, text: string) => void | Promise<void>,
): Promise<JsonWalk> {
  const seen = new Set<string>();
  let entries = 0, files = 0;
  let queued: Queued[] = sandbox.roots.map((root) => ({ path: root, tree: root }));
  let open: OpenFolder[] = [];
  while ((queued.length || open.length) && entries < WALK_LIMIT) {
    for (const { path, tree } of queued) {
      // A root inside another (out/ in the project) is walked once.
      if (seen.has(path)) continue;
      seen.add(path);
      const listed = await listFolder(path);
      if (listed.length) open.push({ path, tree, entries: listed, next: 0 });
    }
    queued = [];
    const spent = new Map<string, number>();
    for (const folder of open) {
      const share = SHARE - (spent.get(folder.tree) ?? 0);
      const end = Math.min(folder.entries.length, folder.next + Math.max(0, share));
      spent.set(folder.tree, SHARE - share + (end - folder.next));
      while (folder.next < end && entries < WALK_LIMIT) {
        const entry = folder.entries[folder.next++];
        entries++;
        const file = join(folder.path, entry.name);
        if (entry.isDirectory && !entry.name.startsWith(".") && !SKIPPED.has(entry.name)) {
          // A folder just below a root is a tree of its own; deeper ones share their tree's.
          queued.push({
            path: file,
            tree: folder.path === folder.tree && isRoot(folder, sandbox) ? file : folder.tree,
          });
        }
        if (!entry.isFile || !entry.name.endsWith(".json")) continue;
        const text = await readSmall(file);
        if (text === undefined) continue;
        files++;
        await visit(file, folder.path, text);
      }
    }
    open = open.filter((folder) => folder.next < folder.entries.length);
  }
  // Named by tree: a cache's hundred unfinished folders are one folder beside the graphs.
  const left = new Set([
    ...open.map((folder) => folder.tree),
    ...queued.filter(({ path }) => !seen.has(path)).map(({ tree }) => tree),
  ]);
  return { files, complete: left.size === 0, unfinished: outermost([...left]) };
}

/** Whether `folder` is one of the sandbox's roots. */
function isRoot(folder: Queued, sandbox: Sandbox): boolean {
  return sandbox.roots.includes(folder.path);
}

/** A folder's entries sorted by name (code units); none when it cannot be read. */
async function listFolder(path: string): Promise<Deno.DirEntry[]> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(path)) entries.push(entry);
  } catch {
    return entries;
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `folders` without those inside another of them, shallowest first, then by name. */
function outermost(folders: readonly string[]): string[] {
  const depth = (path: string) => path.split(sep).length;
  return folders
    .filter((folder) => !inAnother(folder, folders))
    .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** A file's text, or undefined when it is too large to be a graph or cannot be read. */
async function readSmall(file: string): Promise<string | undefined> {
  try {
    if ((await Deno.stat(file)).size > MAX_BYTES) return undefined;
    return await Deno.readTextFile(file);
  } catch {
    return undefined;
  }
}

/** The parsed graph when `text` (a file in `folder`) has a node group running `group`, else undefined. */
function runsGroup(text: string, folder: string, group: string): unknown {
  // Most JSON files are no graph: only one that names a node type "graph" is parsed.
  if (!text.includes('"graph"')) return undefined;
  let graph: unknown;
  try {
    graph = JSON.parse(text);
  } catch {
    return undefined;
  }
  const nodes = isObject(graph) && isObject(graph.nodes) ? Object.values(graph.nodes) : [];
  const runs = nodes.some((node) =>
    isObject(node) && node.type === "graph" && typeof node.graph === "string" &&
    resolve(folder, node.graph) === group
  );
  return runs ? graph : undefined;
}

/** True when `root` lies inside another of `roots`. */
function inAnother(root: string, roots: readonly string[]): boolean {
  return roots.some((other) => other !== root && root.startsWith(`${other}${sep}`));
}
