/// <reference lib="dom" />
/**
 * Runs a graph on the server and follows its event stream (`text/event-stream`: the runtime's node
 * and warning events, then `end`). Node ids inside groups (`group/inner`) roll up into their group.
 *
 * @module
 */
import type { NodeState } from "./editor.ts";
import type { GraphModel } from "./model.ts";
import type { RunEvent } from "./types.ts";

/** The run's last event. */
export interface RunEnd {
  ok: boolean;
  ms: number;
  outputs?: { name: string; type: string; file: string; size: number }[];
  error?: { message?: string; failures?: { message: string }[] };
}

/** What the page does with the stream. */
export interface RunHandlers {
  state(id: string, state: NodeState): void;
  log(id: string, message: string, kind: "warning" | "error"): void;
}

/** Posts the graph to `/api/run` and dispatches events as they arrive. */
export async function runGraphLive(model: GraphModel, on: RunHandlers): Promise<RunEnd> {
  const inner = new Map<string, Map<string, NodeState>>();
  for (const id of Object.keys(model.graph.nodes)) on.state(id, { state: "queued" });
  const response = await fetch("/api/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path: model.path, graph: model.graph }),
  });
  if (!response.ok || !response.body) {
    const { error } = await response.json().catch(() => ({ error: response.statusText }));
    return { ok: false, ms: 0, error: { message: error } };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
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
          for (const f of data.error?.failures ?? [data.error]) {
            on.log("run", f?.message ?? "failed", "error");
          }
        }
        return data as RunEnd;
      }
      const e = data as RunEvent;
      if (e.event === "warning") on.log(e.id, e.message ?? "", "warning");
      if (e.event !== "node" || !e.state) continue;
      if (e.state === "failed") on.log(e.id, e.error?.message ?? "failed", "error");
      const [top, ...rest] = e.id.split("/");
      if (!rest.length) {
        on.state(top, { state: e.state, ms: e.ms });
        continue;
      }
      const states = inner.get(top) ?? new Map();
      inner.set(top, states);
      states.set(rest.join("/"), { state: e.state, ms: e.ms });
      on.state(top, rollUp([...states.values()]));
    }
  }
  return { ok: false, ms: 0, error: { message: "the event stream ended early" } };
}

/** A group's state from its inner nodes': failed > running > done; cached only if all were. */
function rollUp(states: NodeState[]): NodeState {
  const ms = states.reduce((sum, s) => sum + (s.ms ?? 0), 0);
  for (const state of ["failed", "skipped", "running"]) {
    if (states.some((s) => s.state === state)) return { state, ms };
  }
  return { state: states.every((s) => s.state === "cached") ? "cached" : "done", ms };
}
