/**
 * The page bundles the studio's tests keep in the temp folder do not pile up: one no run has used for
 * an hour is removed when a new one is made, the one in use and any used lately (by another
 * checkout's run, maybe) stay, and nothing else in the folder is touched.
 */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { removeUnused } from "./page_bundle.ts";
import { tempDir } from "../support/temp.ts";

const HOUR = 60 * 60 * 1000;

Deno.test("page bundle: bundles unused for an hour and killed halves go, the rest stay", async () => {
  const folder = await tempDir({ prefix: "studio-page-bundles-" });
  const now = Date.now();
  // name → how long ago it was last used (ms)
  const files: Record<string, number> = {
    "partgraph-studio-page-aaaa.js": 0, // the one in use
    "partgraph-studio-page-bbbb.js": 3 * HOUR, // an edit ago
    "partgraph-studio-page-cccc.js": 10 * 60 * 1000, // another checkout's run, lately
    "partgraph-studio-page-dddd.js.1234.part": 2 * HOUR, // a killed run's half
    "partgraph-studio-page-eeee.js": 48 * HOUR, // the kept one's twin, days old
    "someone-else.js": 48 * HOUR, // not ours
  };
  for (const [name, ago] of Object.entries(files)) {
    await Deno.writeTextFile(join(folder, name), name);
    const at = new Date(now - ago);
    await Deno.utime(join(folder, name), at, at);
  }
  const kept = join(folder, "partgraph-studio-page-eeee.js");
  const removed = await removeUnused(kept, folder, now);
  deepEqual(removed.map((f) => f.slice(folder.length + 1)).sort(), [
    "partgraph-studio-page-bbbb.js",
    "partgraph-studio-page-dddd.js.1234.part",
  ]);
  const left = [...Deno.readDirSync(folder)].map((e) => e.name).sort();
  deepEqual(left, [
    "partgraph-studio-page-aaaa.js",
    "partgraph-studio-page-cccc.js",
    "partgraph-studio-page-eeee.js",
    "someone-else.js",
  ]);
});
