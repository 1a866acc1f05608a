/**
 * Held-out measurement of two studio trips, through the server as the page uses it: graphs as users
 * write them (an exporter named or left at its default, an `io.write` into a subfolder or none, odd
 * graph file names) run and their `glb` output downloaded — counting names that are not the file the
 * graph writes, the exporter's own name, or the graph's name; and JSON files previewed (graph files
 * with and without `version` or `description`, a glTF saved as .json, a rig report, a package.json) —
 * counting graphs not said to be graphs and other files wrongly called graphs.
 * `deno run --frozen --unstable-bundle -A tests/studio/small_trips_bench.ts FIRST LAST`
 */
import { basename, join } from "node:path";
import { startStudio } from "../../studio/server.ts";
import { tempDir } from "../support/temp.ts";

const [first, last] = Deno.args.map(Number);
const dir = await tempDir({ prefix: "small-trips-bench-" });
await Deno.mkdir(join(dir, "graphs"));
const studio = await startStudio({
  port: 0,
  roots: [dir],
  outDir: join(dir, "out"),
  cacheDir: join(dir, "cache"),
});
const rand = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
let downloads = 0, wrongNames = 0, previews = 0, graphsMissed = 0, falseGraphs = 0;
for (let seed = first; seed <= last; seed++) {
  const r = rand(seed);
  const graphName = pick(r, ["plane", "MiG-29 final", "build_v2", "my rig", "export"]) + `_${seed}`;
  const exportName = pick(r, [undefined, undefined, "scene", "Cessna 172", "out"]);
  const write = r() < 0.6
    ? pick(r, ["", "exports/", "deep/er/"]) + pick(r, ["plane", "final", "a b"]) + `_${seed}.glb`
    : undefined;
  const graph = {
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter" },
      export: {
        type: "export.gltf",
        inputs: { scene: "fighter.scene" },
        ...exportName ? { params: { name: exportName } } : {},
      },
      ...write
        ? { write: { type: "io.write", inputs: { bytes: "export.bytes" }, params: { path: write } } }
        : {},
    },
    outputs: { glb: "export.bytes" },
  };
  const path = join(dir, "graphs", `${graphName}.json`);
  await Deno.writeTextFile(path, JSON.stringify(graph));
  const ran = await fetch(`${studio.url}api/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path, graph }),
  });
  const stream = await ran.text();
  if (!stream.includes('"ok":true')) throw new Error(`seed ${seed}: run failed: ${stream.slice(-400)}`);
  const got = await fetch(`${studio.url}api/output?name=glb`);
  await got.body?.cancel();
  const name = /filename="([^"]*)"/.exec(got.headers.get("content-disposition") ?? "")?.[1];
  const expected = write
    ? basename(write)
    : exportName && exportName !== "scene"
    ? `${exportName}.glb`
    : `${graphName}.glb`;
  downloads++;
  if (name !== expected.replace(/[^\x20-\x7e]|["\\]/g, "_")) {
    wrongNames++;
    console.log(`seed ${seed}: downloads as ${name}, expected ${expected}`);
  }
  // A JSON file previewed: a graph (as users keep them) or another JSON.
  const kind = pick(r, ["graph", "graph-bare", "graph-described", "gltf", "report", "package"]);
  const json = kind === "graph"
    ? graph
    : kind === "graph-bare"
    ? { nodes: graph.nodes }
    : kind === "graph-described"
    ? { description: "my build", ...graph }
    : kind === "gltf"
    ? { asset: { version: "2.0" }, nodes: [{ name: "Wing" }], scenes: [{ nodes: [0] }] }
    : kind === "report"
    ? { parts: [{ name: "Aileron.L", kind: "aileron" }], nodes: { count: 3 } }
    : { name: "x", version: "1.0.0", dependencies: {} };
  const file = join(dir, `${kind}_${seed}.json`);
  await Deno.writeTextFile(file, JSON.stringify(json));
  const shown = await fetch(`${studio.url}api/model?path=${encodeURIComponent(file)}`);
  const said = shown.ok ? "" : ((await shown.json()) as { error: string }).error;
  if (shown.ok) await shown.body?.cancel();
  previews++;
  const isGraph = kind.startsWith("graph");
  const saidGraph = said.includes("is a graph file");
  if (isGraph && !saidGraph) {
    graphsMissed++;
    console.log(`seed ${seed}: ${kind} previewed: ${said.slice(0, 120)}`);
  }
  if (!isGraph && saidGraph) {
    falseGraphs++;
    console.log(`seed ${seed}: ${kind} called a graph`);
  }
}
await studio.close();
console.log(
  `${downloads} downloads, ${wrongNames} not named as the graph writes or names it; ` +
    `${previews} JSON previews, ${graphsMissed} graphs not said to be graphs, ${falseGraphs} other files called graphs`,
);
