import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { runBatch } from "../../batch/batch.ts";
import { fromLine, type JobMessage, MESSAGE_PREFIX, toLine } from "../../batch/job.ts";
import { expandEach } from "../../batch/inputs.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";
import { hostileGraph, runHostileBatch } from "../support/hostile_graph.ts";

const GRAPH = new URL("../../graphs/freelancer.json", import.meta.url).pathname;
const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;

Deno.test("batch with worker processes: the same manifest and files as Deno workers", async () => {
  const dir = await tempDir({ prefix: "partgraph-processes-" });
  for (let i = 0; i < 6; i++) {
    await Deno.writeFile(join(dir, `ship${i}.cmp`), realisticCmp(i, { parts: 3, maxGroupVertices: 60 }));
  }
  await Deno.writeFile(join(dir, "broken.cmp"), new TextEncoder().encode("not a UTF file"));
  const selection = await expandEach(`model=${dir}/*.cmp`);
  const run = (processes: boolean) =>
    runBatch({
      graph: GRAPH,
      selection,
      outDir: join(dir, `out-${processes}`),
      cacheDir: false,
      jobs: 2,
      processes,
    });
  const inProcess = await run(false);
  const processes = await run(true);
  assertEquals([processes.summary.pool, inProcess.summary.pool], ["processes", "workers"]);
  assertEquals([processes.summary.ok, processes.summary.failed], [6, 1]);
  assertEquals(processes.manifest, inProcess.manifest);
  assert(JSON.stringify(processes.manifest.inputs["broken.cmp"].error).includes("UTF header"));
  assertEquals(processes.summary.workers.map((w) => w.inputs).reduce((a, b) => a + b), 7);
});

