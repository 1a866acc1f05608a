/// <reference lib="dom" />
/**
 * The page's open graph files as tabs: a click on one shows its file, each has `*` while unsaved and a
 * close button on every one but the top graph shown; and Revert (the graph shown re-read from its file).
 *
 * @module
 */
import { canonical, type GraphModel } from "./model.ts";
import { api, type GroupSockets, joinPath, type OpenedGraph } from "./types.ts";
import { shownName } from "./shown_name.ts";
import { clickable } from "./keyboard.ts";
import { goneMessage } from "./gone_notice.ts";

/** What reverting and closing work on: the page's open graphs and how it shows them. */
export interface FilesContext {
  /** The open graph files by path. */
  readonly models: Map<string, GraphModel>;
  /** The path of the graph shown and of those it was entered from, the top graph first. */
  readonly stack: readonly string[];
  /** Goes back from the group shown to the graph it was entered from. */
  leaveGroup(): Promise<void>;
  /** Shows an open file (a tab's click): where it was last shown, else as the top graph. */
  show(path: string): Promise<void>;
  /**
   * A graph's sockets as a node group (undefined when it has issues), its own groups read as open in
   * the page: a closed file's may use open, edited ones, even nested below files that are not open.
   */
  signatureOf(path: string, graph: unknown): Promise<GroupSockets | undefined>;
  /** After a revert or a close: redraw, title, stale badges, and the live check again. */
  refreshed(): Promise<void>;
  status(message: string, refused?: boolean): void;
}

const read = (path: string) => api<OpenedGraph>(`/api/graph?path=${encodeURIComponent(path)}`);

/**
 * Revert: the graph shown becomes its file's again, re-read from disk. One undo step (Undo brings
 * the discarded edits back): it costs a JSON copy, and a misclick loses nothing. Asks first when the
 * graph has unsaved changes.
 */
export async function revertShown(ctx: FilesContext): Promise<void> {
  const model = ctx.models.get(ctx.stack[ctx.stack.length - 1]);
  if (!model) return;
  if (!model.hasFile) return ctx.status(`${model.path} is new: it has no file to revert to until Save`, true);
  if (model.dirty && !confirm(`Revert ${model.path} to its file? Its unsaved changes are dropped.`)) {
    return ctx.status(`Revert cancelled: ${model.path} keeps its unsaved changes`);
  }
  // Gone from disk (renamed, moved, deleted): said so, rather than a failed read (a 404 in the console).
  const there = await api<{ exists: boolean }>(`/api/exists?path=${encodeURIComponent(model.path)}`)
    .then((answer) => answer.exists, () => true);
  if (!there) {
    return ctx.status(
      `${goneMessage(model.path)}: nothing to revert to; the page keeps the graph, and Save offers where ` +
        "it went when the same file is found",
      true,
    );
  }
  const loaded = await read(model.path);
  if (canonical(loaded.graph) === canonical(model.graph)) {
    return ctx.status(`Nothing to revert: ${model.path} is as its file has it`);
  }
  const dropped = model.dirty;
  model.revertTo(loaded.graph);
  model.fileDigest = loaded.digest;
  ctx.status(`Reverted ${model.path} to its file${dropped ? " (Undo brings its changes back)" : ""}`);
  // The live check gives the group nodes that run it (and its own) the sockets of the reverted graph.
  await ctx.refreshed();
}

/**
 * A graph open here and unedited, shown again (Tab into it, its file tab, the picker): re-read, and
 * when its file changed on disk since (another tab saved it, an editor or `git pull` wrote it) it
 * becomes the file's, as Revert would (one undo step); the answer says so. A file that cannot be read
 * now (deleted, half-written) leaves the graph as it was, saying why. Edited graphs are left alone:
 * their Save asks (HTTP 409).
 */
export async function followFile(model: GraphModel): Promise<string | undefined> {
  if (model.dirty || !model.hasFile) return undefined;
  let loaded: OpenedGraph;
  try {
    loaded = await read(model.path);
  } catch (error) {
    return `${model.path} cannot be read now (${error instanceof Error ? error.message : error}): ` +
      "shown as it was opened";
  }
  if (loaded.digest === model.fileDigest) return undefined;
  model.fileDigest = loaded.digest;
  if (canonical(loaded.graph) === canonical(model.graph)) return undefined;
  model.revertTo(loaded.graph);
  return `${model.path} changed on disk since it was opened here: shown as its file is now (Undo shows the old)`;
}

/**
 * Closes an open graph file (not the top graph shown): asks first when it has unsaved changes, leaves
 * it if it is shown or entered, forgets it with its edits and undo history, and gives every group
 * node that runs it the file's sockets again. Check and Run then read the file.
 */
export async function closeFile(ctx: FilesContext, path: string): Promise<void> {
  const model = ctx.models.get(path);
  if (!model) return;
  if (path === ctx.stack[0]) return ctx.status(`${path} is the top graph shown: it cannot be closed`, true);
  if (model.dirty && !confirm(`Close ${path}? Its unsaved changes are dropped.`)) {
    return ctx.status(`Close cancelled: ${path} keeps its unsaved changes`);
  }
  while (ctx.stack.includes(path)) await ctx.leaveGroup();
  ctx.models.delete(path);
  // A file that cannot be drawn or has issues has no sockets: the live check marks its nodes. Its
  // sockets come from the file with the groups it uses as open here (unsaved edits included), as a
  // check and a run read them — not from the files alone.
  const signature = model.hasFile
    ? await read(path).then((loaded) => ctx.signatureOf(loaded.path, loaded.graph)).catch(() => undefined)
    : undefined;
  for (const other of ctx.models.values()) {
    for (const rel of [...other.groups.keys()]) {
      if (joinPath(other.path, rel) === path) other.groups.set(rel, signature);
    }
  }
  ctx.status(`Closed ${path}${model.dirty ? ": its unsaved changes are dropped" : ""}`);
  await ctx.refreshed();
}

/** Draws the tabs of the open files into `strip`; a click on one shows its file, its × closes it. */
export function renderFileTabs(
  strip: HTMLElement,
  ctx: FilesContext,
  guarded: (action: () => Promise<unknown>) => () => void,
): void {
  const shown = ctx.stack[ctx.stack.length - 1];
  strip.replaceChildren(...[...ctx.models.values()].map((model) => {
    const tab = document.createElement("span");
    tab.className = model.path === shown ? "file-tab shown" : "file-tab";
    tab.dataset.path = model.path;
    tab.title = model.path;
    tab.textContent = shownName(`${model.path.split("/").pop()}${model.dirty ? " *" : ""}`);
    clickable(tab, guarded(() => ctx.show(model.path)));
    if (model.path !== ctx.stack[0]) {
      const close = Object.assign(document.createElement("button"), {
        className: "close",
        textContent: "×",
        title: `Close ${model.path} (its unsaved changes are dropped)`,
      });
      const closing = guarded(() => closeFile(ctx, model.path));
      close.onclick = (event) => {
        event.stopPropagation(); // closing is not showing: the tab's own click is not run
        closing();
      };
      tab.append(close);
    }
    return tab;
  }));
}
