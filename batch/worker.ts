/**
 * A batch worker: runs jobs one at a time as the pool sends them, forwarding node events and remote
 * cache warnings. Workers keep CPU-bound nodes of different inputs running in parallel.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { RemoteCache } from "../runtime/cache/remote.ts";
import { type JobSpec, runJob } from "./job.ts";

/** A message from the pool. */
export interface JobMessage {
  readonly id: number;
  readonly spec: JobSpec;
}

/** A message to the pool. */
export type WorkerMessage =
  | { readonly kind: "event"; readonly id: number; readonly event: unknown }
  | { readonly kind: "warning"; readonly message: string; readonly warning: string }
  | { readonly kind: "done"; readonly id: number; readonly result: unknown };

let remote: RemoteCache | undefined;

self.onmessage = async ({ data }: MessageEvent<JobMessage>) => {
  const { id, spec } = data;
  const post = (message: WorkerMessage) => self.postMessage(message);
  // One client per worker for the whole batch, so a remote that went down is not retried per input.
  if (spec.remote && !remote) {
    remote = new RemoteCache({
      ...spec.remote,
      onWarning: (message, warning) => post({ kind: "warning", message, warning }),
    });
  }
  const result = await runJob(spec, (event) => post({ kind: "event", id, event }), remote);
  post({ kind: "done", id, result });
};
