/**
 * A Deno worker keeps its job's running nodes on a board it shares with the pool instead of posting
 * two messages per node: the messages a job costs are counted (a retail-shaped compound through
 * `graphs/freelancer.json`, nine nodes), and the board still names where a job stuck.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jobServer, type JobSpec, type WorkerMessage } from "../../batch/job.ts";
import { RunningBoard } from "../../batch/running_board.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";

const FREELANCER = fileURLToPath(new URL("../../graphs/freelancer.json", import.meta.url));

/** The kinds of message one job of `spec` posts, in order, with a board shared or not. */
async function messagesOf(spec: JobSpec, board?: RunningBoard): Promise<string[]> {
  const kinds: string[] = [];
  await new Promise<void>((done) => {
    const serve = jobServer((message: WorkerMessage) => {
      kinds.push(
        message.kind === "event" ? `event:${(message.event as { state?: string }).state}` : message.kind,
      );
      if (message.kind === "done") done();
    });
    serve({ id: 0, spec, board: board?.buffer });
  });
  return kinds;
}

async function compoundSpec(events: boolean): Promise<JobSpec> {
  const dir = await tempDir();
  const path = join(dir, "ship.cmp");
  await Deno.writeFile(path, realisticCmp(5151, { parts: 6, maxGroupVertices: 300 }));
  return {
    graph: FREELANCER,
    inputs: {},
    each: { name: "model", type: "string", path },
    outDir: join(dir, "out"),
    cacheDir: false,
    noCache: false,
    refresh: false,
    events,
  };
}

Deno.test("batch worker: with a board, a job posts 3 messages, not 2 per node (node states stay on the board); a job after it 2", async () => {
  const board = new RunningBoard();
  const spec = await compoundSpec(false);
  const serve = jobServer((message: WorkerMessage) => kinds.at(-1)!.push(message.kind));
  const kinds: string[][] = [];
  for (const id of [0, 1]) {
    kinds.push([]);
    await serve({ id, spec: { ...spec, outDir: `${spec.outDir}${id}` }, board: board.buffer });
  }
  // The member loads the graph's code for its first job only; then "loading" and "started" would come
  // together, each a wake-up of the batch's main thread.
  assertEquals(kinds, [["loading", "started", "done"], ["started", "done"]]);
  assertEquals(board.ids(), []); // every node ended
});

Deno.test("batch worker: asked for every event (--json), a job still posts its node events with a board", async () => {
  const kinds = await messagesOf(await compoundSpec(true), new RunningBoard());
  const nodes = kinds.filter((kind) => kind === "event:running").length;
  assertEquals(nodes, 9, kinds.join(", "));
  assertEquals(kinds.filter((kind) => kind === "event:done").length, nodes);
});

Deno.test("running board: the pool reads the nodes a worker noted as running, in the order they started", () => {
  const pool = new RunningBoard();
  const worker = new RunningBoard(pool.buffer);
  worker.clear();
  worker.note({ event: "node", id: "decode", type: "decode.cmp", state: "running" });
  worker.note({ event: "node", id: "report", type: "rig.report", state: "running" });
  worker.note({ event: "node", id: "export", type: "export.gltf", state: "running" });
  worker.note({ event: "node", id: "decode", type: "decode.cmp", state: "done" });
  worker.note({ event: "warning", id: "export", type: "export.gltf", message: "not a node state" });
  assertEquals(pool.ids(), ["node `report` (rig.report)", "node `export` (export.gltf)"]);
  worker.note({ event: "node", id: "report", type: "rig.report", state: "failed" });
  assertEquals(pool.ids(), ["node `export` (export.gltf)"]);
  worker.clear();
  assertEquals(pool.ids(), []);
  // Far more nodes at once than it has room for: the first that fit, never a broken list.
  for (let i = 0; i < 700; i++) {
    worker.note({ event: "node", id: `n${i}`, type: "test.wide_graph_node", state: "running" });
  }
  const named = pool.ids();
  assertEquals(named[0], "node `n0` (test.wide_graph_node)");
  assertEquals(named.length > 100 && named.length < 700, true, `${named.length}`);
});

Deno.test("running board: a fresh worker's nodes whose modules are loading are named, until each has loaded", () => {
  const pool = new RunningBoard();
  const worker = new RunningBoard(pool.buffer);
  worker.clear();
  worker.loading("decode", "decode.auto", false);
  worker.loading("rig", "rig.parts", false);
  worker.loading("decode", "decode.auto", true);
  assertEquals(pool.ids(), ["loading the module of node `rig` (rig.parts)"]);
  worker.note({ event: "node", id: "read", type: "io.read", state: "running" });
  assertEquals(pool.ids(), ["node `read` (io.read)", "loading the module of node `rig` (rig.parts)"]);
  worker.clear(); // the next job: nothing left from this one
  assertEquals(pool.ids(), []);
});
