/// <reference lib="dom" />
/**
 * The node states of runs, kept per top graph by flattened node id (`group/inner` inside node groups),
 * so they outlive navigation: Tab into a group and back, or opening another graph and returning,
 * shows the last run's badges again. A view of one graph — the top graph or a group entered from it —
 * gets its own nodes' states, a node group's derived from the nodes inside it.
 *
 * @module
 */
import type { NodeState } from "./editor.ts";

/** The state of a node whose run's event stream broke off before it finished: its outcome is unknown. */
export const INTERRUPTED = "interrupted";

/** One top graph's latest run. */
interface Run {
  readonly states: Map<string, NodeState>;
  /** The flattened ids of every node the run evaluates (the server's `plan` event), once known. */
  planned?: readonly string[];
  live: boolean;
  /**
   * The renames since the run started, in order, each as what it does to a flattened id (`""`: the
   * node is gone). The runtime goes on reporting nodes by the ids they had when it started, so a node
   * renamed while the run goes on is found under its new id through these.
   */
  readonly renames: ((id: string) => string)[];
}

/** Node states of the latest run of each top graph. */
export class RunStates {
  private readonly runs = new Map<string, Run>();

  /** A run of `top` starts: its last run's states go; until {@link end}, nodes without one are queued. */
  start(top: string): void {
    this.runs.set(top, { states: new Map(), live: true, renames: [] });
  }

  /**
   * The nodes the run of `top` will evaluate (flattened ids). Until this is known a group is never
   * shown done while the run goes on, as inner nodes that have not reported yet may still be to come.
   */
  plan(top: string, ids: readonly string[]): void {
    const run = this.runs.get(top);
    if (run) run.planned = ids.map((id) => this.current(top, id)).filter((id) => id !== undefined);
  }

  /** A node's state changed (`id` flattened, as the runtime reports it). */
  set(top: string, id: string, state: NodeState): void {
    const now = this.current(top, id);
    if (now !== undefined) this.runs.get(top)?.states.set(now, state);
  }

  /**
   * The flattened id that the node the run of `top` reports as `reported` (its id when the run
   * started) has now, after every rename since; undefined when it is gone (a node renamed since took
   * its name after it was deleted).
   */
  current(top: string, reported: string): string | undefined {
    let id = reported;
    for (const moved of this.runs.get(top)?.renames ?? []) id = moved(id);
    return id === "" ? undefined : id;
  }

  /**
   * The run of `top` is over. Finished or failed, a node that never reported stays blank rather than
   * "queued", which would say it is still waiting. `broken`: its event stream broke off, so a node
   * still running, or planned and not yet reported, is {@link INTERRUPTED} (nobody knows how it
   * ended); returns those nodes' ids.
   */
  end(top: string, broken = false): string[] {
    const run = this.runs.get(top);
    if (!run) return [];
    run.live = false;
    if (!broken) return [];
    const cut: string[] = [];
    for (const id of new Set([...run.planned ?? [], ...run.states.keys()])) {
      const state = run.states.get(id)?.state;
      if (state === undefined || state === "running" || state === "queued") {
        run.states.set(id, { state: INTERRUPTED });
        cut.push(id);
      }
    }
    return cut;
  }

  /**
   * Node `from` of the graph reached from `top` through the group nodes `scope` is now `to` (renamed,
   * or a rename undone): its states (and, for a group node, those of the nodes inside it) go with it,
   * so its badge stays — dimmed, as the graph is no longer the one that ran. While the run goes on,
   * what it still reports under the old id goes to the new one ({@link current}).
   */
  rename(top: string, scope: readonly string[], from: string, to: string): void {
    const run = this.runs.get(top);
    if (!run) return;
    const prefix = scope.map((id) => `${id}/`).join("");
    const old = `${prefix}${from}`;
    const under = (id: string, node: string) => id === node || id.startsWith(`${node}/`);
    const fresh = `${prefix}${to}`;
    // A node deleted since the run may have left states under the new name: the renamed node's win.
    const moved = (id: string) =>
      under(id, old) ? `${fresh}${id.slice(old.length)}` : under(id, fresh) ? "" : id;
    const states = [...run.states].map(([id, state]) => [moved(id), state] as const);
    run.states.clear();
    for (const [id, state] of states) if (id) run.states.set(id, state);
    if (run.planned) run.planned = run.planned.map(moved).filter((id) => id);
    run.renames.push(moved);
  }

  /** True while a run of `top` goes on. */
  running(top: string): boolean {
    return this.runs.get(top)?.live ?? false;
  }

  /**
   * The states to show on a graph view: `top` is the graph that ran, `scope` the group node ids
   * entered from it (none for the top graph itself), `ids` the view's node ids. A node group's state
   * is derived from every node inside it the run evaluates (see {@link rollUp}), those that have not
   * reported counting as queued while the run goes on.
   */
  view(top: string, scope: readonly string[], ids: readonly string[]): Map<string, NodeState> {
    const run = this.runs.get(top);
    const shown = new Map<string, NodeState>();
    if (!run) return shown;
    const prefix = scope.map((id) => `${id}/`).join("");
    const own = new Map<string, NodeState | undefined>();
    const inner = new Map<string, (NodeState | undefined)[]>();
    const seen = new Set<string>();
    for (const id of [...run.planned ?? [], ...run.states.keys()]) {
      if (!id.startsWith(prefix) || seen.has(id)) continue;
      seen.add(id);
      const state = run.states.get(id);
      const [head, ...rest] = id.slice(prefix.length).split("/");
      if (rest.length) inner.set(head, [...(inner.get(head) ?? []), state]);
      else own.set(head, state);
    }
    const pending: NodeState | undefined = run.live ? { state: "queued" } : undefined;
    for (const id of ids) {
      let state: NodeState | undefined;
      if (inner.has(id)) {
        const states = inner.get(id)!.map((s) => s ?? pending).filter((s) => s !== undefined);
        // Without the plan, inner nodes may still be to come: a group is not done before the run is.
        if (run.live && !run.planned) states.push({ state: "queued" });
        state = states.length ? rollUp(states) : undefined;
      } else {
        state = own.get(id) ?? (run.planned && !own.has(id) ? undefined : pending);
      }
      if (state) shown.set(id, state);
    }
    return shown;
  }
}

/**
 * A group's state from its inner nodes': failed if any failed; running while any runs or waits
 * (queued only while none has started); interrupted if any was cut off; skipped if any was; done once
 * every one is done or cached, cached only if all were. Its milliseconds are its nodes' sum.
 */
export function rollUp(states: readonly NodeState[]): NodeState {
  const ms = states.reduce((sum, s) => sum + (s.ms ?? 0), 0);
  const any = (state: string) => states.some((s) => s.state === state);
  if (any("failed")) return { state: "failed", ms };
  if (states.every((s) => s.state === "queued")) return { state: "queued" };
  if (any("running") || any("queued")) return { state: "running", ms };
  for (const state of [INTERRUPTED, "skipped"]) if (any(state)) return { state, ms };
  return { state: states.every((s) => s.state === "cached") ? "cached" : "done", ms };
}
