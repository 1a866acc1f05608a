/**
 * A batch worker (a Deno worker of the pool): runs jobs one at a time as the pool sends them,
 * forwarding node events and remote cache warnings. Workers keep CPU-bound nodes of different inputs
 * running in parallel.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { format } from "node:util";
import { type JobMessage, jobServer, type PoolMessage, type WorkerMessage } from "./job.ts";

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

// An error nothing caught (a node's timer throwing after its input ended) ends this worker. Deno would
// print it straight onto the terminal, through a live progress line: its stack goes where a node's
// output goes instead, and the worker tells the pool of its death itself. It does not close itself: a
// message posted just before `close()` can be lost (denoland/deno#11526), and the pool, never told,
// would send its next input to a worker that is gone and wait out the start limit for it (a suite run
// hung so). The pool ends the worker when it reads the message; a job that reaches it before then is
// not run — the pool fails it on the message and runs it again on a fresh worker.
let dead = false;
function die(message: string, error: unknown): void {
  if (dead) return;
  dead = true;
  if (error instanceof Error && error.stack) forward("stderr")(error.stack);
  self.postMessage({ kind: "died", message } satisfies WorkerMessage);
}
self.addEventListener("error", (event) => {
  event.preventDefault();
  die(event.message, event.error);
});
self.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  const { reason } = event;
  die(
    `Uncaught (in promise) ${reason instanceof Error ? `${reason.name}: ${reason.message}` : reason}`,
    reason,
  );
});

const serve = jobServer((message) => self.postMessage(message));
self.onmessage = ({ data }: MessageEvent<JobMessage | PoolMessage>) => {
  // A ping is answered whatever the job in hand: only a worker whose JavaScript never yields cannot.
  if ("ping" in data) self.postMessage({ kind: "pong" } satisfies WorkerMessage);
  else if (!dead) serve(data);
};
