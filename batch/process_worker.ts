/**
 * A batch worker process (`partgraph batch --processes`): runs jobs one at a time, one JSON line per
 * job on stdin, and answers on stdout with lines that start with `MESSAGE_PREFIX`; anything else
 * on stdout is what a node printed, and the pool passes it on. A process of its own means an input
 * that exhausts the heap or crashes Deno takes down only this process: the pool fails that input and
 * starts another process.
 *
 * @module
 */
import { fromLine, type JobMessage, jobServer, MESSAGE_PREFIX, toLine } from "./job.ts";
import { lineStream } from "../runtime/lines.ts";
import { writeAllSync } from "../runtime/fs.ts";

/** Exit code of a worker process whose batch has gone (see below). */
const BATCH_GONE = 125;

// Started first: it ends this process should the batch be killed outright while a job never yields.
const watchdog = new Worker(new URL("./orphan_watch.ts", import.meta.url).href, {
  type: "module",
  name: String(Deno.ppid),
});

const encoder = new TextEncoder();
const serve = jobServer((message) => {
  try {
    writeAllSync(Deno.stdout, encoder.encode(MESSAGE_PREFIX + toLine(message) + "\n"));
  } catch {
    Deno.exit(BATCH_GONE); // the batch's end of the pipe is closed: no one reads the answer
  }
});
// Stdin is read while a job runs, so that its end is seen at once. The pool closes it only when this
// process is idle, so an end with a job in hand means the batch itself was killed (`kill -9`, the
// system out of memory): the job is given up rather than left to run, or hang, for no one.
let inHand = 0;
const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).pipeThrough(lineStream());
for await (const line of lines) {
  inHand++;
  serve(fromLine<JobMessage>(line)).finally(() => inHand--);
}
if (inHand) Deno.exit(BATCH_GONE);
watchdog.terminate(); // the pool closed stdin on an idle process: nothing is left to watch
