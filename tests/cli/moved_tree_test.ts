import { deepStrictEqual as assertEquals, notDeepStrictEqual as assertNotEquals } from "node:assert/strict";
import { join } from "node:path";
import { libraryFile, writeGameTree } from "../nodes/decode/freelancer/game_tree.ts";
import { tempDir } from "../support/temp.ts";

const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;
const GRAPH = new URL("../../graphs/freelancer.json", import.meta.url).pathname;
const MODEL = "DATA/SHIPS/RHEINLAND/rh_fighter/rh_fighter.cmp";

/** `partgraph run graphs/freelancer.json` from `cwd` on `model` with a shared cache: node states, GLB. */
async function build(cwd: string, model: string, cache: string) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--frozen",
      "-A",
      CLI,
      "run",
      GRAPH,
      "--set",
      `model=${model}`,
      "--cache-dir",
      cache,
      "--json",
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const states: Record<string, string> = {};
  for (const line of new TextDecoder().decode(stdout).split("\n").filter(Boolean)) {
    const event = JSON.parse(line);
    if (event.event === "node" && ["done", "cached"].includes(event.state)) states[event.id] = event.state;
  }
  return { states, glb: await Deno.readFile(join(cwd, "out", "model.glb")) };
}

Deno.test("two checkouts of a game tree sharing a cache: each result is checked against its own tree's libraries, and both are kept", async () => {
  const one = await writeGameTree();
  const dir = await tempDir({ prefix: "partgraph-moved-tree-" });
  const cache = join(dir, "cache"), two = join(dir, "two"), moved = join(dir, "one");
  try {
    await new Deno.Command("cp", { args: ["-r", one.base, two] }).output();
    const first = await build(one.base, MODEL, cache);
    assertEquals(first.states.decode, "done");
    // Where the first build ran no longer exists, as on a second machine sharing a remote cache.
    await Deno.rename(one.base, moved);

    // The same tree elsewhere, the model named as the first checkout named it, or by its absolute
    // path: the library search's results are shared, and hold as the files they were made from are here.
    for (const model of [MODEL, join(two, MODEL), `./${MODEL.replace("/SHIPS/", "/SHIPS//")}`]) {
      const again = await build(two, model, cache);
      assertEquals(again.states.decode, "cached", model);
      assertEquals(again.glb, first.glb, model);
    }

    // The second checkout's family .mat paints the fighter green: its decode is not the first's.
    await Deno.writeFile(
      join(two, "DATA/SHIPS/RHEINLAND/rh_playerships.mat"),
      libraryFile([
        { name: "rh_paint", dc: [0, 1, 0], dtName: "RH_Paint.dds" },
        { name: "rh_glass", dc: [0, 0, 1], type: "DcDtOcOt", oc: 0.5 },
      ]),
    );
    const changed = await build(two, MODEL, cache);
    assertEquals(changed.states.decode, "done");
    assertNotEquals(changed.glb, first.glb);
    // And the first checkout, unchanged, still gets its own, though the second's result came after
    // it under the same key: both are kept, as variants of what the library held, and taken in turn.
    for (const [cwd, expected] of [[moved, first.glb], [two, changed.glb], [moved, first.glb]] as const) {
      const turn = await build(cwd, MODEL, cache);
      assertEquals(turn.states.decode, "cached", cwd);
      assertEquals(turn.glb, expected, cwd);
    }
  } finally {
    await Deno.remove(one.base, { recursive: true }).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
