/**
 * A fresh batch worker loads what a run needs while it prepares, before its first input's time limit
 * starts: the modules the built-in nodes import on first use (io.read's .gltf bundler and the glTF
 * reader behind it), not only each node's `lazyRun` module. Before, the first input of every worker
 * loaded them inside its limit, 2.3–4.1 s at load 30 against 0.3–1.0 s for its later inputs.
 *
 * The proof loads nothing by clock: a worker process that may read partgraph's files only until its
 * first input starts. A module loaded after that fails the input, naming the file it could not read.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../support/temp.ts";
import { pluginGraph } from "../support/hostile_graph.ts";

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
const [repo, graph, outDir, ...inputs] = Deno.args;
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
      graph, inputs: {}, each: { name: "model", type: "string", path }, outDir: outDir + "/" + id,
      cacheDir: false, noCache: false, refresh: false, events: false,
    } });
  });
  console.log(JSON.stringify([result.ok, result.error?.message ?? null]));
}
`;

Deno.test("batch worker: its first input loads no module (all loaded while the worker prepared)", async () => {
  const dir = await tempDir();
  const graph = await sizeGraph(dir);
  const script = join(dir, "serve.ts");
  await Deno.writeTextFile(script, SERVE);
  const inputs = ["b.bin", "a.bin"].map((name) => join(dir, "in", name));
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${join(REPO, "deno.json")}`,
      `--allow-read=${REPO},${dir}`,
      `--allow-write=${dir}`,
      script,
      REPO,
      graph,
      join(dir, "out"),
      ...inputs,
    ],
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder();
  assertEquals(code, 0, text.decode(stderr));
  const results = text.decode(stdout).trim().split("\n").map((line) => JSON.parse(line));
  assertEquals(results, [[true, null], [true, null]]);
  assertEquals(await Deno.readTextFile(join(dir, "out", "0", "size.json")), "5");
});
