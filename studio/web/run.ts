/// <reference lib="dom" />
/**
 * Runs a graph on the server and follows its event stream (`text/event-stream`: the runtime's node
 * and warning events, then `end`). Node ids are the runtime's flattened ones (`group/inner` inside
 * node groups); `states.ts` keeps them and rolls a group's up for the view.
 *
 * @module
 */
import type { NodeState } from "./editor.ts";
import type { GraphModel } from "./model.ts";
import type { RunEvent } from "./types.ts";

/**
 * The graphs as a check or run request's `groups` field sends them: the open version of each one edited
 * here (or new). One only viewed is its file, which the server reads as it is now: sent as opened, a
 * file another tab, an editor or `git pull` changed since would be checked and run as it was, silently.
 */
export function openVersions(groups: readonly GraphModel[]): { path: string; graph: unknown }[] {
  return groups.filter((group) => group.dirty).map((group) => ({ path: group.path, graph: group.graph }));
}

/** The run's last event. */
export interface RunEnd {
  ok: boolean;
  ms: number;
  /** Graph outputs: `file` the name each downloads as, `written` the file the run wrote it as, if any. */
  outputs?: { name: string; type: string; file: string; written?: string; size: number }[];
  /** The files the run's `io.write` nodes wrote (paths as the server displays them), with their sizes. */
  files?: { path: string; size: number }[];
  error?: { message?: string; failures?: { message: string }[] };
  /** The event stream broke off before its `end` event: how the nodes still going ended is unknown. */
  broken?: boolean;
}

/** What the page does with the stream. */
export interface RunHandlers {
  /**
   * The flattened ids of every node the run will evaluate (sent before any node event), the group
   * files it reads from the page's open versions, and every group file it reads (as the server
   * displays their paths).
   */
  plan(ids: string[], groups: string[], files: string[]): void;
  /** A node's state changed; `id` is flattened (`group/inner` inside node groups). */
  state(id: string, state: NodeState): void;
  /** A warning or error of node `id` (flattened), or of the run as a whole (`id` undefined). */
  log(id: string | undefined, message: string, kind: "warning" | "error"): void;
}

/**
 * Posts the graph to `/api/run`, with the open versions of the node group files it uses (`groups`:
 * the run sees their unsaved edits), and dispatches events as they arrive. A stream that ends without
 * `end`, or whose connection breaks off, resolves as a failed run marked `broken`.
 */
export async function runGraphLive(
  model: GraphModel,
  groups: readonly GraphModel[],
  on: RunHandlers,
): Promise<RunEnd> {
  const response = await fetch("/api/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path: model.path, graph: model.graph, groups: openVersions(groups) }),
  });
  if (!response.ok || !response.body) {
    const { error } = await response.json().catch(() => ({ error: response.statusText }));
    return { ok: false, ms: 0, error: { message: error } };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const failed = new Set<string>();
  for (;;) {
    let chunk: ReadableStreamReadResult<string>;
    try {
      chunk = await reader.read();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, ms: 0, broken: true, error: { message: `the event stream broke off (${reason})` } };
    }
    const { value, done } = chunk;
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
      if (event === "end") {
        if (!data.ok) {
          // A node's failure was logged when its event came; the end lists it again.
          for (const f of data.error?.failures ?? [data.error]) {
            if (!failed.has(f?.node)) on.log(f?.node, f?.message ?? "failed", "error");
          }
        }
        return data as RunEnd;
      }
      if (event === "plan") {
        on.plan(data.nodes, data.groups ?? [], data.files ?? []);
        continue;
      }
      const e = data as RunEvent;
      if (e.event === "warning") on.log(e.id, e.message ?? "", "warning");
      if (e.event !== "node" || !e.state) continue;
      if (e.state === "failed") {
        failed.add(e.id);
        on.log(e.id, e.error?.message ?? "failed", "error");
      }
      on.state(e.id, { state: e.state, ms: e.ms });
    }
  }
  return { ok: false, ms: 0, broken: true, error: { message: "the event stream ended early" } };
}
