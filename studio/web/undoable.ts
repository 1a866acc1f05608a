/// <reference lib="dom" />
/**
 * One graph file as the editor holds it, apart from what its edits are: the graph, its undo and redo
 * steps (`history.ts`), and whether it differs from the file as last opened or saved (the title's and
 * tabs' `*`, what Save writes). `model.ts` builds the edits on it.
 *
 * @module
 */
import { History, type Step } from "./history.ts";
import { layoutMissing } from "./layout.ts";
import type { Graph } from "./types.ts";

/** A graph file's graph with undo, redo and its unsaved state (see the module doc). */
export class UndoableGraph {
  graph: Graph;
  /** Each undo (redo) step: the graph's JSON before (after) the edit, and what the edit was. */
  private readonly history = new History();
  /** The graph as last opened or saved, in {@link canonical} form: what "unsaved" is measured against. */
  private saved: string;
  /**
   * Called when a node's id changes: its rename, and the undo or redo of one (the page's run badges
   * and file tabs know nodes by id, and follow).
   */
  nodeRenamed?: (from: string, to: string) => void;
  /**
   * The digest of the file as last opened, reverted to or saved (the server's): Save sends it, and the
   * server refuses to write over a file that has changed since (another tab, an editor, git).
   */
  fileDigest?: string;

  constructor(readonly path: string, graph: Graph) {
    this.graph = graph;
    layoutMissing(this.graph);
    // The layout of a graph without positions is part of the graph as opened, not an unsaved edit.
    this.saved = canonical(this.graph);
    this.knownSaved(JSON.stringify(this.graph));
  }

  /**
   * Records that the graph whose JSON is `json` is the saved one, so the next {@link dirty} need not
   * sort every key to learn it (opening a 20,000-node graph did, 0.1–0.3 s).
   */
  private knownSaved(json: string): void {
    this.dirtyFor = { json, saved: this.saved, dirty: false };
  }

  /**
   * True when the graph differs from the file as last opened or saved. Compared by content, not by
   * edit count, so undoing back to the saved graph (or moving a node back) clears it; key order is
   * ignored (removing and re-setting a parameter moves its key but changes nothing a run sees).
   */
  get dirty(): boolean {
    // The page asks after every edit, for the title, each file tab and the run badges: sorting every
    // key of a 5,000-node graph each time was most of an undo's 0.2 s. Plain JSON is 10× cheaper, and
    // the same JSON is the same canonical text.
    const json = JSON.stringify(this.graph);
    if (this.dirtyFor?.json !== json || this.dirtyFor.saved !== this.saved) {
      this.dirtyFor = { json, saved: this.saved, dirty: canonical(this.graph) !== this.saved };
    }
    return this.dirtyFor.dirty;
  }

  /** The last {@link dirty} answer, and the graph's JSON and saved text it was for. */
  private dirtyFor?: { json: string; saved: string; dirty: boolean };

  /** A graph whose file does not exist yet: unsaved (`*`, and Save writes it) until its first save. */
  markNew(): void {
    this.saved = "";
  }

  /** False for a new graph not saved yet ({@link markNew}): it has no file to re-read. */
  get hasFile(): boolean {
    return this.saved !== "";
  }

  /** Records that `graph` (this graph as it was posted, JSON) is now the file's content. */
  markSaved(graph: string = JSON.stringify(this.graph)): void {
    this.saved = canonical(JSON.parse(graph));
    this.knownSaved(graph);
  }

  /** Records the current graph for undo; call before every edit. */
  protected checkpoint(label: string, together?: string, renamed?: Step["renamed"]): void {
    this.history.push({ graph: JSON.stringify(this.graph), label, together, renamed });
  }

  /**
   * Applies an edit as one undo step; `label` says what it was (the status bar names it on undo).
   * `together` marks a step that is part of one change across files (a group's socket renamed, and
   * its uses): undoing it in one file undoes the others' step with the same mark.
   */
  edit(change: (graph: Graph) => void, label = "edit", together?: string): void {
    this.checkpoint(label, together);
    change(this.graph);
  }

  /** True when a step of either history is marked `together`. */
  holds(together: string): boolean {
    return this.history.holds(together);
  }

  /** The `together` mark of the step Undo (or Redo) would take next, if it has one. */
  nextTogether(direction: "undo" | "redo"): string | undefined {
    return this.history.next(direction)?.together;
  }

  /** Replaces the whole graph as one undo step (a group or ungroup computed on a copy). */
  replace(graph: Graph, label: string): void {
    this.checkpoint(label);
    this.graph = graph;
  }

  /**
   * Replaces the graph by its file's, re-read (Revert), as one undo step: Undo brings the discarded
   * edits back, now as unsaved changes of the graph as reverted to. The file's graph is what
   * "unsaved" is measured against from now on (it may have changed on disk since it was opened).
   */
  revertTo(graph: Graph): void {
    this.checkpoint("revert to the file");
    this.graph = graph;
    layoutMissing(this.graph);
    this.saved = canonical(this.graph);
    this.knownSaved(JSON.stringify(this.graph));
  }

  /** How many edits Undo (or Redo) can step through. */
  steps(direction: "undo" | "redo"): number {
    return this.history.steps(direction);
  }

  /**
   * Undoes the last edit (or redoes the last undone one); returns what it was, or undefined when there
   * is none. A step that renamed a node tells the page the node's id now ({@link nodeRenamed}).
   */
  step(direction: "undo" | "redo"): string | undefined {
    const taken = this.history.take(direction, JSON.stringify(this.graph));
    if (taken === undefined) return undefined;
    this.graph = JSON.parse(taken.graph);
    if (taken.renamed) {
      const { from, to } = taken.renamed;
      if (direction === "undo") this.nodeRenamed?.(to, from);
      else this.nodeRenamed?.(from, to);
    }
    return taken.label;
  }
}

/** JSON text with every object's keys sorted: equal for graphs that differ only in key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
  );
}
