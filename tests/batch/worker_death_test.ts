import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../support/temp.ts";
import { hostileGraph, runHostileBatch } from "../support/hostile_graph.ts";
import type { BatchEvent } from "../../batch/batch.ts";

const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;

/**
 * The time limit per input here is only a guard: a pool that waits on a dead worker fails in a minute
 * rather than hanging the suite. It is no time to meet: each worker's first input loads the graph's
 * modules as it runs (0.2 s idle, 2.5 s for a process with both cores loaded), and these tests make
 * one fresh worker after another (six of them took 75 s in all under that load).
 */
const GUARD_MS = 60_000;

/** What the batch passed on as its nodes' output (by default printed on the test's own stderr). */
type Printed = { stream: "stdout" | "stderr"; text: string }[];

/**
 * Runs the hostile graph over inputs made of these first bytes and sizes, one job, on `processes` or
 * not: each input's outcome ("ok" or its error's message), what the batch passed on as the nodes'
 * output, and how many times a worker died under an input that then ran again.
 */
async function hostileBatch(files: Record<string, number[]>, processes: boolean) {
  const dir = await tempDir({ prefix: "partgraph-worker-death-" });
  await hostileGraph(dir, files);
  const printed: Printed = [];
  const died: string[] = []; // each worker-died event's message: why the worker running an input died
  const { manifest } = await runHostileBatch(dir, {
    processes,
    inputTimeoutMs: GUARD_MS,
    onOutput: (stream, text) => printed.push({ stream, text }),
    onEvent: (event) => void (event.event === "worker-died" && died.push(event.message)),
  });
  const outcome = Object.fromEntries(
    Object.entries(manifest.inputs).map((
      [input, r],
    ) => [input, r.ok ? "ok" : (r.error as { message: string }).message]),
  );
  return { outcome, printed, rerun: died.length, died };
}

/**
 * Asserts that everything printed is the stack of the hostile node's own uncaught `message`, on
 * stderr: the batch passes a dead worker's last words on as node output (what killed it), and
 * nothing else may reach the terminal.
 */
function onlyStacksOf(printed: Printed, message: string): void {
  const stack = new RegExp(`Error: ${message}\\n\\s+at .*hostile\\.ts`);
  for (const { stream, text } of printed) {
    assertEquals(stream, "stderr", text);
    assert(stack.test(text), text);
  }
}

for (const processes of [false, true]) {
  const pool = processes ? "worker processes" : "Deno workers";

  Deno.test(`batch on ${pool}: a worker that dies between inputs is replaced, and no input waits on it`, async () => {
    // Largest first: each input whose timer throws is followed by a plain one, three times over.
    const { outcome, printed, rerun, died: deaths } = await hostileBatch({
      "late1.bin": [6, 0, 0, 0, 0, 0],
      "plain1.bin": [0, 0, 0, 0, 0],
      "late2.bin": [6, 0, 0, 0],
      "plain2.bin": [0, 0, 0],
      "late3.bin": [6, 0],
      "plain3.bin": [0],
    }, processes);
    // The timer fires before or after its input has ended, as the machine's timing has it. Before, the
    // input fails (as it does when it runs again); after, it takes down the worker of the next input,
    // which runs again on a fresh worker and passes. No input may be left unanswered.
    const died = processes
      ? "the worker process exited with code 1: error: Uncaught Error: a failure after the input ended"
      : "worker died: Uncaught Error: a failure after the input ended";
    for (const [input, result] of Object.entries(outcome)) {
      if (input.startsWith("plain")) assertEquals(result, "ok", input);
      else assert(result === "ok" || result === died, `${input}: ${result}`);
    }
    // Each death's stack is passed on as node output (it was printed amid the test report): a Deno
    // worker sends it before it ends, at least one per input that ran again or failed of it; a
    // process's goes into the failure of the input it had in hand, and what it said while idle is
    // passed on when it is stopped.
    onlyStacksOf(printed, "a failure after the input ended");
    const failed = Object.values(outcome).filter((result) => result === died).length;
    // (Once at load 28, 5 stacks for 4 reruns and 2 failures: the deaths' messages say which died of what.)
    const counts = `${printed.length} < ${rerun} + ${failed}: ${JSON.stringify(deaths)}`;
    if (!processes) assert(printed.length >= rerun + failed, counts);
  });

  Deno.test(`batch on ${pool}: an input whose worker dies of what the one before left runs again, and passes`, async () => {
    const dir = await tempDir({ prefix: "partgraph-worker-death-" });
    // Largest first: what "leaves.bin" leaves throws while "slow.bin" runs, on the same worker.
    await hostileGraph(dir, { "leaves.bin": [9, 0, 0], "slow.bin": [10, 0] });
    const events: BatchEvent[] = [];
    const printed: Printed = [];
    const { summary } = await runHostileBatch(dir, {
      processes,
      inputTimeoutMs: GUARD_MS,
      onEvent: (event) => events.push(event),
      onOutput: (stream, text) => printed.push({ stream, text }),
    });
    assertEquals([summary.ok, summary.failed], [2, 0]);
    const died = events.filter((event) => event.event === "worker-died");
    assertEquals(died.map((event) => [event.input, event.after]), [["slow.bin", "leaves.bin"]]);
    assert(died[0].message.includes("a failure the input before left"), died[0].message);
    // The Deno worker's stack is passed on once; the process's is the message of the death above.
    onlyStacksOf(printed, "a failure the input before left");
    assertEquals(printed.length, processes ? 0 : 1, JSON.stringify(printed));
  });

  Deno.test(`batch on ${pool}: a node calling Deno.exit fails its input alone`, async () => {
    const { outcome, printed } = await hostileBatch({ "exit.bin": [7, 0], "plain.bin": [0] }, processes);
    assertEquals(printed, []);
    assertEquals(outcome, {
      "exit.bin": processes
        ? "the worker process exited with code 3"
        : "node 'hostile' (test.hostile) failed: Deno.exit(3) would end this batch's Deno worker: the input fails instead",
      "plain.bin": "ok",
    });
  });
}

Deno.test("batch on Deno workers: an error nothing caught is printed as a node's output, not by Deno through the progress", async () => {
  const dir = await tempDir({ prefix: "partgraph-worker-death-" });
  // What "leaves.bin" leaves throws while "slow.bin" runs, on the same worker.
  const graph = await hostileGraph(dir, { "leaves.bin": [9, 0, 0], "slow.bin": [10, 0] });
  const out = join(dir, "out");
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--frozen",
      "--allow-read",
      `--allow-write=${out}`,
      CLI,
      "batch",
      graph,
      "--each",
      `model=${dir}/in/*.bin`,
      "--jobs",
      "1",
      "--no-cache",
      "--out",
      out,
      "--workers",
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stderr);
  assertEquals(code, 0, text);
  assert(!text.includes("Uncaught (in worker"), text);
  assert(/Error: a failure the input before left\n\s+at .*hostile\.ts/.test(text), text);
  assert(text.includes("warning: the worker running slow.bin died"), text);
  await Deno.remove(dir, { recursive: true });
});