Deno.test("batch with worker processes: the main thread reads their output without TextDecoderStream (making one loaded Deno's encoding streams, 2-11 ms)", async () => {
  const dir = await tempDir({ prefix: "partgraph-processes-" });
  for (const seed of [4417, 4523]) {
    await Deno.writeFile(
      join(dir, `ship${seed}.cmp`),
      realisticCmp(seed, { parts: 2, maxGroupVertices: 40 }),
    );
  }
  const made: string[] = [];
  const Original = globalThis.TextDecoderStream;
  globalThis.TextDecoderStream = class extends Original {
    constructor(...args: ConstructorParameters<typeof TextDecoderStream>) {
      super(...args);
      made.push(new Error().stack ?? "");
    }
  };
  let summary;
  try {
    ({ summary } = await runBatch({
      graph: GRAPH,
      selection: await expandEach(`model=${dir}/*.cmp`),
      outDir: join(dir, "out"),
      cacheDir: false,
      jobs: 2,
      processes: true,
    }));
  } finally {
    globalThis.TextDecoderStream = Original;
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals([summary.pool, summary.ok], ["processes", 2]);
  assertEquals(made, []);
});

Deno.test("worker process messages: one line of JSON each, bytes (a --set bytes value) in base64", () => {
  const bytes = new Uint8Array([0, 10, 255, 13, 0x1e]);
  const message: JobMessage = {
    id: 7,
    spec: {
      graph: "/g.json",
      inputs: { texture: { bytes, name: "a\nb.png" }, count: 3 },
      each: { name: "model", type: "string", path: "/in/ship\n1.cmp" },
      outDir: "/out",
      cacheDir: false,
      noCache: true,
      refresh: false,
      events: false,
    },
  };
  const line = toLine(message);
  assert(!line.includes("\n") && !line.startsWith(MESSAGE_PREFIX), line);
  const back = fromLine<JobMessage>(line);
  assertEquals(back, message);
  assert((back.spec.inputs.texture as { bytes: unknown }).bytes instanceof Uint8Array);
});

Deno.test("batch with worker processes: an input that exhausts its heap, hangs or throws uncaught fails alone; the rest go on", async () => {
  // Two batches at once. The one with a time limit holds only a hang and a plain input after it, on
  // the fresh process that replaces the hung one. The other has none (but a guard against hanging the
  // suite): each of its failing inputs is the first of a fresh process, which loads the graph's modules
  // as it runs (0.3 s when idle), and the heap filler then fills 64 MB until V8 gives up. With both
  // cores loaded, the heap filler or the thrower went over a 4 s limit shared with the hang in 5 of 10
  // runs, failed for the machine's load rather than for what they did.
  const [dir, hangDir] = await Promise.all(
    ["hostile", "hang"].map((name) => tempDir({ prefix: `partgraph-processes-${name}-` })),
  );
  // Larger files start first: the heap filler, the thrower, the printer, the plain one; the hang, then
  // the plain one after it.
  await hostileGraph(dir, {
    "oom.bin": [1, 0, 0, 0],
    "throw.bin": [5, 0, 0],
    "print.bin": [3, 0],
    "plain.bin": [0],
  });
  await hostileGraph(hangDir, { "hang.bin": [2, 0], "after.bin": [0] });
  const printed: string[] = [];
  const log = console.log;
  console.log = (line: string) => printed.push(line);
  let result, hung;
  try {
    [result, hung] = await Promise.all([
      runHostileBatch(dir, { processes: true, heapMb: 64, inputTimeoutMs: 120_000 }),
      // 8 s: the plain input after the hang, a fresh process's first, took 2.5 s on the loaded machine.
      runHostileBatch(hangDir, { processes: true, inputTimeoutMs: 8000 }),
    ]);
  } finally {
    console.log = log;
  }
  const { manifest, summary } = result;
  assertEquals([summary.ok, summary.failed], [2, 2], JSON.stringify(manifest.inputs));
  const message = (inputs: typeof manifest.inputs, input: string) =>
    (inputs[input].error as { message: string }).message;
  assertEquals(
    message(manifest.inputs, "oom.bin"),
    "the worker process ran out of memory (its heap limit of 64 MB; --max-heap MB sets another)",
  );
  assertEquals(
    message(manifest.inputs, "throw.bin"),
    "the worker process exited with code 1: error: Uncaught Error: an uncaught failure",
  );
  assertEquals(manifest.inputs["plain.bin"].writes, {
    "plain/size.json": manifest.inputs["plain.bin"].writes["plain/size.json"],
  });
  assertEquals(JSON.parse(await Deno.readTextFile(join(dir, "out", "print", "size.json"))), 2);
  assertEquals(printed, ["a line a node printed"], "a node's own output is passed on, the protocol is not");

  assertEquals([hung.summary.ok, hung.summary.failed], [1, 1], JSON.stringify(hung.manifest.inputs));
  const hang = message(hung.manifest.inputs, "hang.bin");
  assert(hang.startsWith("no result within 8 s"), hang);
  assert(hang.includes("while node `hostile` (test.hostile) ran"), hang);
  assert(hung.manifest.inputs["after.bin"].ok, "a fresh process ran the input after the hang");
});

Deno.test("batch with worker processes that die as they start: every input fails with the reason, nothing hangs", async () => {
  const dir = await tempDir({ prefix: "partgraph-processes-start-" });
  for (let i = 0; i < 3; i++) await Deno.writeFile(join(dir, `ship${i}.cmp`), realisticCmp(i, { parts: 2 }));
  // A 1 MB heap is too small for Deno to start: each process dies before (or while) it takes its job.
  const { manifest, summary } = await runBatch({
    graph: GRAPH,
    selection: await expandEach(`model=${dir}/*.cmp`),
    outDir: join(dir, "out"),
    cacheDir: false,
    jobs: 2,
    processes: true,
    heapMb: 1,
  });
  assertEquals([summary.ok, summary.failed], [0, 3]);
  for (const record of Object.values(manifest.inputs)) {
    const { message } = record.error as { message: string };
    assert(message.startsWith("the worker process ran out of memory (its heap limit of 1 MB"), message);
  }
});

Deno.test("partgraph batch: worker processes where Deno may start itself, Deno workers elsewhere; a process writes only where the batch does", async () => {
  const dir = await tempDir({ prefix: "partgraph-processes-cli-" });
  const graph = await hostileGraph(dir, { "escape.bin": [4], "plain.bin": [0, 0] });
  const out = join(dir, "out");
  const allowRun = `--allow-run=${Deno.execPath()}`;
  const cli = async (permissions: string[], flags: string[]) => {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--frozen",
        "--allow-read",
        `--allow-write=${out}`,
        ...permissions,
        CLI,
        "batch",
        graph,
        "--each",
        `model=${dir}/in/*.bin`,
        "--no-cache",
        "--out",
        out,
        "--json",
        ...flags,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const events = new TextDecoder().decode(stdout).split("\n").filter(Boolean).map((line) =>
      JSON.parse(line)
    );
    return {
      code,
      stderr: new TextDecoder().decode(stderr),
      summary: events.find((e) => e.event === "summary"),
    };
  };
  const refused = await cli([], ["--processes"]);
  assertEquals(refused.code, 2, refused.stderr);
  assert(refused.stderr.includes(allowRun), refused.stderr);
  // The command to paste keeps the glob for partgraph, not for the shell.
  assert(refused.stderr.includes(` --each 'model=${dir}/in/*.bin' `), refused.stderr);
  assertEquals((await cli([allowRun], ["--processes", "--workers"])).code, 2);

  const cases: [string[], string[], string][] = [
    [[], [], "workers"], // no leave to start Deno: Deno workers, with no flag needed
    [[allowRun], ["--workers"], "workers"],
    [[allowRun], [], "processes"],
  ];
  for (const [permissions, flags, pool] of cases) {
    const ran = await cli(permissions, flags);
    assertEquals([ran.code, ran.summary?.pool], [1, pool], `${permissions} ${flags}: ${ran.stderr}`);
    const manifest = JSON.parse(await Deno.readTextFile(join(out, "batch.manifest.json")));
    assert(manifest.inputs["plain.bin"].ok);
    const error = JSON.stringify(manifest.inputs["escape.bin"].error);
    assert(/write access/i.test(error), error);
    await Deno.stat(join(dir, "escaped.txt")).then(
      () => assert(false, `a ${pool} worker wrote outside the batch's folders`),
      (e) => assert(e instanceof Deno.errors.NotFound),
    );
  }
});
