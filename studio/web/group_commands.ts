/// <reference lib="dom" />
/**
 * The page's Ctrl+G and Alt+G: group the selected nodes into a new graph file, or replace a node
 * group by its nodes — asking for the file's name, writing it, and applying the change to the open
 * graph as one undo step. The graph rewriting itself is `grouping.ts`'s.
 *
 * @module
 */
import { groupNodes, ungroupNode } from "./grouping.ts";
import { GraphModel } from "./model.ts";
import {
  api,
  type Catalogue,
  type Graph,
  type GroupSockets,
  type Issue,
  joinPath,
  type OpenedGraph,
} from "./types.ts";

/** What the commands work on: the open graph, the page's graphs and catalogue, its status bar. */
export interface GroupContext {
  /** The graph shown. */
  readonly model: GraphModel;
  /** Every graph the page has open, by path. */
  readonly models: Map<string, GraphModel>;
  /** The built-in node catalogue. */
  readonly catalogue: Catalogue;
  /** Paths of graphs the page knows (open ones and the picker's). */
  knownPaths(): readonly string[];
  /** Selects nodes in the editor. */
  select(ids: string[]): void;
  /** What the page does after an edit (check, redraw, mark unsaved). */
  afterEdit(): void;
  /** Shows a message in the status bar. */
  status(message: string, refused?: boolean): void;
}

/**
 * Ctrl+G: the selected nodes become a node group. Asks for the new file's name (beside the open
 * graph by default; a graph file that exists is overwritten only when confirmed, and only as it was
 * when the user was asked; any other file is never overwritten), writes it, and puts one
 * group node in the nodes' place, wired as they were, as one undo step (Undo leaves the file).
 */
export async function groupSelection(ctx: GroupContext, ids: string[]): Promise<void> {
  const { model, models, catalogue, status } = ctx;
  const count = ids.filter((id) => id in model.graph.nodes).length;
  if (!count) return status("Ctrl+G: select the nodes to group first", true);
  const folder = model.path.split("/").slice(0, -1).join("/") || ".";
  let file = freeGroupFile(model, ctx.knownPaths());
  const plan = (file: string) =>
    groupNodes(model.graph, ids, {
      outerPath: model.path,
      file,
      socketType: (node, socket) => model.shape(node).outputs.find((s) => s.name === socket)?.type,
      moduleTypes: new Set(
        model.catalogue.nodes.filter((n) => !catalogue.nodes.includes(n)).map((n) => n.type),
      ),
    });
  // A selection that cannot be grouped is refused before a file name is asked for.
  const first = plan(file);
  if (typeof first === "string") return status(`Cannot group: ${first}`, true);
  // Why the name asked for last was not written, said with the next question.
  let note = "";
  for (;;) {
    const typed = prompt(
      `${note}Group ${count} node(s) into a new graph file (a path relative to ${folder}/):`,
      file,
    );
    if (typed === null || !typed.trim()) return status("Group cancelled: nothing changed");
    file = typed.trim().replace(/^\.\//, "");
    if (!file.toLowerCase().endsWith(".json")) file += ".json";
    const grouped = plan(file);
    if (typeof grouped === "string") return status(`Cannot group: ${grouped}`, true);
    const path = joinPath(model.path, file);
    const written = await saveNew(path, grouped.inner);
    if ("exists" in written) {
      if (!written.graph) {
        note = `${path} exists and is not a graph file: choose another name.\n`;
        continue;
      }
      // An open copy's unsaved edits go with the file: say so before, not after.
      const unsaved = models.get(path)?.dirty ? " Its unsaved edits in this page are lost too." : "";
      if (!confirm(`${path} exists. Overwrite it with the new group?${unsaved}`)) continue;
      // Only the file the user was asked about is replaced: one changed since (another tab, an
      // editor, git) is kept, and the name asked for again.
      if (await replaceFile(path, grouped.inner, written.digest) === "changed") {
        note = `${path} changed on disk while you were asked: not overwritten.\n`;
        continue;
      }
      // An open copy of the file is no longer what it holds.
      models.delete(path);
    }
    const sub = await api<{ signature?: GroupSockets }>(`/api/graph?path=${encodeURIComponent(path)}`);
    model.groups.set(file, sub.signature);
    model.replace(grouped.outer, `group ${count} node(s) into ${file}`);
    ctx.select([grouped.node]);
    ctx.afterEdit();
    return status(
      `Grouped ${count} node(s) into ${path} as node ${grouped.node}. ` +
        `Undo restores the graph; the file stays.`,
    );
  }
}

/** A group file name beside the open graph that no graph the page knows has: group.json, group_2.json… */
function freeGroupFile(model: GraphModel, knownPaths: readonly string[]): string {
  const known = new Set(knownPaths);
  let file = "group.json";
  for (let i = 2; known.has(joinPath(model.path, file)); i++) file = `group_${i}.json`;
  return file;
}

/** What the server says of a saved graph file: where, how many bytes, and its check's issues. */
export interface SavedFile {
  readonly path: string;
  readonly bytes: number;
  readonly issues: Issue[];
  /** SHA-256 of the bytes written (see `OpenedGraph.digest`). */
  readonly digest?: string;
}

/** What `/api/exists` says of a path (by save's rules; a hidden or escaping path is an HTTP error). */
export type Taken = { exists: true; graph: false } | { exists: true; graph: true; digest: string };

/**
 * Writes a new graph file, or says what holds its path (the file is then untouched): save may replace
 * it only when `graph`, and then only as it was (`digest`, for {@link replaceFile}). The page asks
 * first whether it exists, so a name that is taken is an answer, not an HTTP error the browser logs;
 * the save is still exclusive (`create`), and a file made in between is the server's 409, answered
 * the same way.
 */
export async function saveNew(path: string, graph: Graph): Promise<SavedFile | Taken> {
  const taken = () => api<{ exists: false } | Taken>(`/api/exists?path=${encodeURIComponent(path)}`);
  const before = await taken();
  if (before.exists) return before;
  const response = await fetch("/api/save", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path, graph, create: true }),
  });
  const answer = await response.json();
  if (response.status === 409 && answer.exists) {
    const now = await taken();
    if (now.exists) return now;
  }
  if (!response.ok) throw new Error(answer.error ?? `saving ${path}: HTTP ${response.status}`);
  return answer as SavedFile;
}

