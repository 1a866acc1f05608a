/// <reference lib="dom" />
/**
 * The page's open graph files: read from the server (with their node groups' sockets and their own
 * modules' node types) or started new, and kept by path; a node renamed in one (or the rename undone)
 * is followed by everything the page keeps by node id — run badges, file tabs' ways in, the selection.
 *
 * @module
 */
import type { NodeEditor, NodeState } from "./editor.ts";
import { othersOpen } from "./live_check.ts";
import { GraphModel } from "./model.ts";
import { scopesOf } from "./scopes.ts";
import type { RunStates } from "./states.ts";
import type { Trails } from "./trails.ts";
import { api, type Catalogue, type OpenedGraph } from "./types.ts";

/** What the open graphs need of the page: where a rename is followed. */
export interface OpenGraphsPage {
  readonly catalogue: Catalogue;
  readonly runs: RunStates;
  readonly trails: Trails;
  readonly editor: NodeEditor;
  /** The graph shown. */
  current(): GraphModel;
  /** The paths of the graph shown and those it was entered from, the top graph first. */
  readonly stack: readonly string[];
  /** The group nodes Tab entered to reach the graph shown. */
  readonly entered: readonly string[];
  /** The run states of the graph shown, as they are now (after a rename). */
  runStates(): Map<string, NodeState>;
}

/** The page's open graph files, by path, and how they are opened. */
export class OpenGraphs {
  /** The open graph files, by path. */
  readonly models = new Map<string, GraphModel>();

  constructor(private readonly page: () => OpenGraphsPage) {}

  /** Reads a graph file into the page's open graphs (not shown), with its node groups' sockets. */
  async load(path: string): Promise<GraphModel> {
    const { catalogue } = this.page();
    // Without its own sockets (`sockets=0`): its live check, sent as it is shown, answers them.
    const loaded = await api<OpenedGraph>(`/api/graph?path=${encodeURIComponent(path)}&sockets=0`);
    // A group file that is missing or has issues has no sockets: the live check marks its node.
    const groups = new Map(Object.entries(loaded.groups ?? {}).map(([file, s]) => [file, s ?? undefined]));
    // Node types of the graph's own `modules` draw and add like built-ins, in this graph only.
    const own = loaded.nodes?.length
      ? { ...catalogue, nodes: [...loaded.nodes, ...catalogue.nodes] }
      : catalogue;
    const model = new GraphModel(loaded.path, loaded.graph, own, groups);
    model.fileDigest = loaded.digest;
    return this.register(model);
  }

  /** A new, empty graph at `path`, added to the page's open graphs. */
  newGraph(path: string): GraphModel {
    return this.register(new GraphModel(path, { version: 1, nodes: {} }, this.page().catalogue, new Map()));
  }

  /**
   * Undo with nothing to undo in the graph shown (`shown`), while another open file has edits to undo
   * (edited in a group, then Tab back): each file has its own history, as each has its own Save, so
   * say where the steps are rather than a bare "Nothing to undo" that reads as if the edit were lost.
   * Undefined when no other file has steps.
   */
  nothingTo(shown: string, direction: "undo" | "redo"): string | undefined {
    const others = othersOpen(this.models, shown).filter((m) => m.steps(direction) > 0).map((m) => m.path);
    if (!others.length) return undefined;
    return `Nothing to ${direction} in ${shown}; each open file has its own history: ` +
      `${others.join(", ")} ${others.length > 1 ? "have" : "has"} steps to ${direction} (click its tab)`;
  }

  /** Adds a graph to the page's open graphs; a node renamed in it keeps its run badge and file tabs. */
  private register(model: GraphModel): GraphModel {
    model.nodeRenamed = (from, to) => this.followNodeRename(model, from, to);
    this.models.set(model.path, model);
    return model;
  }

  /**
   * Node `from` of `model` is now `to` (renamed, or a rename undone or redone): the run states and the
   * file tabs' remembered ways in (the group nodes Tab entered) know nodes by id, so they follow —
   * under every top graph that runs the file, through each group node that does (a group file shared
   * by two top graphs is renamed in both one's run and the other's trails), as the open graphs show
   * them.
   */
  private followNodeRename(model: GraphModel, from: string, to: string): void {
    const page = this.page();
    const graphOf = (path: string) => this.models.get(path)?.graph;
    for (const top of this.models.keys()) {
      const scopes = scopesOf(graphOf, top, model.path);
      // Where it is shown counts even if the walk cannot name its file as the server did.
      const shown = model === page.current() && top === page.stack[0];
      if (shown && !scopes.some((s) => s.join("/") === page.entered.join("/"))) {
        scopes.push([...page.entered]);
      }
      for (const scope of scopes) {
        page.runs.rename(top, scope, from, to);
        page.trails.renamed(top, scope, from, to);
      }
    }
    // The selection knows nodes by id too: a selected node stays selected through a rename's undo.
    const { editor } = page;
    if (model === page.current()) editor.selection = editor.selection.map((id) => id === from ? to : id);
    editor.states = page.runStates();
  }
}
