/**
 * A batch worker process's watchdog, run on a Deno worker thread of its own: when the process's
 * parent changes (the batch was killed outright, `kill -9` or the system out of memory, and the
 * process was handed to init), it kills its own process. The main thread sees the batch gone too
 * (its stdin ends), but only when it yields: a node stuck in a loop that never does would otherwise
 * keep a core busy for no one. A thread of its own runs whatever the main thread does, and a process
 * may signal itself without `--allow-run`.
 *
 * The worker's `name` is the parent's pid when the process started, so a batch that dies before this
 * thread starts is still seen gone.
 *
 * @module
 */

/** How often the parent is checked: a stuck worker outlives its batch by this much at most. */
const POLL_MS = 250;

const parent = Number(self.name);
setInterval(() => {
  if (Deno.ppid !== parent) Deno.kill(Deno.pid, "SIGKILL");
}, POLL_MS);
