import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { lineStream } from "../../runtime/lines.ts";
import { tempDir } from "../support/temp.ts";
import { hostileGraph, runHostileBatch } from "../support/hostile_graph.ts";

const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;

Deno.test("runBatch with a signal: an input that hangs is given up when it aborts, the rest count as not run", async () => {
  const dir = await tempDir({ prefix: "partgraph-interrupt-api-" });
  // Larger files start first: the plain one, then the hang, then one that never starts.
  await hostileGraph(dir, { "plain.bin": [0, 0, 0], "hang.bin": [2, 0], "later.bin": [0] });
  const controller = new AbortController();
  try {
    const { manifest, summary } = await runHostileBatch(dir, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.event === "input" && event.input === "hang.bin" && event.state === "running") {
          controller.abort();
        }
      },
    });
    assertEquals(
      [summary.ok, summary.failed, summary.notRun, summary.interrupted],
      [1, 0, 2, true],
    );
    assertEquals(Object.keys(manifest.inputs), ["plain.bin"]);
  } finally {
    // The hang's Deno worker, if it reached the node's loop, runs on after it is stopped until this goes.
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runBatch with a signal aborted before it starts: no input runs and no worker is made", async () => {
  const dir = await tempDir({ prefix: "partgraph-interrupt-early-" });
  await hostileGraph(dir, { "hang.bin": [2, 0], "plain.bin": [0] });
  const controller = new AbortController();
  controller.abort();
  const started: string[] = [];
  for (const processes of [false, true]) {
    const { manifest, summary } = await runHostileBatch(dir, {
      signal: controller.signal,
      processes,
      jobs: 2,
      onEvent: (event) => void (event.event === "input" && started.push(event.input)),
    });
    assertEquals([summary.ok, summary.failed, summary.notRun, summary.interrupted], [0, 0, 2, true]);
    assertEquals(manifest.inputs, {});
    // Each slot of the pool ends before it makes its worker: none ran an input.
    assertEquals(summary.workers.map((w) => w.inputs), [0, 0]);
  }
  assertEquals(started, []);
});

for (const pool of ["--processes", "--workers"]) {
  // SIGTERM as soon as the batch starts its first input, before any worker is ready (a process still
  // starting Deno, a Deno worker still loading its modules): the one being made must be stopped too.
  Deno.test(`partgraph batch ${pool} on SIGTERM as it starts: stops its workers, writes no manifest, exits 143`, async () => {
    await interruptedBatch(pool, "SIGTERM", "starting");
  });
  // A terminal's Ctrl-C goes to the batch's whole process group: its worker processes must be out of
  // its reach and leave the batch to stop them, so no input running is failed by a process that died first.
  Deno.test(`partgraph batch ${pool} on a Ctrl-C to its process group: gives up the inputs running, fails none`, async () => {
    await interruptedBatch(pool, "SIGINT", "in hand");
  });
}

// A batch killed outright (`kill -9`, or the system out of memory) cannot stop its workers: each must
// see the batch gone and end by itself, the one on an input that awaits forever (its stdin ends) and
// the one in a loop that never yields (its watchdog thread sees its parent change).
Deno.test("partgraph batch --processes killed with SIGKILL: no worker process outlives it for long", async () => {
  const dir = await tempDir({ prefix: "partgraph-interrupt-kill-" });
  const graph = await hostileGraph(dir, { "loop.bin": [2, 0, 0], "await.bin": [8, 0] });
  const out = join(dir, "out");
  const batch = cliBatch(graph, dir, out, "--processes").spawn();
  const guard = setTimeout(() => batch.kill("SIGKILL"), 120_000); // a batch that never starts them
  const stderr = new Response(batch.stderr).text();
  const events = batchEvents(batch);
  // Both inputs are in their worker processes' hands once each process says its node runs.
  const inHand = await events.until(hostileRunning(2));
  const pids = await workers(out);
  batch.kill("SIGKILL");
  await Promise.all([batch.status, events.ended, stderr]);
  clearTimeout(guard);
  assert(inHand, `the batch ended before both inputs ran: ${await stderr}`);
  assertEquals(pids.length, 2, "two worker processes, one per input");
  // Each ends within a poll of its watchdog (250 ms) or at once (its stdin closed); the minute is a
  // guard for a machine so loaded that a process is not scheduled for a while, not a time to meet.
  const gone = await until(async () => (await workers(out)).length === 0, 60_000);
  const left = await workers(out);
  for (const pid of left) Deno.kill(pid, "SIGKILL");
  assert(gone, `worker processes outlived their batch by a minute: ${left}`);
});

/** The pids of the worker processes writing `out`. */
async function workers(out: string): Promise<number[]> {
  return (await workerProcessesWriting(out)).map((line) => Number(line.split(" ")[0]));
}

/** Polls `done` every 20 ms until it comes true, for `ms` at most; whether it did. */
async function until(done: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!(await done())) {
    if (performance.now() > deadline) return false;
    await new Promise((next) => setTimeout(next, 20));
  }
  return true;
}

/** One `--json` event of the CLI batch. */
type Event = { event: string; state?: string; input?: string; id?: string; [key: string]: unknown };

