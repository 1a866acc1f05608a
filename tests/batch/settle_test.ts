/**
 * `settle`, the time limit per input: it runs from when the worker starts the job, so a worker slow
 * to start (loading its modules on a busy machine) does not fail its input, while a job that overruns
 * the limit once started still does.
 */
import assert from "node:assert/strict";
import { settle, TimeLimit } from "../../batch/settle.ts";

const after = <T>(ms: number, value?: T) =>
  new Promise<T>((resolve) => setTimeout(() => resolve(value as T), ms));

Deno.test("settle: a job started late by its worker is timed from its start", async () => {
  const started = after<void>(300);
  const work = started.then(() => after(50, "done"));
  assert.equal(await settle(work, 150, undefined, started), "done");
});

Deno.test("settle: a job that overruns the limit once started is refused, its worker's start-up not counted", async () => {
  const started = after<void>(200);
  const work = started.then(() => after(2_000, "late"));
  const begun = performance.now();
  await assert.rejects(settle(work, 150, undefined, started), (error) => {
    assert.ok(error instanceof TimeLimit && !error.starting && error.ms === 150);
    // At least 200 + 150 ms (less a timer's rounding); no upper bound: a loaded machine may run the
    // timer late, and a limit not applied at all would have let the work end with "late" instead.
    const waited = performance.now() - begun;
    assert.ok(waited >= 340, `${waited} ms: the 150 ms ran from the start at 200 ms`);
    return true;
  });
});

Deno.test("settle: without a start signal the limit runs from the call", async () => {
  await assert.rejects(settle(after(1_000), 100, undefined), (error) => error instanceof TimeLimit);
});

Deno.test("settle: the start limit runs from when the worker is up, so a fresh worker slow to come up is not stuck", async () => {
  // Up at 300 ms (a loaded machine starting Deno's worker and the runtime), then 50 ms to start the
  // job: a 200 ms start limit counted from the call would have passed before the worker was up.
  const loading = after<void>(300);
  const started = loading.then(() => after<void>(50));
  const work = started.then(() => after(20, "done"));
  assert.equal(await settle(work, undefined, undefined, started, 200, loading), "done");
});

Deno.test("settle: a worker up but stuck loading the graph's code is stuck once the start limit passes", async () => {
  const loading = after<void>(50);
  const never = new Promise<void>(() => {});
  await assert.rejects(
    settle(never.then(() => "late"), undefined, undefined, never, 150, loading),
    (error) => {
      assert.ok(error instanceof TimeLimit && error.starting && error.ms === 150, String(error));
      return true;
    },
  );
});
