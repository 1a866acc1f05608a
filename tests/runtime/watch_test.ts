import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { watchGraph, type WatchRound } from "../../mod.ts";
import { tempDir } from "../support/temp.ts";

/** A graph copying `in.txt` to `copy.txt` (beside a demo fighter when `fighter`), in a new folder. */
async function copyGraph(fighter: boolean) {
  const dir = await tempDir();
  const src = join(dir, "in.txt");
  await Deno.writeTextFile(src, "first");
  const graph = join(dir, "copy.json");
  await Deno.writeTextFile(
    graph,
    JSON.stringify({
      version: 1,
      nodes: {
        read: { type: "io.read", params: { path: src } },
        write: { type: "io.write", inputs: { bytes: "read.bytes" }, params: { path: "copy.txt" } },
        ...(fighter ? { fighter: { type: "demo.fighter", params: { detail: 1 } } } : {}),
      },
      ...(fighter ? { outputs: { scene: "fighter.scene" } } : {}),
    }),
  );
  return { dir, src, graph };
}

/**
 * Watches `graph` until its second round (or 10 s): `afterFirst` runs inside the first round's
 * `onRound`, before the round hands back. The rounds seen.
 */
async function twoRounds(graph: string, dir: string, afterFirst: () => void): Promise<WatchRound[]> {
  const rounds: WatchRound[] = [];
  const stop = new AbortController();
  const watching = watchGraph(graph, {
    outDir: join(dir, "out"),
    cacheDir: false,
    signal: stop.signal,
    debounceMs: 30,
    onRound(round) {
      rounds.push(round);
      if (rounds.length === 1) afterFirst();
      else stop.abort();
    },
  });
  const timeout = setTimeout(() => stop.abort(), 10_000);
  await watching;
  clearTimeout(timeout);
  return rounds;
}

Deno.test("watch runs again when a file the graph read changes, re-running only what depends on it", async () => {
  const { dir, src, graph } = await copyGraph(true);
  const rounds = await twoRounds(graph, dir, () => setTimeout(() => Deno.writeTextFile(src, "second"), 50));
  assertEquals(rounds.length, 2, "a second round ran after the edit");
  const [first, second] = rounds.map((r) => r.run!);
  assert(first && second, String(rounds.map((r) => r.error)));
  assertEquals(second.nodes.read.state, "done");
  assertEquals(second.nodes.write.state, "done");
  assertEquals(second.nodes.fighter.state, "cached", "the unaffected branch stays cached");
  assertEquals(await Deno.readTextFile(join(dir, "out", "copy.txt")), "second");
});

Deno.test("watch runs again for an edit saved before its watcher is set up (while a round runs or reports)", async () => {
  const { dir, src, graph } = await copyGraph(false);
  // Saved at once, before the round hands back: no file event can reach a watcher made after it.
  const rounds = await twoRounds(graph, dir, () => Deno.writeTextFileSync(src, "second"));
  assertEquals(rounds.length, 2, "a second round ran after the edit");
  assertEquals(await Deno.readTextFile(join(dir, "out", "copy.txt")), "second");
});

Deno.test("watch runs again for an edit stamped a clock tick before the round began (Linux's coarse file clock)", async () => {
  const { dir, src, graph } = await copyGraph(false);
  const started = Date.now();
  const rounds = await twoRounds(graph, dir, () => {
    // The kernel stamps files from a clock that trails Date.now() by up to a tick: an edit saved
    // during a short round can carry a time before the round began.
    Deno.writeTextFileSync(src, "second");
    const stamped = new Date(started - 5);
    Deno.utimeSync(src, stamped, stamped);
  });
  assertEquals(rounds.length, 2, "a second round ran after the edit");
  assertEquals(await Deno.readTextFile(join(dir, "out", "copy.txt")), "second");
});
