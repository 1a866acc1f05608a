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
});

for (const pool of ["--processes", "--workers"]) {
  Deno.test(`partgraph batch ${pool} on SIGTERM: stops its workers, writes no manifest, exits 143`, async () => {
    await interruptedBatch(pool, "SIGTERM");
  });
  // A terminal's Ctrl-C goes to the batch's whole process group: its worker processes must be out of
  // its reach and leave the batch to stop them, so no input running is failed by a process that died first.
  Deno.test(`partgraph batch ${pool} on a Ctrl-C to its process group: gives up the inputs running, fails none`, async () => {
    await interruptedBatch(pool, "SIGINT");
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
  const events: { event: string; id?: string; state?: string }[] = [];
  const reading = (async () => {
    for await (const line of batch.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lineStream())) {
      events.push(JSON.parse(line));
    }
  })();
  const stderr = new Response(batch.stderr).text();
  const hostileRunning = () =>
    events.filter((e) => e.event === "node" && e.id === "hostile" && e.state === "running").length;
  const inHand = await until(async () => hostileRunning() === 2 && (await workers(out)).length === 2, 60_000);
  batch.kill("SIGKILL");
  await Promise.all([batch.status, reading, stderr]);
  assert(inHand, "the two inputs never both ran");
  await until(async () => (await workers(out)).length === 0);
  const left = await workers(out);
  for (const pid of left) Deno.kill(pid, "SIGKILL");
  assertEquals(left, [], "worker processes outlived their batch by 5 s");
});

/** The pids of the worker processes writing `out`. */
async function workers(out: string): Promise<number[]> {
  return (await workerProcessesWriting(out)).map((line) => Number(line.split(" ")[0]));
}

/** Polls `done` every 20 ms for up to `ms`; whether it came true. */
async function until(done: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  for (let wait = 0; wait < ms / 20; wait++) {
    if (await done()) return true;
    await new Promise((next) => setTimeout(next, 20));
  }
  return false;
}

/**
 * A CLI batch of two hanging inputs and a plain one on two jobs, in a process group of its own, sent
 * SIGTERM (to the batch) or SIGINT (to the group, as a terminal's Ctrl-C) once both hang: it must end
 * at once, fail nothing, say what did not run, write no manifest and leave no worker process behind.
 */
async function interruptedBatch(pool: string, signal: "SIGTERM" | "SIGINT"): Promise<void> {
  const dir = await tempDir({ prefix: "partgraph-interrupt-cli-" });
  const graph = await hostileGraph(dir, { "hang1.bin": [2, 0, 0], "hang2.bin": [2, 0], "plain.bin": [0] });
  const out = join(dir, "out");
  const batch = cliBatch(graph, dir, out, pool).spawn();
  // A batch that ignores the signal would hang the suite: it is killed after a minute, and fails.
  const deadline = setTimeout(() => batch.kill("SIGKILL"), 60_000);
  const stderr = new Response(batch.stderr).text();
  const events: { event: string; state?: string; input?: string; [key: string]: unknown }[] = [];
  let signalled = false;
  const lines = batch.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lineStream());
  for await (const line of lines) {
    events.push(JSON.parse(line));
    const running = events.filter((e) => e.event === "input" && e.state === "running").length;
    // Both hung inputs are in their workers now: the interruption must end them.
    const hung = pool === "--workers" || (await workerProcessesWriting(out)).length === 2;
    if (!signalled && running === 2 && hung) {
      // setsid made the batch the leader of a new group: a negative pid sends to all of the group.
      if (signal === "SIGTERM") batch.kill("SIGTERM");
      else await new Deno.Command("kill", { args: ["-INT", "--", `-${batch.pid}`] }).output();
      signalled = true;
    }
  }
  const status = await batch.status;
  clearTimeout(deadline);
  assertEquals([status.code, status.signal], [signal === "SIGTERM" ? 143 : 130, null], await stderr);
  const summary = events.find((e) => e.event === "summary");
  assertEquals(
    [summary?.ok, summary?.failed, summary?.notRun, summary?.interrupted, summary?.manifest],
    [0, 0, 3, true, null],
  );
  await Deno.stat(join(out, "batch.manifest.json")).then(
    () => assert(false, "an interrupted batch wrote a manifest"),
    (e) => assert(e instanceof Deno.errors.NotFound),
  );
  // The pool kills its processes before the batch exits; give the kernel a moment to reap them.
  for (let wait = 0; wait < 50 && (await workerProcessesWriting(out)).length; wait++) {
    await new Promise((done) => setTimeout(done, 20));
  }
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
