/**
 * The studio against a project as real users have one (see hostile_project.ts): secrets stay
 * unread, `LOCALHOST` is this studio and no other name is, huge, looping, renamed and Unicode graphs
 * get a clear answer in time, a save never silently replaces a file changed since it was opened (two
 * tabs, an editor), and a model too large to preview is refused at once, naming its size.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { studioIn } from "./project_studio.ts";
import { tempDir } from "../support/temp.ts";
import { hostileCases } from "./hostile_cases.ts";
import { hostileProject } from "./hostile_project.ts";

/** A studio whose project (working directory at start) is a fresh hostile project from `seed`. */
async function withHostile(
  seed: number,
  fn: (url: string, dir: string, p: Awaited<ReturnType<typeof hostileProject>>) => Promise<void>,
) {
  const dir = await tempDir({ prefix: "studio-hostile-project-" });
  const p = await hostileProject(dir, seed);
  const studio = await studioIn(dir);
  try {
    await fn(studio.url, dir, p);
  } finally {
    await studio.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("studio hostile project: every case answered right, none wrongly judged good", async () => {
  await withHostile(11, async (url, dir, p) => {
    const outcomes = await hostileCases(url, dir, p);
    assert(outcomes.length >= 25, `${outcomes.length} cases`);
    deepEqual(outcomes.filter((o) => o.wrong).map((o) => `${o.name}: ${o.detail}`), []);
  });
});

Deno.test("studio hostile project: each refusal names its rule", async () => {
  await withHostile(12, async (url, dir, p) => {
    const get = async (route: string, path: string) => {
      const response = await fetch(`${url}api/${route}?path=${encodeURIComponent(path)}`);
      return [response.status, (await response.json()).error] as const;
    };
    const [denoStatus, denoError] = await get("file", "deno.json");
    equal(denoStatus, 403);
    assert(denoError.startsWith("/api/file refused: 'deno.json' is not a file the studio shows"), denoError);
    for (const named of ["inside 'out'", ".glb", ".cmp", ".duf", "graph files"]) {
      assert(denoError.includes(named));
    }
    deepEqual(await get("file", ".git/config"), [403, "/api/file refused: '.git/config' is inside '.git'"]);
    deepEqual(await get("graph", ".env"), [403, "opening a graph refused: '.env' is inside '.env'"]);
    // What the studio does show is served: a graph file, a model, a run output.
    await Deno.mkdir(join(dir, "out"));
    await Deno.writeTextFile(join(dir, "out", "report.txt"), "rig report");
    for (const path of [p.cycleGraph, "out/report.txt"]) {
      equal((await get("file", path).catch(() => [200]))[0], 200);
    }
    const [status, error] = await get("model", p.bigModel);
    equal(status, 413);
    assert(error.startsWith(`'${p.bigModel}' is ${Math.round(p.bigModelBytes / 2 ** 20)} MB`), error);
    // Saving over a file changed since it was opened, then on purpose (no base): the page asks between.
    const opened = await (await fetch(`${url}api/graph?path=${p.renamedGraph}`)).json();
    await Deno.writeTextFile(join(dir, p.renamedGraph), JSON.stringify({ ...opened.graph, name: "disk" }));
    const post = (base?: string) =>
      fetch(`${url}api/save`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: p.renamedGraph, graph: opened.graph, base }),
      });
    const refused = await post(opened.digest);
    equal(refused.status, 409);
    deepEqual((await refused.json()).changed, true);
    equal(JSON.parse(await Deno.readTextFile(join(dir, p.renamedGraph))).name, "disk", "kept");
    const forced = await post();
    equal(forced.status, 200);
    const { digest } = await forced.json();
    equal((await (await fetch(`${url}api/graph?path=${p.renamedGraph}`)).json()).digest, digest);
  });
});
