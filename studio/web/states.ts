/// <reference lib="dom" />
/**
 * The node states of runs, kept per top graph by flattened node id (`group/inner` inside node groups),
 * so they outlive navigation: Tab into a group and back, or opening another graph and returning,
 * shows the last run's badges again. A view of one graph — the top graph or a group entered from it —
 * gets its own nodes' states, a node group's rolled up from the nodes inside it.
 *
 * @module
 */
import type { NodeState } from "./editor.ts";

/** Node states of the latest run of each top graph. */
export class RunStates {
  private readonly runs = new Map<string, Map<string, NodeState>>();
  private readonly live = new Set<string>();

  /** A run of `top` starts: its last run's states go; until {@link end}, nodes without one are queued. */
  start(top: string): void {
    this.runs.set(top, new Map());
    this.live.add(top);
  }

  /** A node's state changed (`id` flattened, as the runtime reports it). */
  set(top: string, id: string, state: NodeState): void {
    this.runs.get(top)?.set(id, state);
  }

  /**
   * The run of `top` is over (finished, failed or broken off): a node that never reported stays
   * blank rather than "queued", which would say it is still waiting.
   */
  end(top: string): void {
    this.live.delete(top);
  }

  /** True while a run of `top` goes on. */
  running(top: string): boolean {
    return this.live.has(top);
  }

  /**
   * The states to show on a graph view: `top` is the graph that ran, `scope` the group node ids
   * entered from it (none for the top graph itself), `ids` the view's node ids.
   */
  view(top: string, scope: readonly string[], ids: readonly string[]): Map<string, NodeState> {
    const prefix = scope.map((id) => `${id}/`).join("");
    const own = new Map<string, NodeState>();
    const inner = new Map<string, NodeState[]>();
    for (const [id, state] of this.runs.get(top) ?? []) {
      if (!id.startsWith(prefix)) continue;
      const [head, ...rest] = id.slice(prefix.length).split("/");
      if (rest.length) inner.set(head, [...(inner.get(head) ?? []), state]);
      else own.set(head, state);
    }
    const shown = new Map<string, NodeState>();
    for (const id of ids) {
      const state = inner.has(id) ? rollUp(inner.get(id)!) : own.get(id);
      if (state) shown.set(id, state);
      else if (this.live.has(top)) shown.set(id, { state: "queued" });
    }
    return shown;
  }
}

/** A group's state from its inner nodes': failed > skipped > running > done; cached only if all were. */
export function rollUp(states: NodeState[]): NodeState {
  const ms = states.reduce((sum, s) => sum + (s.ms ?? 0), 0);
  for (const state of ["failed", "skipped", "running"]) {
    if (states.some((s) => s.state === state)) return { state, ms };
  }
  return { state: states.every((s) => s.state === "cached") ? "cached" : "done", ms };
}
