/**
 * A fresh batch worker loads what a run needs while it prepares, before its first input's time limit
 * starts: the modules the built-in nodes import on first use (io.read's .gltf bundler and the glTF
 * reader behind it), not only each node's `lazyRun` module. Before, the first input of every worker
 * loaded them inside its limit, 2.3–4.1 s at load 30 against 0.3–1.0 s for its later inputs.
 *
 * The proof loads nothing by clock: a worker process that may read partgraph's files only until its
 * first input starts. A module loaded after that fails the input, naming the file it could not read.
 * Besides a plug-in's lazily loaded run, every ready-made graph is run so on the models it is made
 * for: before, export.gltf, constraints.resolve, export.json, the Freelancer and Carnivores resolvers
 * and the decoders decode.auto picks loaded their modules on their first run, inside the limit.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../support/temp.ts";
import { pluginGraph } from "../support/hostile_graph.ts";
import { GRAPH_CASES, graphPath, missingCorpus } from "../support/graph_runs.ts";
import { CORPUS_DIR } from "../support/corpus.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
const RUNTIME = new URL("../../runtime/mod.ts", import.meta.url).href;
const JOB = new URL("../../batch/job.ts", import.meta.url).href;

/** A graph io.read → `test.size` (its run module loaded lazily) → io.write; its inputs a.bin and b.bin. */
async function sizeGraph(dir: string): Promise<string> {
  await Deno.writeTextFile(
    join(dir, "size_run.ts"),
    `export const run = ({ inputs }) => ({ size: { bytes: new TextEncoder().encode(String(inputs.data.bytes.length)), name: "size.json" } });\n`,
  );
  await Deno.writeTextFile(
    join(dir, "size.ts"),
    `import { defineNode, lazyRun } from ${JSON.stringify(RUNTIME)};
export default { nodes: [defineNode({
  type: "test.size", version: 1, doc: "Its input's size.", params: {},
  inputs: { data: { type: "bytes", doc: "Anything." } },
  outputs: { size: { type: "bytes", doc: "Its size, as JSON." } },
  run: lazyRun(new URL("./size_run.ts", import.meta.url)),
})] };
`,
  );
  return await pluginGraph(dir, "size", { "a.bin": [0, 0, 0], "b.bin": [0, 0, 0, 0, 0] });
}

/**
 * A worker's job loop over `inputs` in a process of its own, which gives up reading partgraph's files
 * when the first input starts (the `started` message); each input's result as `[ok, error]`.
 */
const SERVE = `import { jobServer } from ${JSON.stringify(JOB)};
const [repo, graph, outDir, setJson, ...inputs] = Deno.args;
let fresh = true;
for (const [id, path] of inputs.entries()) {
  const result = await new Promise((done) => {
    const serve = jobServer((message) => {
      if (message.kind === "started" && fresh) {
        fresh = false;
        Deno.permissions.revokeSync({ name: "read", path: repo });
      }
      if (message.kind === "done") done(message.result);
    });
    serve({ id, spec: {
      graph, inputs: JSON.parse(setJson), each: { name: "model", type: "string", path }, outDir: outDir + "/" + id,
      cacheDir: false, noCache: false, refresh: false, events: false,
    } });
  });
  console.log(JSON.stringify([result.ok, result.error?.message ?? null]));
}
`;

Deno.test("batch worker: its first input loads no module (all loaded while the worker prepared)", async () => {
  const dir = await tempDir();
  const graph = await sizeGraph(dir);
  const inputs = ["b.bin", "a.bin"].map((name) => join(dir, "in", name));
  assertEquals(await servedWithoutReads(dir, graph, {}, inputs), [[true, null], [true, null]]);
  assertEquals(await Deno.readTextFile(join(dir, "out", "0", "size.json")), "5");
});

/**
 * The `--allow-read` list for `paths` and, for those that are links (a `../shared` linked to the
 * corpus elsewhere), where they lead: a read of a linked file is checked against its real path.
 */
function readable(...paths: string[]): string {
  const real = paths.map((path) => {
    try {
      return Deno.realPathSync(path);
    } catch {
      return path; // absent (no corpus): nothing to read there
    }
  });
  return [...new Set([...paths, ...real])].join(",");
}

/**
 * Runs `inputs` through `graph` (with `set` for its other inputs) in a worker process that loses read
 * access to partgraph's files once its first input starts; each input's `[ok, error]`.
 */
async function servedWithoutReads(
  dir: string,
  graph: string,
  set: Record<string, unknown>,
  inputs: readonly string[],
): Promise<[boolean, string | null][]> {
  const script = join(dir, "serve.ts");
  await Deno.writeTextFile(script, SERVE);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${join(REPO, "deno.json")}`,
      `--allow-read=${readable(REPO, dir, CORPUS_DIR)}`,
      `--allow-write=${dir}`,
      script,
      REPO,
      graph,
      join(dir, "out"),
      JSON.stringify(set),
      ...inputs,
    ],
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder();
  assertEquals(code, 0, text.decode(stderr));
  return text.decode(stdout).trim().split("\n").map((line) => JSON.parse(line));
}

// Every ready-made graph on the models it is made for (as graph_runs.ts lists them, a graph's models
// in one batch, so a Carnivores tree mixes .3df and .car), plus two retail-shaped compounds for the
// Freelancer graph: no node of theirs may load a module once the worker's first input has started —
// export.gltf, constraints.resolve, the resolvers, export.json and the decoders decode.auto picks
// included. Models from the shared corpus are left out when it is absent.
const BY_GRAPH = Map.groupBy(GRAPH_CASES.filter((c) => c.model), (c) => c.graph);
for (const [graph, cases] of BY_GRAPH) {
  Deno.test(`batch worker: ${graph}'s first input loads no module`, async () => {
    const dir = await tempDir();
    const inputs: string[] = [];
    for (const { model } of cases.filter((c) => !missingCorpus(c))) { // corpusFile names what is missing
      if (model?.corpus) inputs.push(CORPUS_DIR + model.corpus);
      else if (model?.bytes) {
        inputs.push(join(dir, model.name));
        await Deno.writeFile(join(dir, model.name), model.bytes());
      }
    }
    if (graph === "freelancer.json") {
      for (const seed of [4101, 4102]) {
        const path = join(dir, `retail${seed}.cmp`);
        await Deno.writeFile(path, realisticCmp(seed, { parts: 8, maxGroupVertices: 600 }));
        inputs.push(path);
      }
    }
    if (!inputs.length) return;
    const set = Object.assign({}, ...cases.map((c) => c.inputs ?? {}));
    // Each run reads its graph file (and its subgraphs): copies outside partgraph's files stay readable.
    await Deno.mkdir(join(dir, "graphs"));
    for await (const { name } of Deno.readDir(dirname(graphPath(graph)))) {
      await Deno.copyFile(graphPath(name), join(dir, "graphs", name));
    }
    const results = await servedWithoutReads(dir, join(dir, "graphs", graph), set, inputs);
    assertEquals(results, inputs.map(() => [true, null]), `inputs: ${inputs.join(", ")}`);
  });
}
