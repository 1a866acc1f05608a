/**
 * A batch worker (a Deno worker of the pool): runs jobs one at a time as the pool sends them,
 * forwarding node events and remote cache warnings. Workers keep CPU-bound nodes of different inputs
 * running in parallel.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { format } from "node:util";
import { type JobMessage, jobServer, type WorkerMessage } from "./job.ts";

// `Deno.exit` (and so `process.exit`) and `close` end a Deno worker without a word to the pool, which
// would wait for its answer forever: in a batch's Deno worker they throw instead, and the node fails.
// (A worker process may exit: the pool sees its end.)
const refuseExit = (call: string) => (code?: number) => {
  throw new Error(`${call}(${code ?? ""}) would end this batch's Deno worker: the input fails instead`);
};
Object.defineProperty(Deno, "exit", { value: refuseExit("Deno.exit") });
Object.defineProperty(self, "close", { value: refuseExit("close") });

// What a node prints goes to the pool, which passes it on where the batch's own output goes (above a
// live progress line; to stderr beside --json), rather than straight to this process's stdout.
const forward = (stream: "stdout" | "stderr") => (...data: unknown[]) =>
  self.postMessage({ kind: "output", stream, text: format(...data) } satisfies WorkerMessage);
console.log = console.info = console.debug = forward("stdout");
console.warn = console.error = forward("stderr");

const serve = jobServer((message) => self.postMessage(message));
self.onmessage = ({ data }: MessageEvent<JobMessage>) => serve(data);