/** The `--json` events of a CLI batch, read as they come. */
interface Events {
  /** The events so far. */
  readonly seen: readonly Event[];
  /** Waits until `test` holds of the events so far, or they end; whether it holds. */
  readonly until: (test: (seen: readonly Event[]) => boolean) => Promise<boolean>;
  /** Resolves once stdout has ended. */
  readonly ended: Promise<void>;
}

/** Reads the `--json` events `batch` prints. */
function batchEvents(batch: Deno.ChildProcess): Events {
  const seen: Event[] = [];
  let over = false;
  let wake = () => {};
  const ended = (async () => {
    for await (const line of batch.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lineStream())) {
      seen.push(JSON.parse(line));
      wake();
    }
    over = true;
    wake();
  })();
  const until = async (test: (seen: readonly Event[]) => boolean) => {
    while (!test(seen)) {
      if (over) return false;
      await new Promise<void>((next) => wake = next);
    }
    return true;
  };
  return { seen, until, ended };
}

/** Whether `count` inputs' hostile nodes run (each a worker has started and holds). */
function hostileRunning(count: number): (seen: readonly Event[]) => boolean {
  const running = (e: Event) => e.event === "node" && e.id === "hostile" && e.state === "running";
  return (seen) => new Set(seen.filter(running).map((e) => e.input)).size === count;
}

/**
 * A CLI batch of two hanging inputs and a plain one on two jobs, in a process group of its own, sent
 * SIGTERM (to the batch) or SIGINT (to the group, as a terminal's Ctrl-C) at a moment the batch says
 * by its events: as it starts its first input (`starting`), or once both hanging inputs are in their
 * workers' hands (`in hand`). Either way it must end at once, fail nothing, say what did not run, write
 * no manifest, and have stopped every worker process before it exits.
 */
async function interruptedBatch(
  pool: string,
  signal: "SIGTERM" | "SIGINT",
  when: "starting" | "in hand",
): Promise<void> {
  const dir = await tempDir({ prefix: "partgraph-interrupt-cli-" });
  const graph = await hostileGraph(dir, { "hang1.bin": [2, 0, 0], "hang2.bin": [2, 0], "plain.bin": [0] });
  const out = join(dir, "out");
  const batch = cliBatch(graph, dir, out, pool).spawn();
  // A batch that ignores the signal would hang the suite: it is killed after two minutes, and fails.
  const deadline = setTimeout(() => batch.kill("SIGKILL"), 120_000);
  const stderr = new Response(batch.stderr).text();
  const events = batchEvents(batch);
  const reached = await events.until(
    when === "in hand" ? hostileRunning(2) : (seen) => seen.some((e) => e.event === "input"),
  );
  // setsid made the batch the leader of a new group: a negative pid sends to all of the group.
  if (reached && signal === "SIGTERM") batch.kill("SIGTERM");
  else if (reached) await new Deno.Command("kill", { args: ["-INT", "--", `-${batch.pid}`] }).output();
  await events.ended;
  const status = await batch.status;
  clearTimeout(deadline);
  assert(reached, `the batch ended before the moment to interrupt it (${when}): ${await stderr}`);
  assertEquals([status.code, status.signal], [signal === "SIGTERM" ? 143 : 130, null], await stderr);
  const summary = events.seen.find((e) => e.event === "summary");
  assertEquals(
    [summary?.ok, summary?.failed, summary?.notRun, summary?.interrupted, summary?.manifest],
    [0, 0, 3, true, null],
  );
  await Deno.stat(join(out, "batch.manifest.json")).then(
    () => assert(false, "an interrupted batch wrote a manifest"),
    (e) => assert(e instanceof Deno.errors.NotFound),
  );
  // The pool has waited for each of its processes to end before the batch exits: none may be left.
  assertEquals(await workerProcessesWriting(out), [], "worker processes left running");
}

/**
 * The CLI batching the hostile graph's inputs in `dir` on two jobs, `--json`, in a process group of
 * its own (`setsid`), on the `pool` given.
 */
function cliBatch(graph: string, dir: string, out: string, pool: string): Deno.Command {
  return new Deno.Command("setsid", {
    args: [
      Deno.execPath(),
      "run",
      "--frozen",
      "--allow-read",
      `--allow-write=${out}`,
      `--allow-run=${Deno.execPath()}`,
      CLI,
      "batch",
      graph,
      "--each",
      `model=${dir}/in/*.bin`,
      "--jobs",
      "2",
      "--no-cache",
      "--out",
      out,
      "--json",
      pool,
    ],
    stdout: "piped",
    stderr: "piped",
  });
}

/**
 * Live processes whose command line grants writing `folder` (the batch's workers), one line each: the
 * pid, a space, the command line.
 * Read through `sh`, as Deno's own file API wants every permission for `/proc`.
 */
async function workerProcessesWriting(folder: string): Promise<string[]> {
  const script = 'for d in /proc/[0-9]*; do read -r _ _ state _ < "$d/stat" && [ "$state" != Z ] && ' +
    'printf "%s " "${d#/proc/}" && tr "\\0" " " < "$d/cmdline" && echo; done 2>/dev/null';
  const { stdout } = await new Deno.Command("sh", { args: ["-c", script], stdout: "piped" }).output();
  return new TextDecoder().decode(stdout).split("\n")
    .filter((line) => line.includes("process_worker.ts") && line.includes(folder));
}
