/**
 * A batch worker process (`partgraph batch --processes`): runs jobs one at a time, one JSON line per
 * job on stdin, and answers on stdout with lines that start with `MESSAGE_PREFIX`; anything else
 * on stdout is what a node printed, and the pool passes it on. A process of its own means an input
 * that exhausts the heap or crashes Deno takes down only this process: the pool fails that input and
 * starts another process.
 *
 * @module
 */
import { fromLine, IGNORE_INTERRUPTS, type JobMessage, jobServer, MESSAGE_PREFIX, toLine } from "./job.ts";
import { lineStream } from "../runtime/lines.ts";
import { writeAllSync } from "../runtime/fs.ts";

// The batch that started this process stops it itself when interrupted (see `IGNORE_INTERRUPTS`).
if (Deno.args.includes(IGNORE_INTERRUPTS)) {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    try {
      Deno.addSignalListener(signal, () => {});
    } catch {
      // Not a signal on this platform.
    }
  }
}

const encoder = new TextEncoder();
const serve = jobServer((message) => {
  writeAllSync(Deno.stdout, encoder.encode(MESSAGE_PREFIX + toLine(message) + "\n"));
});
const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).pipeThrough(lineStream());
for await (const line of lines) await serve(fromLine<JobMessage>(line));
