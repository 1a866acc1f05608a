/**
 * `/api/users` on a project with one huge folder beside its graphs: the walk's budget (WALK_LIMIT
 * entries) is shared among the folders, so the graphs beside the huge folder, below it and in a
 * `--root` walked after the project are still searched, and the answer names the folders it left
 * unfinished. Before, the walk went depth first and one folder (an `out/` of scratch files, a tool's
 * cache) spent the whole budget: the graphs after it in the walk's order were never looked at.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { Sandbox } from "../../studio/paths.ts";
import { groupUsers, WALK_LIMIT } from "../../studio/users.ts";
import { tempDir } from "../support/temp.ts";

/** A seeded generator (mulberry32): the same project on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fills `folder` with `count` entries as a tool's scratch output leaves them: numbered run outputs in
 * several extensions (a few JSON reports, empty files of crashed runs), now and then a sub-folder of
 * a few files; names of uneven widths. Returns how many entries it made, sub-folders' included.
 */
async function scratchFolder(folder: string, count: number, next: () => number): Promise<number> {
  await Deno.mkdir(folder, { recursive: true });
  const extensions = [".glb", ".png", ".tmp", ".json", ".log", ""];
  let made = 0;
  let sub = "";
  while (made < count) {
    const roll = next();
    if (roll < 0.002) {
      sub = join(folder, `run-${made.toString(36)}`);
      await Deno.mkdir(sub);
      made++;
      continue;
    }
    const ext = extensions[Math.floor(next() * extensions.length)];
    const name = `${roll < 0.5 ? "scratch" : "frame"}_${made}${ext}`;
    const text = ext === ".json" && next() < 0.3 ? `{"run":${made},"parts":${Math.floor(next() * 40)}}` : "";
    await Deno.writeTextFile(join(sub && next() < 0.3 ? sub : folder, name), text);
    made++;
  }
  return made;
}

const graph = (group: string) =>
  JSON.stringify({ version: 1, nodes: { rig: { type: "graph", graph: group } } });

Deno.test("studio users: a huge folder beside the graphs does not spend the walk's budget alone", async () => {
  const next = random(1107);
  const project = await tempDir({ prefix: "studio-users-budget-" });
  const shelf = await tempDir({ prefix: "studio-users-shelf-" });
  // The group and its users: beside the huge folder, two levels down, and in a --root folder.
  await Deno.mkdir(join(project, "graphs", "fleet", "old"), { recursive: true });
  await Deno.writeTextFile(join(project, "graphs", "rig.json"), JSON.stringify({ version: 1, nodes: {} }));
  const users = [
    join(project, "graphs", "aircraft.json"),
    join(project, "graphs", "fleet", "fighter.json"),
    join(project, "graphs", "fleet", "old", "bomber.json"),
  ];
  // Small folders of graphs on either side of the huge one in any order the file system lists them.
  for (const name of ["levels", "vehicles", "zz_props", "a_props", "scenes", "tools"]) {
    await Deno.mkdir(join(project, name));
    users.push(join(project, name, "uses_rig.json"));
  }
  await Deno.writeTextFile(join(shelf, "shelf.json"), graph(join(project, "graphs", "rig.json")));
  users.push(join(shelf, "shelf.json"));
  for (const user of users.slice(0, -1)) {
    const relative = user.slice(project.length + 1).split("/").slice(0, -1).map(() => "..").join("/");
    await Deno.writeTextFile(user, graph(`${relative}/graphs/rig.json`));
  }
  // The huge folder: more entries than the whole budget, its name first among the project's.
  const huge = await scratchFolder(join(project, "_out"), WALK_LIMIT + 8_000, next);
  assert(huge > WALK_LIMIT);

  const sandbox = new Sandbox(project, [shelf]);
  const found = await groupUsers(sandbox, join(project, "graphs", "rig.json"));
  deepEqual(found.users, users.map((user) => sandbox.display(user)).sort());
  equal(found.complete, false, "the huge folder was not walked to its end");
  // The answer says where users may have been missed: the huge folder only (its sub-folders in it).
  deepEqual(found.unfinished, ["_out"]);
  equal(found.unfinishedCount, 1);
});

Deno.test("studio users: a walk within the budget is complete and names no folder unfinished", async () => {
  const project = await tempDir({ prefix: "studio-users-small-" });
  await scratchFolder(join(project, "out"), 3_000, random(11));
  await Deno.mkdir(join(project, "graphs"));
  await Deno.writeTextFile(join(project, "graphs", "rig.json"), JSON.stringify({ version: 1, nodes: {} }));
  await Deno.writeTextFile(join(project, "graphs", "a.json"), graph("rig.json"));
  const found = await groupUsers(new Sandbox(project, [join(project, "out")]), "graphs/rig.json");
  deepEqual(found.users, ["graphs/a.json"]);
  equal(found.complete, true);
  deepEqual(found.unfinished, []);
});

Deno.test("studio users: a cache of many folders shares the budget as one tree beside the graphs", async () => {
  const next = random(2207);
  const project = await tempDir({ prefix: "studio-users-cache-" });
  const shelf = await tempDir({ prefix: "studio-users-cache-shelf-" });
  await Deno.mkdir(join(project, "graphs", "fleet", "old"), { recursive: true });
  await Deno.writeTextFile(join(project, "graphs", "rig.json"), JSON.stringify({ version: 1, nodes: {} }));
  await Deno.writeTextFile(join(project, "graphs", "fleet", "old", "bomber.json"), graph("../../rig.json"));
  await Deno.writeTextFile(join(shelf, "shelf.json"), graph(join(project, "graphs", "rig.json")));
  // A tool's cache: a folder of hashed folders of a few hundred files each, more than the budget in
  // all; each folder alone is small, so a share per folder let them spend the budget in one round.
  let made = 0;
  for (let folder = 0; made <= WALK_LIMIT + 4_000; folder++) {
    const dir = join(project, "deps", Math.floor(next() * 0xffffffff).toString(16).padStart(8, "0"));
    const count = 200 + Math.floor(next() * 400);
    made += await scratchFolder(dir, count, next) + 1;
  }
  const sandbox = new Sandbox(project, [shelf]);
  const found = await groupUsers(sandbox, join(project, "graphs", "rig.json"));
  deepEqual(found.users, ["graphs/fleet/old/bomber.json", sandbox.display(join(shelf, "shelf.json"))].sort());
  equal(found.complete, false);
  // Named as one folder, not as the hundred below it left unfinished.
  deepEqual(found.unfinished, ["deps"]);
});
