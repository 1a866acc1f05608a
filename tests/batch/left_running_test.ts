/**
 * A Deno worker the batch cannot stop (JavaScript that never yields: Deno's terminate() leaves it
 * running, denoland/deno#35657) is named, and once a fresh Deno worker cannot load the graph's code
 * after one (one stuck in a module's top level keeps node_modules' lock, which every module load then
 * waits for) the batch stops with a `WorkersWedged` rather than fail every input left after a wait.
 * A real stuck worker would wedge the machine's Deno processes, so the pool here is a fake one whose
 * members behave as the stuck ones do; the real loop in a node is in batch_test's hang test.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { join } from "node:path";
import { type BatchEvent, type BatchOptions, runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";
import type { JobResult, JobSpec, OnStart } from "../../batch/job.ts";
import type { PoolMember, SpawnMember } from "../../batch/member.ts";
import { WorkersWedged } from "../../batch/left_running.ts";
import { tempDir } from "../support/temp.ts";
import { batchCommand, verifyBatch } from "../../cli/batch.ts";
import { EXIT } from "../../cli/exit.ts";

/**
 * What a fake member does with its job: `stuck` says it is up and loading and never starts it (a
 * module whose loading never ends), `hangs` starts it and never answers, `runs` answers at once;
 * `runsOn` is what it says when stopped after overrunning a limit (a Deno worker that never yields),
 * `in` where its board says it is; `first` jobs it runs before it takes that habit (default none).
 */
interface Habit {
  readonly job: "stuck" | "hangs" | "runs";
  readonly runsOn: boolean;
  readonly in?: readonly string[];
  readonly first?: number;
}

/** A pool member behaving as its habit says, counting how it was stopped. */
class FakeMember implements PoolMember {
  readonly ended = false;
  stops = 0;
  overruns = 0;
  jobs = 0;

  constructor(readonly habit: Habit) {}

  run(spec: JobSpec, _onEvent: (event: unknown) => void, onStart?: OnStart): Promise<JobResult> {
    const job = this.jobs++ < (this.habit.first ?? 0) ? "runs" : this.habit.job;
    return new Promise((resolve) => {
      onStart?.("loading");
      if (job === "stuck") return;
      onStart?.("started");
      if (job === "hangs") return;
      const bytes = new TextEncoder().encode(spec.each.path);
      resolve({
        ok: true,
        digest: null,
        writes: [],
        warnings: [],
        nodes: bytes.length % 7 + 1,
        cached: 0,
        remote: 0,
        computeMs: 0,
        ms: 0,
      });
    });
  }

  stop(): Promise<void> {
    this.stops++;
    return Promise.resolve();
  }

  stopOverrun(): Promise<boolean> {
    this.overruns++;
    return Promise.resolve(this.habit.runsOn);
  }

  running(): readonly string[] {
    return this.habit.in ?? [];
  }
}

/** A fake pool whose n-th member has `habits[n]` (the last one for every member after). */
function fakePool(habits: readonly Habit[]): { spawn: SpawnMember; members: FakeMember[] } {
  const members: FakeMember[] = [];
  const spawn: SpawnMember = () => {
    const member = new FakeMember(habits[Math.min(members.length, habits.length - 1)]);
    members.push(member);
    return member;
  };
  return { spawn, members };
}

/**
 * A graph copying its input (the fake pool never runs it), and `count` inputs of sizes count, count-1,
 * …, 1 (the pool starts the largest first: `in/f<count>.bin`).
 */
async function copyBatch(count: number): Promise<{ dir: string; options: BatchOptions }> {
  const dir = await tempDir({ prefix: "partgraph-left-running-" });
  const graph = join(dir, "copy.json");
  await Deno.writeTextFile(
    graph,
    JSON.stringify({
      version: 1,
      inputs: { model: { type: "string" } },
      nodes: {
        read: { type: "io.read", params: { path: { $input: "model" } } },
        write: { type: "io.write", params: { path: "copy.bin" }, inputs: { bytes: "read.bytes" } },
      },
    }),
  );
  await Deno.mkdir(join(dir, "in"));
  for (let i = 1; i <= count; i++) await Deno.writeFile(join(dir, "in", `f${i}.bin`), new Uint8Array(i));
  const selection = await expandEach(`model=${dir}/in/*.bin`);
  return { dir, options: { graph, selection, outDir: join(dir, "out"), cacheDir: false, jobs: 1 } };
}

const LOADING = ["loading the module of node `decode` (decode.auto)"];

