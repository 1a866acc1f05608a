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

/** The run's last event. */
export interface RunEnd {
  ok: boolean;
  ms: number;
  outputs?: { name: string; type: string; file: string; size: number }[];
  error?: { message?: string; failures?: { message: string }[] };
}

/** What the page does with the stream. */
export interface RunHandlers {
  /** A node's state changed; `id` is flattened (`group/inner` inside node groups). */
  state(id: string, state: NodeState): void;
  log(id: string, message: string, kind: "warning" | "error"): void;
}

/**
 * Posts the graph to `/api/run` and dispatches events as they arrive. A stream that ends without
 * `end` resolves as a failed run; a connection that breaks off rejects (as `fetch` does).
 */
export async function runGraphLive(model: GraphModel, on: RunHandlers): Promise<RunEnd> {
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
      on.state(e.id, { state: e.state, ms: e.ms });
    }
  }
  return { ok: false, ms: 0, error: { message: "the event stream ended early" } };
}
