import { deepStrictEqual as assertEquals, ok as assert, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import { main } from "../../cli/main.ts";
import { type BatchEvent, type BatchResult, runBatch } from "../../batch/batch.ts";
import { expandEach, SelectionError } from "../../batch/inputs.ts";
import { formatManifest, mergeManifests } from "../../batch/manifest.ts";
import { parseShard, shardOf } from "../../batch/shard.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { findNginx, NO_NGINX, startCacheServer } from "../support/nginx.ts";
import { tempDir } from "../support/temp.ts";
import { hostileGraph, runHostileBatch } from "../support/hostile_graph.ts";

const GRAPH = new URL("../../graphs/freelancer.json", import.meta.url).pathname;
const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;
const COUNT = 104;

/** A tree of generated compounds in two family folders, plus one file that is not a compound. */
async function shipTree(): Promise<string> {
  const root = await tempDir({ prefix: "partgraph-batch-" });
  for (let i = 0; i < COUNT; i++) {
    const dir = join(root, "ships", i % 3 ? "liberty" : "rheinland");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeFile(
      join(dir, `ship${i}.cmp`),
      realisticCmp(i, { parts: 3 + (i % 3), maxGroupVertices: 40 }),
    );
  }
  await Deno.writeFile(
    join(root, "ships", "liberty", "broken.cmp"),
    new TextEncoder().encode("not a UTF file"),
  );
  return root;
}

const tree = await shipTree();
const each = `model=${tree}/ships/**/*.cmp`;
const cacheDir = join(tree, "cache");
let wholeRun: Promise<BatchResult> | undefined;
/**
 * The batch of the whole tree into `out/` and the shared cache, run once when a test first needs it:
 * not at module load, where every run of this file paid for its 105 builds, even one filtered to a
 * test that uses none of them.
 */
const wholeBatch = () =>
  wholeRun ??= expandEach(each).then((selection) =>
    runBatch({ graph: GRAPH, selection, outDir: join(tree, "out"), cacheDir, jobs: 2 })
  );

Deno.test("batch: every input is built; a failing input is recorded and does not stop the rest", async () => {
  const whole = await wholeBatch();
  assertEquals(whole.summary.inputs, COUNT + 1);
  assertEquals([whole.summary.ok, whole.summary.failed, whole.summary.notRun], [COUNT, 1, 0]);
  const broken = whole.manifest.inputs["liberty/broken.cmp"];
  assertEquals(broken.ok, false);
  assert(JSON.stringify(broken.error).includes("UTF header"), JSON.stringify(broken.error));
  for (const [rel, record] of Object.entries(whole.manifest.inputs)) {
    if (rel === "liberty/broken.cmp") continue;
    const folder = rel.replace(/\.cmp$/, "");
    assertEquals(Object.keys(record.writes).sort(), [`${folder}/model.glb`, `${folder}/model.parts.json`]);
  }
});

Deno.test("batch: --jobs 2 runs two workers, sharing the inputs one at a time", async () => {
  const whole = await wholeBatch();
  const { workers } = whole.summary;
  assertEquals(workers.length, 2);
  assertEquals(workers.reduce((sum, w) => sum + w.inputs, 0), COUNT + 1);
  for (const w of workers) {
    // One input at a time from a shared queue: each worker takes some. Not an even share: a worker
    // whose start is slow (a loaded machine, a cold module cache in a fresh clone) takes fewer — in
    // one such run 16 of 105 — and the other goes on meanwhile.
    assert(w.inputs >= 1, JSON.stringify(workers));
    assert(w.busyMs > 0 && w.busyMs <= w.ms && w.ms <= whole.summary.ms, JSON.stringify(workers));
  }
});

Deno.test("batch: outputs are byte-identical to a single run of the same input", async () => {
  const whole = await wholeBatch();
  for (const rel of ["liberty/ship1.cmp", "rheinland/ship3.cmp", "liberty/ship100.cmp"]) {
    const outDir = await tempDir({ dir: tree });
    await runGraph(GRAPH, { inputs: { model: `${tree}/ships/${rel}` }, outDir, cacheDir: false });
    const folder = rel.replace(/\.cmp$/, "");
    for (const name of ["model.glb", "model.parts.json"]) {
      const single = sha256Hex(await Deno.readFile(join(outDir, name)));
      assertEquals(single, whole.manifest.inputs[rel].writes[`${folder}/${name}`], `${rel} ${name}`);
      assertEquals(sha256Hex(await Deno.readFile(join(tree, "out", folder, name))), single);
    }
  }
});

Deno.test("batch: shards 1/3, 2/3 and 3/3 cover every input once and merge into the unsharded manifest", async () => {
  const whole = await wholeBatch();
  const shards = [];
  for (let index = 1; index <= 3; index++) {
    shards.push(
      await runBatch({
        graph: GRAPH,
        selection: await expandEach(each),
        outDir: join(tree, `shard${index}`),
        cacheDir,
        jobs: 1, // one worker per shard: how inputs are drawn is the shard's, not the pool's
        shard: { index, count: 3 },
      }),
    );
  }
  const covered = shards.flatMap((s) => Object.keys(s.manifest.inputs));
  assertEquals(covered.length, COUNT + 1);
  assertEquals(new Set(covered).size, COUNT + 1);
  for (const s of shards) assert(s.summary.inputs > COUNT / 6, "hashing spreads inputs over the shards");
  const merged = mergeManifests(shards.map((s) => s.manifest));
  assertEquals([merged.missing, merged.duplicated], [[], []]);
  assertEquals(formatManifest(merged.manifest), formatManifest(whole.manifest));

  const partial = mergeManifests([shards[0].manifest, shards[2].manifest, shards[2].manifest]);
  assertEquals(partial.missing, Object.keys(shards[1].manifest.inputs));
  assertEquals(partial.duplicated.length, Object.keys(shards[2].manifest.inputs).length);
  assert(partial.duplicated.every((d) => !d.conflicting), "the same manifest twice agrees with itself");
  // A shard built again elsewhere with another result for one input: that duplicate is a conflict.
  const [first] = Object.keys(shards[2].manifest.inputs);
  const other = {
    ...shards[2].manifest,
    inputs: {
      ...shards[2].manifest.inputs,
      [first]: { ...shards[2].manifest.inputs[first], warnings: ["x"] },
    },
  };
  const conflicts = mergeManifests([shards[2].manifest, other]).duplicated.filter((d) => d.conflicting);
  assertEquals(conflicts.map((d) => d.input), [first]);
});

Deno.test("batch: a re-run is served by the cache; fail-fast stops starting inputs", async () => {
  const whole = await wholeBatch();
  const again = await runBatch({
    graph: GRAPH,
    selection: await expandEach(each),
    outDir: join(tree, "out"),
    cacheDir,
    jobs: 2,
  });
  assertEquals(again.summary.cached, COUNT);
  assertEquals(formatManifest(again.manifest), formatManifest(whole.manifest));

  // The pool starts the largest file first: a broken file larger than every ship fails first.
  const fastDir = join(tree, "fast-inputs");
  await Deno.mkdir(fastDir);
  for (const name of ["ship1.cmp", "ship2.cmp", "ship4.cmp"]) {
    await Deno.copyFile(join(tree, "ships", "liberty", name), join(fastDir, name));
  }
  await Deno.writeFile(join(fastDir, "z_broken.cmp"), new Uint8Array(1 << 20).fill(0x55));
  const selection = await expandEach(`model=${fastDir}/*.cmp`);
  const fast = await runBatch({
    graph: GRAPH,
    selection,
    outDir: join(tree, "fast"),
    cacheDir: false,
    jobs: 1,
    failFast: true,
  });
  assertEquals([fast.summary.failed, fast.summary.ok, fast.summary.notRun], [1, 0, 3]);
  assertEquals(Object.keys(fast.manifest.inputs), ["z_broken.cmp"]);
  assertEquals(fast.summary.workers.map((w) => w.inputs), [1]);
});

Deno.test("batch: the pool starts the largest files first, and the order leaves the manifest as it is", async () => {
  const whole = await wholeBatch();
  const started: string[] = [];
  const selection = await expandEach(`model=${tree}/ships/rheinland/ship[0-9]*.cmp`);
  const result = await runBatch({
    graph: GRAPH,
    selection,
    outDir: join(tree, "out"),
    cacheDir,
    jobs: 1,
    onEvent(event) {
      if (event.event === "input" && event.state === "running") started.push(event.input);
    },
  });
  const size = (rel: string) => Deno.statSync(join(tree, "ships", "rheinland", rel)).size;
  const bySize = selection.inputs.map((i) => i.rel).sort((a, b) => size(b) - size(a) || (a < b ? -1 : 1));
  assertEquals(started, bySize);
  assert(size(started[0]) > size(started[started.length - 1]), "the generated ships differ in size");
  assertEquals(Object.keys(result.manifest.inputs), selection.inputs.map((i) => i.rel));
  for (const rel of started) {
    const [record, before] = [result.manifest.inputs[rel], whole.manifest.inputs[`rheinland/${rel}`]];
    assertEquals([record.digest, Object.values(record.writes)], [
      before.digest,
      Object.values(before.writes),
    ]);
  }
});

Deno.test({
  name: "batch: a remote cache server stopped mid-batch leaves the batch green, with one warning",
  ignore: !findNginx(),
  async fn() {
    const server = await startCacheServer();
    let done = 0;
    const events: BatchEvent[] = [];
    try {
      const result = await runBatch({
        graph: GRAPH,
        selection: await expandEach(`model=${tree}/ships/rheinland/*.cmp`),
        outDir: join(tree, "remote"),
        cacheDir: false,
        jobs: 2,
        remote: { url: server.url, timeoutMs: 2000, retries: 1 },
        onEvent(event) {
          events.push(event);
          if (event.event === "input" && event.state === "done" && ++done === 8) server.stop();
        },
      });
      assertEquals(result.summary.failed, 0);
      assert(result.summary.ok > 20);
      // Each of the two workers finds the server gone; the batch says so once.
      assertEquals(result.warnings.length, 1, result.warnings.join("\n"));
      assert(result.warnings[0].includes("unavailable"), result.warnings[0]);
      assertEquals(events.filter((e) => e.event === "remote-warning").length, 1);
    } finally {
      await server.stop();
    }
  },
});
if (!findNginx()) console.warn(`skipped: ${NO_NGINX}`);

Deno.test("batch inputs: globs with **, {a,b}, classes and lists; shard parsing; stable shard hash", async () => {
  const rel = async (spec: string) => (await expandEach(spec)).inputs.map((i) => i.rel);
  assertEquals((await rel(each)).length, COUNT + 1);
  assertEquals(await rel(`model=${tree}/ships/{rheinland,none}/ship[0-3].cmp`), [
    "rheinland/ship0.cmp",
    "rheinland/ship3.cmp",
  ]);
  const teens = Array.from(
    { length: 10 },
    (_, k) => `${(10 + k) % 3 ? "liberty" : "rheinland"}/ship${10 + k}.cmp`,
  );
  assertEquals(await rel(`model=${tree}/ships/*/ship1?.cmp`), teens.sort());
  const list = join(tree, "ships", "list.txt");
  await Deno.writeTextFile(list, "# two ships\nliberty/ship1.cmp\n\nrheinland/ship0.cmp\n");
  const listed = await expandEach(`model=@${list}`);
  assertEquals(listed.inputs.map((i) => i.rel), ["liberty/ship1.cmp", "rheinland/ship0.cmp"]);
  assertEquals(listed.base, join(tree, "ships"));
  assertEquals(parseShard("2/3"), { index: 2, count: 3 });
  for (const bad of ["0/3", "4/3", "1/0", "x"]) throws(() => parseShard(bad), RangeError);
  assertEquals(shardOf("liberty/ship1.cmp", 7), shardOf("liberty/ship1.cmp", 7));
  const counts = [0, 0, 0];
  for (let i = 0; i < 3000; i++) counts[shardOf(`f${i}`, 3) - 1]++;
  for (const c of counts) assert(c > 900 && c < 1100, `balanced shards: ${counts}`);
});

Deno.test("batch inputs: files a glob matches only ignoring case are named, not taken (a tree from Windows mixes cases)", async () => {
  const dir = await tempDir({ prefix: "partgraph-batch-case-" });
  await Deno.mkdir(join(dir, "ships", "Rheinland"), { recursive: true });
  for (const name of ["ships/a.cmp", "ships/B.CMP", "ships/Rheinland/c.Cmp", "ships/Rheinland/d.cmp"]) {
    await Deno.writeTextFile(join(dir, name), "x");
  }
  const selection = await expandEach(`model=${dir}/ships/**/*.cmp`);
  assertEquals(selection.inputs.map((i) => i.rel), ["Rheinland/d.cmp", "a.cmp"]);
  assertEquals(selection.caseOnly, ["B.CMP", "Rheinland/c.Cmp"]);
  // Within the pattern's wildcard part a folder's case counts too; its literal base is the file system's.
  assertEquals((await expandEach(`model=${dir}/ships/*/d.cmp`)).inputs.map((i) => i.rel), [
    "Rheinland/d.cmp",
  ]);
  await rejects(expandEach(`model=${dir}/*/rheinland/d.cmp`), (error: Error) => {
    assert(
      error.message.includes("no file matches (1 would ignoring case: 'ships/Rheinland/d.cmp'"),
      error.message,
    );
    return true;
  });
  await rejects(
    expandEach(`model=${dir}/ships/*.CMP`).then(() => expandEach(`model=${dir}/ships/*.cMp`)),
    (error: Error) => {
      assert(error instanceof SelectionError, String(error));
      assertEquals(
        error.message,
        `--each model=${dir}/ships/*.cMp: no file matches (2 would ignoring case: 'B.CMP' and 1 more; globs ` +
          "match case as written: add the other spelling, e.g. '*.{cmp,CMP}')",
      );
      return true;
    },
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("batch inputs: a symbolic link to a file is an input; one to a folder is not walked (a loop stays finite)", async () => {
  const dir = await tempDir({ prefix: "partgraph-batch-links-" });
  await Deno.mkdir(join(dir, "install"));
  await Deno.mkdir(join(dir, "mod"));
  await Deno.writeTextFile(join(dir, "install", "ship.cmp"), "x");
  await Deno.writeTextFile(join(dir, "mod", "own.cmp"), "x");
  await Deno.symlink(join(dir, "install", "ship.cmp"), join(dir, "mod", "linked.cmp"));
  await Deno.symlink(join(dir, "install", "gone.cmp"), join(dir, "mod", "dangling.cmp"));
  await Deno.symlink(dir, join(dir, "mod", "loop"));
  const selection = await expandEach(`model=${dir}/mod/**/*.cmp`);
  assertEquals(selection.inputs.map((i) => i.rel), ["linked.cmp", "own.cmp"]);
  await Deno.remove(dir, { recursive: true });
});

/** A new folder holding `ships/s1.cmp` … `ships/s<count>.cmp`, small generated compounds. */
async function smallShips(prefix: string, count: number): Promise<string> {
  const dir = await tempDir({ prefix });
  await Deno.mkdir(join(dir, "ships"));
  for (let i = 1; i <= count; i++) {
    await Deno.writeFile(join(dir, `ships/s${i}.cmp`), realisticCmp(i, { parts: 3, maxGroupVertices: 40 }));
  }
  return dir;
}

Deno.test("partgraph batch --each NAME=@- takes the list from stdin, paths relative to the working folder", async () => {
  const dir = await smallShips("partgraph-batch-stdin-", 3);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--frozen",
      "--allow-read",
      `--allow-write=${dir}`,
      CLI,
      "batch",
      GRAPH,
      "--each",
      "model=@-",
      "--out",
      "out",
      "--no-cache",
      "--json",
    ],
    cwd: dir,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`ships/s1.cmp\n${join(dir, "ships/s3.cmp")}\n`)); // as find prints
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const done = new TextDecoder().decode(stdout).split("\n").filter(Boolean).map((line) => JSON.parse(line))
    .filter((e) => e.event === "input" && e.state === "done").map((e) => e.input).sort();
  assertEquals(done, ["s1.cmp", "s3.cmp"]);
  await Deno.stat(join(dir, "out", "s3", "model.glb"));
});

Deno.test("partgraph batch: two copies of a tree in different places share what depends on the model's path", async () => {
  // Two machines (or checkouts) with the same tree at different absolute paths, each running from the
  // tree's top with an absolute glob, and one cache between them (standing for a shared remote).
  const a = await smallShips("partgraph-batch-place-a-", 2),
    b = await tempDir({ prefix: "partgraph-batch-place-b-" });
  await Deno.mkdir(join(b, "ships"));
  for (const name of ["s1.cmp", "s2.cmp"]) {
    await Deno.copyFile(join(a, "ships", name), join(b, "ships", name));
  }
  const cache = await tempDir({ prefix: "partgraph-batch-place-cache-" });
  const build = async (dir: string) => {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--frozen", "--allow-read", `--allow-write=${dir},${cache}`, CLI, "batch", GRAPH]
        .concat(["--each", `model=${dir}/ships/*.cmp`, "--out", "out", "--cache-dir", cache, "--json"]),
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(code, 0, new TextDecoder().decode(stderr));
    const events = new TextDecoder().decode(stdout).split("\n").filter(Boolean).map((line) =>
      JSON.parse(line)
    );
    return {
      decodes: events.filter((e) => e.event === "node" && e.type === "decode.cmp" && e.state !== "running")
        .map((e) => e.state),
      manifest: await Deno.readTextFile(join(dir, "out", "batch.manifest.json")),
    };
  };
  try {
    const first = await build(a);
    assertEquals(first.decodes, ["done", "done"]);
    const second = await build(b);
    // decode.cmp's library search starts at the model's folder: its key holds the path the graph was
    // given, which is the same relative one in both places.
    assertEquals(second.decodes, ["cached", "cached"]);
    assert(!second.manifest.includes(b), "the manifest names the inputs relative to the working folder");
    // A manifest holds nothing that depends on caching (batch/manifest.ts), so the first build's, made
    // without the cache, is the one to match: no third process to build it again from the cache.
    assertEquals(second.manifest, first.manifest);
  } finally {
    for (const dir of [a, b, cache]) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("batch inputs: two that would share an output folder are refused before anything runs", async () => {
  const dir = await tempDir({ prefix: "partgraph-batch-clash-" });
  const ship = realisticCmp(1, { parts: 3, maxGroupVertices: 40 });
  await Deno.mkdir(join(dir, "a"));
  for (const name of ["a/ship.cmp", "a/ship.3db", "a/Boat.cmp", "a/boat.cmp", "a/raft.cmp"]) {
    await Deno.writeFile(join(dir, name), ship);
  }
  // In the inputs' order (by path; capitals first), each group once; raft.cmp clashes with nothing.
  const clash = "'a/Boat.cmp' and 'a/boat.cmp'; 'a/ship.3db' and 'a/ship.cmp'. Select one of each";
  await rejects(expandEach(`model=${dir}/**/*.{cmp,3db}`), (error: Error) => {
    assert(error instanceof SelectionError && error.message.includes(clash), error.message);
    return true;
  });
  // A selection built by hand meets the same check in runBatch, before any output is written.
  const selection = {
    name: "model",
    base: dir,
    inputs: [{ path: join(dir, "a/ship.cmp"), rel: "a/ship.cmp" }],
  };
  const both = {
    ...selection,
    inputs: [...selection.inputs, { path: join(dir, "a/ship.3db"), rel: "a/ship.3db" }],
  };
  const outDir = join(dir, "out");
  await rejects(runBatch({ graph: GRAPH, selection: both, outDir, cacheDir: false }), SelectionError);
  assertEquals(await Array.fromAsync(Deno.readDir(dir), (e) => e.name).then((n) => n.sort()), ["a"]);
  // One of each runs.
  assertEquals((await expandEach(`model=${dir}/a/{ship.cmp,boat.cmp,raft.cmp}`)).inputs.length, 3);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("partgraph batch: a glob run again does not take the outputs or the cache of the first run for inputs", async () => {
  const dir = await smallShips("partgraph-batch-again-", 2);
  const error = console.error;
  console.error = () => {};
  try {
    // Everything under the folder: the outputs and the cache (not hidden here) are inside it.
    const run = () =>
      main([
        "batch",
        GRAPH,
        "--each",
        `model=${dir}/**/*`,
        "--out",
        join(dir, "out"),
        "--cache-dir",
        join(dir, "cache"),
      ]);
    assertEquals(await run(), 0);
    assertEquals(await run(), 0, "the outputs (GLB, JSON) would fail as compounds");
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, "out/batch.manifest.json")));
    assertEquals(manifest.selection.inputs, ["ships/s1.cmp", "ships/s2.cmp"]);
    assert((await Deno.stat(join(dir, "out/ships/s1/model.glb"))).isFile);
  } finally {
    console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("partgraph verify of a batch manifest rebuilds every input it covers and names what differs", async () => {
  const dir = await smallShips("partgraph-batch-verify-", 2);
  await Deno.writeTextFile(join(dir, "ships/bad.cmp"), "not a UTF file");
  const out = join(dir, "out"), manifestPath = join(out, "batch.manifest.json");
  const log = console.log, error = console.error;
  const printed: string[] = [];
  console.log = (...a: unknown[]) => void printed.push(a.join(" "));
  console.error = (...a: unknown[]) => void printed.push(a.join(" "));
  try {
    const each = `model=${dir}/ships/*.cmp`;
    assertEquals(await main(["batch", GRAPH, "--each", each, "--out", out, "--no-cache", "--quiet"]), 1);
    const recorded = JSON.parse(await Deno.readTextFile(manifestPath));
    assertEquals(Object.keys(recorded.inputs), ["bad.cmp", "s1.cmp", "s2.cmp"]);
    // The failing input fails again the same way: that too is what the manifest recorded.
    assertEquals(await main(["verify", manifestPath, "--out", out]), 0, printed.join("\n"));
    assert(printed.includes("verified: 3 inputs, 4 files rebuilt identically"), printed.join("\n"));

    const glb = "s1/model.glb";
    recorded.inputs["s1.cmp"].writes[glb] = "0".repeat(64);
    await Deno.writeTextFile(manifestPath, JSON.stringify(recorded));
    await Deno.writeFile(join(dir, "ships/s2.cmp"), realisticCmp(7, { parts: 3, maxGroupVertices: 40 }));
    printed.length = 0;
    assertEquals(await main(["verify", manifestPath, "--out", out, "--json"]), 1);
    const verdict = JSON.parse(printed.at(-1)!);
    assertEquals(verdict.ok, false);
    const what = verdict.differences.map((d: { what: string }) => d.what);
    assert(what.includes(`inputs.s1.cmp.writes.${glb}`), what.join(", "));
    assert(what.includes("inputs.s2.cmp.digest"), what.join(", "));
    assert(what.includes("inputs.s2.cmp.writes.s2/model.glb"), what.join(", "));
    assert(!what.some((w: string) => w.startsWith("inputs.bad.cmp")), what.join(", "));
    // An input that is a pipe or a device is refused before anything is rebuilt (a rebuild would wait
    // on the pipe for ever, or read the device without end).
    await Deno.remove(join(dir, "ships/s2.cmp"));
    assertEquals((await new Deno.Command("mkfifo", { args: [join(dir, "ships/s2.cmp")] }).output()).code, 0);
    const s1 = recorded.inputs["s1.cmp"];
    for (
      const inputs of [{ "s2.cmp": { ...s1, path: join(dir, "ships/s2.cmp") } }, {
        "z.cmp": { ...s1, path: "/dev/zero" },
      }]
    ) {
      await Deno.writeTextFile(manifestPath, JSON.stringify({ ...recorded, inputs }));
      printed.length = 0;
      assertEquals(await main(["verify", manifestPath, "--out", out]), 2, printed.join("\n"));
      assert(printed.some((line) => /is not a regular file/.test(line)), printed.join("\n"));
    }
    // A shard that drew no input has nothing to rebuild.
    await Deno.writeTextFile(manifestPath, JSON.stringify({ ...recorded, shard: "2/9", inputs: {} }));
    printed.length = 0;
    assertEquals(await main(["verify", manifestPath, "--out", out]), 0, printed.join("\n"));
    assert(printed.includes("verified: 0 inputs (the manifest covers none)"), printed.join("\n"));
    // Nothing of the rebuilds is left behind.
    assertEquals(
      (await Array.fromAsync(Deno.readDir(out), (e) => e.name)).filter((n) => n.startsWith(".verify")),
      [],
    );
  } finally {
    console.log = log;
    console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "partgraph verify of a batch manifest with a remote cache seeds it: another machine's batch is all hits (both on worker processes)",
  ignore: !findNginx(),
  async fn() {
    const server = await startCacheServer();
    const dir = await smallShips("partgraph-batch-seed-", 3);
    const error = console.error;
    console.error = () => {};
    try {
      const each = `model=${dir}/ships/*.cmp`, out = join(dir, "out");
      assertEquals(await main(["batch", GRAPH, "--each", each, "--out", out, "--no-cache"]), 0);
      const manifest = join(out, "batch.manifest.json");
      // Worker processes reach the remote with the host this process may reach (the tests: loopback only).
      assertEquals(
        await main(["verify", manifest, "--out", out, "--remote-cache", server.url, "--processes"]),
        0,
      );
      const computed: string[] = [];
      const other = await runBatch({
        graph: GRAPH,
        selection: await expandEach(each),
        outDir: join(dir, "other"),
        cacheDir: join(dir, "other-cache"),
        remote: { url: server.url },
        processes: true,
        nodeEvents: true,
        onEvent(event) {
          if (event.event === "node" && event.state === "done") computed.push(`${event.input} ${event.type}`);
        },
      });
      assertEquals(other.summary.ok, 3);
      // Only the writes ran (into a folder that had none of the files); every result came from the server.
      assertEquals(new Set(computed.map((c) => c.split(" ")[1])), new Set(["io.write"]), computed.join(", "));
      // No input counts as cached (its writes ran), so the summary's node counts say where the rest came from.
      const { nodes } = other.summary;
      assertEquals(other.summary.cached, 0);
      assertEquals([nodes.cached, nodes.remote], [
        nodes.total - computed.length,
        nodes.total - computed.length,
      ]);
      assert(nodes.total > computed.length && computed.length === 3 * 2, JSON.stringify(nodes));
      assertEquals(other.manifest.inputs, JSON.parse(await Deno.readTextFile(manifest)).inputs);
    } finally {
      console.error = error;
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("batch --timeout: an input that hangs fails alone, its worker replaced; the batch goes on", async () => {
  const dir = await tempDir({ prefix: "partgraph-batch-hang-" });
  // A file starting with byte 2 never returns (a decoder bug, say). The hanging file is the largest, so
  // the pool starts it first and the others run after it.
  const graph = await hostileGraph(dir, { "a.bin": [0], "hang.bin": [2, 0, 0, 0], "z.bin": [0, 0] });
  // The limit holds a.bin too, the first input of a fresh worker, which loads the graph's modules as it
  // runs: 0.2 s on an idle machine, 0.6 s with both cores loaded eight times over; 3 s leaves room.
  const left: BatchEvent[] = [];
  const { manifest, summary } = await runHostileBatch(dir, {
    inputTimeoutMs: 3000,
    onEvent: (event) => event.event === "worker-left-running" && left.push(event),
  });
  assertEquals([summary.ok, summary.failed], [2, 1], JSON.stringify(manifest.inputs));
  const failure = manifest.inputs["hang.bin"].error as { message: string };
  assert(failure.message.startsWith("no result within 3 s"), failure.message);
  assert(failure.message.includes("while node `hostile` (test.hostile) ran"), failure.message);
  // A Deno worker in a loop that never yields is not ended by terminate() (denoland/deno#35657): the
  // batch says it runs on, and where, rather than that it was stopped. (It ends as the folder goes.)
  assert(
    failure.message.endsWith(
      "runs on: a Deno worker in JavaScript that never yields cannot be stopped (denoland/deno#35657)",
    ),
    failure.message,
  );
  assertEquals(left, [{
    event: "worker-left-running",
    input: "hang.bin",
    in: ["node `hostile` (test.hostile)"],
    starting: false,
    seconds: 3,
  }]);
  assert(manifest.inputs["a.bin"].ok && manifest.inputs["z.bin"].ok, "a fresh worker ran the rest");
  assertEquals(summary.slowest[0].input, "hang.bin");
  assert(summary.slowest[0].ms >= 3000, `${summary.slowest[0].ms} ms`);
  const error = console.error;
  console.error = () => {};
  try {
    assertEquals(await main(["batch", graph, "--each", `model=${dir}/in/*.bin`, "--timeout", "0"]), 2);
  } finally {
    console.error = error;
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("batch over a bytes input: each file's contents are given, digests recorded, outputs as a single run's", async () => {
  const dir = await tempDir({ prefix: "partgraph-batch-bytes-" });
  const graph = {
    version: 1,
    inputs: { data: { type: "bytes" } },
    nodes: {
      decode: { type: "decode.auto", inputs: { bytes: { $input: "data" } } },
      export: { type: "export.gltf", inputs: { scene: "decode.scene" } },
      write: { type: "io.write", inputs: { bytes: "export.bytes" }, params: { path: "model.glb" } },
    },
  };
  const graphPath = join(dir, "bytes.json");
  await Deno.writeTextFile(graphPath, JSON.stringify(graph));
  await Deno.mkdir(join(dir, "in"));
  const files = [1, 2].map((i) => realisticCmp(i, { parts: 3, maxGroupVertices: 40 }));
  for (const [i, bytes] of files.entries()) await Deno.writeFile(join(dir, "in", `s${i}.cmp`), bytes);
  const { manifest } = await runBatch({
    graph: graphPath,
    selection: await expandEach(`data=${dir}/in/*.cmp`),
    outDir: join(dir, "out"),
    cacheDir: false,
  });
  for (const [i, bytes] of files.entries()) {
    const record = manifest.inputs[`s${i}.cmp`];
    assertEquals(record.digest, sha256Hex(bytes));
    const single = await runGraph(graphPath, {
      inputs: { data: { bytes, name: `s${i}.cmp` } },
      outDir: join(dir, `single${i}`),
      noCache: true,
    });
    assertEquals(record.writes, { [`s${i}/model.glb`]: single.writes[0].sha256 });
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("partgraph batch: CLI runs, writes the manifest, exits 1 on a failure; --merge reports what is missing", async () => {
  await wholeBatch(); // its cache serves the shard this test builds
  const log = console.log, error = console.error;
  const err: string[] = [];
  console.log = () => {};
  console.error = (...a: unknown[]) => void err.push(a.join(" "));
  try {
    const out = join(tree, "cli");
    const code = await main([
      "batch",
      GRAPH,
      "--each",
      `model=${tree}/ships/liberty/*.cmp`,
      "--out",
      out,
      "--cache-dir",
      cacheDir,
      "--shard",
      "1/2",
    ]);
    const manifest = JSON.parse(await Deno.readTextFile(join(out, "batch.manifest.json")));
    assertEquals(manifest.shard, "1/2");
    const hasBroken = "broken.cmp" in manifest.inputs;
    assertEquals(code, hasBroken ? 1 : 0);
    assert(err.some((l) => l.includes("inputs")), "summary table printed");
    assert(err.some((l) => /^workers: \d+( process(es)?)?, busy \d+%/m.test(l)), "worker figures printed");
    assert(err.some((l) => /^nodes: \d+, \d+ of them from a cache$/m.test(l)), "node counts printed");
    const merged = join(tree, "merged.json");
    assertEquals(await main(["batch", "--merge", join(out, "batch.manifest.json"), "--out", merged]), 1);
    assert(err.some((l) => l.startsWith("missing: ")), err.join("\n"));
    assertEquals(await main(["batch", GRAPH, "--each", `model=${tree}/nothing/*.cmp`, "--out", out]), 2);
    // A shard manifest of the wrong shape (another tool's, damaged, hand-edited) is refused by name
    // and field, and nothing is written.
    const good = JSON.parse(await Deno.readTextFile(join(out, "batch.manifest.json")));
    const first = Object.keys(good.inputs)[0];
    const damaged: [string, unknown][] = [
      ["a graph file", { version: 1, nodes: {} }],
      ["no tools", { batch: 1 }],
      ["an input's writes", {
        ...good,
        inputs: { ...good.inputs, [first]: { ...good.inputs[first], writes: 5 } },
      }],
    ];
    for (const [what, manifest] of damaged) {
      const file = join(tree, "damaged.json");
      await Deno.writeTextFile(file, JSON.stringify(manifest));
      const refusedAt = join(tree, "refused.json");
      err.length = 0;
      assertEquals(await main(["batch", "--merge", file, "--out", refusedAt]), 2, what);
      assert(err.some((l) => l.includes(`'${file}' is not a batch manifest`)), `${what}: ${err.join("\n")}`);
      assert(!(await Deno.stat(refusedAt).catch(() => undefined)), `${what}: nothing written`);
    }
  } finally {
    console.log = log;
    console.error = error;
  }
});
