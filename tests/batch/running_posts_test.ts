/**
 * What a worker process's job tells its pool about its nodes: one message per node started, holding
 * the nodes running then, so the batch's main thread reads, parses and wakes for half the lines it did
 * (a `running` then a `done` event per node), and still names the node an overrun job is in.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jobServer, type JobSpec, type WorkerMessage } from "../../batch/job.ts";
import { RunningPosts } from "../../batch/running_posts.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";

const FREELANCER = fileURLToPath(new URL("../../graphs/freelancer.json", import.meta.url));

Deno.test("batch worker process: a job posts one message per node it starts, naming the nodes running then", async () => {
  const dir = await tempDir();
  const messages: WorkerMessage[][] = [];
  try {
    let done!: () => void;
    let current: WorkerMessage[] = [];
    // As a worker process serves: no board to share, node events not asked for (no --json).
    const serve = jobServer((message: WorkerMessage) => {
      current.push(message);
      if (message.kind === "done") done();
    });
    for (const [id, seed] of [5711, 5823, 5937].entries()) {
      const path = join(dir, `ship${seed}.cmp`);
      await Deno.writeFile(path, realisticCmp(seed, { parts: 3 + seed % 5, maxGroupVertices: 200 }));
      const spec: JobSpec = {
        graph: FREELANCER,
        inputs: {},
        each: { name: "model", type: "string", path },
        outDir: join(dir, `out${seed}`),
        cacheDir: false,
        noCache: true,
        refresh: false,
        events: false,
      };
      current = [];
      await new Promise<void>((resolve) => {
        done = resolve;
        serve({ id, spec });
      });
      messages.push(current);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  for (const [i, job] of messages.entries()) {
    const done = job.at(-1) as Extract<WorkerMessage, { kind: "done" }>;
    const result = done.result as { ok: boolean; nodes: number };
    assertEquals(result.ok, true);
    const kinds = job.map((m) => m.kind).filter((k) => k !== "module" && k !== "loading");
    const running = job.filter((m) => m.kind === "running");
    // Each node of the graph is named as running in some message: one stuck in it is named.
    const named = new Set(running.flatMap((m) => m.nodes.map(([id]) => id)));
    assertEquals(named.size, result.nodes, `job ${i}: ${[...named].join(", ")}`);
    // At most one per node started, and one more should every node have ended before the next turn.
    assertEquals(running.length <= result.nodes + 1, true, `job ${i}: ${kinds.join(" ")}`);
    assertEquals(kinds.filter((k) => k === "event"), [], `job ${i}: node events posted one by one`);
    assertEquals(kinds[0], "started");
  }
});

Deno.test("running posts: a start is posted at once, an end only if nothing starts before the next turn, none after the job", async () => {
  const posted: string[][] = [];
  const posts = new RunningPosts(3, (m) => m.kind === "running" && posted.push(m.nodes.map(([id]) => id)));
  posts.note({ event: "node", id: "read", type: "io.read", state: "running" });
  assertEquals(posted, [["read"]]); // synchronously: a node that never yields is named
  posts.note({ event: "node", id: "read", type: "io.read", state: "done", ms: 1 });
  posts.note({ event: "node", id: "decode", type: "decode.auto", state: "running" });
  posts.note({ event: "node", id: "cached", type: "rig.parts", state: "cached", ms: 0 });
  assertEquals(posted, [["read"], ["decode"]]);
  posts.note({ event: "node", id: "decode", type: "decode.auto", state: "done", ms: 1 });
  await new Promise((resolve) => setTimeout(resolve, 5));
  assertEquals(posted, [["read"], ["decode"], []]); // nothing started since: the end is posted
  posts.note({ event: "node", id: "write", type: "io.write", state: "running" });
  posts.note({ event: "node", id: "write", type: "io.write", state: "done", ms: 1 });
  posts.end();
  await new Promise((resolve) => setTimeout(resolve, 5));
  assertEquals(posted, [["read"], ["decode"], [], ["write"]]);
});
