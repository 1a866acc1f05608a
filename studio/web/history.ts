/**
 * One graph file's undo and redo history: each step is the whole graph's JSON on the other side of
 * the edit (so undo and redo can never disagree with what Save writes), what the edit was, and the
 * marks the page needs — a change across files, a node's rename.
 *
 * @module
 */

/** One undo or redo step. */
export interface Step {
  /** The graph's JSON on the other side of the edit. */
  graph: string;
  /** What the edit did, for the status bar ("delete fighter"). */
  label: string;
  /** The mark shared by the steps of one change across files (see `GraphModel.edit`). */
  together?: string;
  /** A node's rename (`from` before the step, `to` after it): undo and redo tell the page. */
  renamed?: { from: string; to: string };
}

/** Steps kept for Undo: the oldest go first (each is a copy of the graph). */
const KEPT = 200;

/** The undo and redo stacks of one graph. */
export class History {
  private undoStack: Step[] = [];
  private redoStack: Step[] = [];

  /** Records `step` (the graph before an edit) for Undo; Redo's steps go. */
  push(step: Step): void {
    this.undoStack.push(step);
    if (this.undoStack.length > KEPT) this.undoStack.shift();
    this.redoStack = [];
  }

  /**
   * Takes the step Undo (or Redo) would take: returns it, and records `graph` (the JSON of the graph
   * now) as the step back; undefined when there is none.
   */
  take(direction: "undo" | "redo", graph: string): Step | undefined {
    const [from, to] = direction === "undo"
      ? [this.undoStack, this.redoStack]
      : [this.redoStack, this.undoStack];
    const step = from.pop();
    if (step !== undefined) to.push({ ...step, graph });
    return step;
  }

  /** True when a step of either stack is marked `together`. */
  holds(together: string): boolean {
    return [...this.undoStack, ...this.redoStack].some((step) => step.together === together);
  }

  /** The step Undo (or Redo) would take next, if any. */
  next(direction: "undo" | "redo"): Step | undefined {
    const stack = direction === "undo" ? this.undoStack : this.redoStack;
    return stack[stack.length - 1];
  }

  /** How many steps Undo (or Redo) can take. */
  steps(direction: "undo" | "redo"): number {
    return (direction === "undo" ? this.undoStack : this.redoStack).length;
  }
}