/**
 * Writes a graph file over the one the user agreed to replace, whose digest was `base`: "changed" when
 * the file on disk is another now (save's HTTP 409), and nothing is written.
 */
export async function replaceFile(path: string, graph: Graph, base: string): Promise<SavedFile | "changed"> {
  const response = await fetch("/api/save", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path, graph, base }),
  });
  const answer = await response.json();
  if (response.status === 409 && answer.changed) return "changed";
  if (!response.ok) throw new Error(answer.error ?? `saving ${path}: HTTP ${response.status}`);
  return answer as SavedFile;
}

/**
 * Alt+G: a selected node group is replaced by its nodes, wired through, as one undo step. The group's
 * graph is taken as the page shows it (with unsaved changes, if it is open) — what Tab shows.
 */
export async function ungroupSelection(ctx: GroupContext, ids: string[]): Promise<void> {
  const { model, models, catalogue, status } = ctx;
  const id = ids.find((i) => model.graph.nodes[i]?.type === "graph");
  if (!id) return status("Alt+G: select a node group to ungroup", true);
  const rel = model.graph.nodes[id].graph ?? "";
  const loaded = await api<OpenedGraph>(`/api/graph?path=${encodeURIComponent(joinPath(model.path, rel))}`);
  const open = models.get(loaded.path);
  // A copy laid out as the editor lays it out (a file without positions gets columns).
  const inner =
    new GraphModel(loaded.path, structuredClone(open?.graph ?? loaded.graph), catalogue, new Map())
      .graph;
  const done = ungroupNode(model.graph, id, inner, { outerPath: model.path, innerPath: loaded.path });
  if (typeof done === "string") return status(`Cannot ungroup: ${done}`, true);
  // The group's own module node types now draw in this graph too.
  const known = new Set(model.catalogue.nodes.map((n) => n.type));
  const extra = (loaded.nodes ?? []).filter((n) => !known.has(n.type));
  if (extra.length) model.catalogue = { ...model.catalogue, nodes: [...extra, ...model.catalogue.nodes] };
  // Its nested groups, their paths now from the outer graph's folder, keep the sockets the server
  // gave with the group's file (`done.ids` are in the order of the inner graph's nodes); one added
  // in the group's unsaved edits is asked for.
  for (const [i, innerId] of Object.keys(inner.nodes).entries()) {
    const from = inner.nodes[innerId].graph;
    const to = done.outer.nodes[done.ids[i]].graph;
    if (from === undefined || to === undefined || model.groups.has(to)) continue;
    const known = loaded.groups && Object.hasOwn(loaded.groups, from);
    const sockets = known ? loaded.groups![from] : await api<{ signature?: GroupSockets }>(
      `/api/graph?path=${encodeURIComponent(joinPath(model.path, to))}`,
    ).then((sub) => sub.signature, () => undefined);
    model.groups.set(to, sockets ?? undefined);
  }
  model.replace(done.outer, `ungroup ${id}`);
  ctx.select(done.ids);
  ctx.afterEdit();
  // A value the group gave a socket is now a graph input's default: say where it went.
  const inputs = done.inputs.length
    ? `; the value${done.inputs.length > 1 ? "s" : ""} it gave sockets now in new graph input${
      done.inputs.length > 1 ? "s" : ""
    } ${done.inputs.join(", ")}`
    : "";
  status(
    `Ungrouped ${id} (${rel}) into ${done.ids.join(", ")}${
      open?.dirty ? " (with its unsaved changes)" : ""
    }${inputs}`,
  );
}