Deno.test("batch on Deno workers: a fresh worker that cannot start after one was left running stops the batch, naming both", async () => {
  const { dir, options } = await copyBatch(5);
  try {
    const events: BatchEvent[] = [];
    // The first worker is stuck in a module's top level and cannot be stopped; every one after it
    // waits on the lock it holds (it comes up and never starts the job, and answers when stopped).
    const { spawn, members } = fakePool([
      { job: "stuck", runsOn: true, in: LOADING },
      { job: "stuck", runsOn: false },
    ]);
    const onEvent = (event: BatchEvent) => event.event.startsWith("worker") && events.push(event);
    const error = await runBatch({ ...options, startLimitMs: 50, onEvent }, spawn).then(
      () => undefined,
      (error) => error,
    );
    assert(error instanceof WorkersWedged, String(error));
    assertEquals([error.kind, error.input, error.seconds], ["workers_wedged", "f5.bin", 0.05]);
    assertEquals(error.left, [{ input: "f5.bin", in: LOADING, starting: true }]);
    for (
      const part of [
        "the fresh Deno worker given f5.bin did not load the graph's code within 0.05 s",
        "(the one given f5.bin (loading the module of node `decode` (decode.auto)))",
        "denoland/deno#35657",
        "node_modules/.deno/.deno.lock",
        `--processes, with permission to run Deno (--allow-run=${Deno.execPath()}, or -A)`,
      ]
    ) assert(error.message.includes(part), `'${part}' in: ${error.message}`);
    assertEquals(JSON.parse(JSON.stringify(error)).left, error.left);
    assertEquals(events, [
      { event: "worker-left-running", input: "f5.bin", in: LOADING, starting: true, seconds: 0.05 },
      { event: "worker-stuck", input: "f5.bin", seconds: 0.05, in: LOADING },
    ]);
    // Two workers, not two per input: the four inputs after it never waited out a limit.
    assertEquals(members.map((m) => [m.overruns, m.stops]), [[1, 0], [1, 0]]);

    // Worker processes are killed when stuck (none runs on): the batch goes on, its inputs failing alone.
    const killed = fakePool([{ job: "stuck", runsOn: false }]);
    const { summary } = await runBatch({ ...options, startLimitMs: 50 }, killed.spawn);
    assertEquals([summary.ok, summary.failed, killed.members.length], [0, 5, 10]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("batch on Deno workers: stopping for a wedged start gives up the inputs the other workers hold", async () => {
  const { dir, options } = await copyBatch(3);
  try {
    // Two slots: the first worker is left running stuck starting, the second holds an input that never
    // ends (no time limit: only the batch stopping ends it), the first's replacement cannot start.
    const { spawn, members } = fakePool([
      { job: "stuck", runsOn: true, in: LOADING },
      { job: "hangs", runsOn: false },
      { job: "stuck", runsOn: false },
    ]);
    await rejects(runBatch({ ...options, jobs: 2, startLimitMs: 50 }, spawn), WorkersWedged);
    // The hanging input is given up (stopped at once, not asked to answer): no member is left.
    assertEquals(members.map((m) => [m.habit.job, m.overruns, m.stops]), [
      ["stuck", 1, 0],
      ["hangs", 0, 1],
      ["stuck", 1, 0],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("batch on Deno workers: a worker left running in a node is named in its input's failure; the batch goes on", async () => {
  const { dir, options } = await copyBatch(3);
  try {
    const node = ["node `decode` (decode.auto)"];
    const { spawn } = fakePool([{ job: "hangs", runsOn: true, in: node }, { job: "runs", runsOn: false }]);
    const events: BatchEvent[] = [];
    const { manifest, summary } = await runBatch({
      ...options,
      inputTimeoutMs: 50,
      onEvent: (event) => event.event === "worker-left-running" && events.push(event),
    }, spawn);
    assertEquals([summary.ok, summary.failed], [2, 1]);
    assertEquals(
      (manifest.inputs["f3.bin"].error as { message: string }).message,
      "no result within 0.05 s (the time limit per input) while node `decode` (decode.auto) ran; its " +
        "worker did not answer when stopped and runs on: a Deno worker in JavaScript that never yields " +
        "cannot be stopped (denoland/deno#35657)",
    );
    assertEquals(events, [
      { event: "worker-left-running", input: "f3.bin", in: node, starting: false, seconds: 0.05 },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verify of a batch manifest whose rebuild's Deno workers can no longer start ends with the reason, exit 1", async () => {
  const { dir, options } = await copyBatch(3);
  try {
    const { manifest } = await runBatch(options, fakePool([{ job: "runs", runsOn: false }]).spawn);
    const { spawn } = fakePool([{ job: "stuck", runsOn: true, in: LOADING }, {
      job: "stuck",
      runsOn: false,
    }]);
    const printed: string[] = [];
    const consoleError = console.error;
    console.error = (...parts: unknown[]) => printed.push(parts.join(" "));
    let code;
    try {
      code = await verifyBatch(manifest, { out: join(dir, "verify"), workers: true, quiet: true }, {
        spawnMember: spawn,
        startLimitMs: 50,
      });
    } finally {
      console.error = consoleError;
    }
    assertEquals(code, EXIT.failed);
    const said = printed.join("\n");
    assert(said.includes("did not load the graph's code within 0.05 s"), said);
    assert(said.includes("nothing verified"), said);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** What `command` printed, line by line, on stdout (`console.log`) and stderr, and its exit code. */
async function printed(
  command: () => Promise<number>,
): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [], err: string[] = [];
  const { log, error } = console;
  console.log = (...parts: unknown[]) => out.push(parts.join(" "));
  console.error = (...parts: unknown[]) => err.push(parts.join(" "));
  try {
    return { code: await command(), out, err: err.join("\n") };
  } finally {
    Object.assign(console, { log, error });
  }
}

/**
 * A pool whose first worker runs two inputs, is left running in a node on the third (it overran the time
 * limit per input and did not answer), and whose fresh worker then cannot start: of five inputs, two
 * ok, one failed, two not run.
 */
const wedgedAfterTwo = () =>
  fakePool([
    { job: "hangs", runsOn: true, in: ["node `decode` (decode.auto)"], first: 2 },
    { job: "stuck", runsOn: false },
  ]);

/** The error a wedged stream ends with: the fresh worker's input, and the worker left running. */
const WEDGED = {
  kind: "workers_wedged",
  input: "f2.bin",
  seconds: 0.05,
  left: [{ input: "f3.bin", in: ["node `decode` (decode.auto)"], starting: false }],
};

Deno.test("batch --json: a batch stopped by wedged Deno workers ends its stream with a summary event naming the error, how far it came and the worker left running", async () => {
  const { dir } = await copyBatch(5);
  try {
    const opts = {
      each: `model=${dir}/in/*.bin`,
      out: join(dir, "out"),
      "no-cache": true,
      workers: true,
      jobs: "1",
      timeout: "0.05",
      json: true,
    };
    const { spawn } = wedgedAfterTwo();
    const { code, out, err } = await printed(() =>
      batchCommand([join(dir, "copy.json")], opts, { spawnMember: spawn, startLimitMs: 50 })
    );
    assertEquals(code, EXIT.failed);
    const events = out.map((line) => JSON.parse(line));
    const last = events.at(-1);
    const { message, ...error } = last.error;
    assertEquals(
      [last.event, last.inputs, last.ok, last.failed, last.notRun, last.manifest, error],
      ["summary", 5, 2, 1, 2, null, WEDGED],
    );
    assert(message.includes("the fresh Deno worker given f2.bin did not load the graph's code"), message);
    // Each input event before it still says which ended: the summary is one line more, not instead.
    const ended = events.filter((e) => e.event === "input" && e.state !== "running").map((e) => e.input);
    assertEquals(ended, ["f5.bin", "f4.bin", "f3.bin"]);
    assert(err.includes("3 of 5 inputs ended (1 failed), 2 not run; no manifest written"), err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verify --json of a batch manifest whose rebuild wedged: one verdict naming the error and how far the rebuild came", async () => {
  const { dir, options } = await copyBatch(5);
  try {
    const { manifest } = await runBatch(options, fakePool([{ job: "runs", runsOn: false }]).spawn);
    const { spawn } = wedgedAfterTwo();
    const opts = { out: join(dir, "verify"), workers: true, jobs: "1", timeout: "0.05", json: true };
    const { code, out, err } = await printed(() =>
      verifyBatch(manifest, opts, { spawnMember: spawn, startLimitMs: 50 })
    );
    assertEquals(code, EXIT.failed);
    assertEquals(out.length, 1, out.join("\n"));
    const verdict = JSON.parse(out[0]);
    const { message: _, ...error } = verdict.error;
    assertEquals([verdict.ok, error, verdict.rebuilt], [false, WEDGED, {
      inputs: 5,
      ok: 2,
      failed: 1,
      notRun: 2,
    }]);
    assert(err.includes("nothing verified"), err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
