import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { EXIT } from "../../cli/main.ts";
import { cli } from "../support/cli.ts";
import { createRegistry } from "../../mod.ts";
import { corpusFile } from "../support/corpus.ts";
import { copyGraphFile } from "../support/test_nodes.ts";
import { tempDir } from "../support/temp.ts";
import { basisuQuadGlb, uastcKtx2 } from "../support/ktx2.ts";

Deno.test("run writes outputs, reports NDJSON events, and a second run is all cached", async () => {
  const dir = await tempDir();
  const { graph, src } = await copyGraphFile(dir);
  const args = [
    "run",
    graph,
    "--set",
    `src=${src}`,
    "--out",
    join(dir, "out"),
    "--cache-dir",
    join(dir, "c"),
    "--json",
  ];
  const first = await cli(...args);
  assertEquals(first.code, EXIT.ok, first.err);
  const events = first.out.split("\n").map((l) => JSON.parse(l));
  assert(events.some((e) => e.event === "node" && e.id === "read" && e.state === "done"));
  assertEquals(events.at(-1).event, "result");
  assertEquals(await Deno.readFile(join(dir, "out", "copy.bin")), await Deno.readFile(src));
  const second = await cli(...args);
  const result = JSON.parse(second.out.split("\n").at(-1)!);
  assertEquals([result.nodes, result.cached], [2, 2]);
});

Deno.test("run --no-cache hashes files only for what shows digests: --json reports real ones", async () => {
  const dir = await tempDir();
  const { graph, src } = await copyGraphFile(dir);
  const args = ["run", graph, "--set", `src=${src}`, "--out", join(dir, "out"), "--no-cache"];
  const json = await cli(...args, "--json");
  assertEquals(json.code, EXIT.ok, json.err);
  const { writes } = JSON.parse(json.out.split("\n").at(-1)!);
  const expected = new Uint8Array(await crypto.subtle.digest("SHA-256", await Deno.readFile(src))).toHex();
  assertEquals(writes, [{ path: "copy.bin", sha256: expected }]);
  const human = await cli(...args);
  assertEquals(human.code, EXIT.ok, human.err);
  assert(human.err.includes(`wrote ${join(dir, "out", "copy.bin")}`), human.err);
  assertEquals(await Deno.readFile(join(dir, "out", "copy.bin")), await Deno.readFile(src));
});

Deno.test("--set of a quoted string on a string input gets a hint that the quotes are part of it", async () => {
  const dir = await tempDir();
  const { graph, src } = await copyGraphFile(dir);
  const quoted = await cli("check", graph, "--set", `src="${src}"`);
  assert(quoted.err.includes(`hint: --set src: a string input takes the text as it is`), quoted.err);
  assert(quoted.err.includes(`without them: --set src=${src}`), quoted.err);
  const plain = await cli("check", graph, "--set", `src=${src}`);
  assert(!plain.err.includes("hint:"), plain.err);
});

Deno.test("manifest and verify: a build verifies, and a changed input is caught", async () => {
  const dir = await tempDir();
  const { graph, src } = await copyGraphFile(dir);
  const manifest = join(dir, "build.manifest.json");
  const run = await cli(
    "run",
    graph,
    "--set",
    `src=${src}`,
    "--out",
    join(dir, "out"),
    "--no-cache",
    "--quiet",
    "--manifest",
    manifest,
  );
  assertEquals(run.code, EXIT.ok, run.err);
  const recorded = JSON.parse(await Deno.readTextFile(manifest));
  assertEquals(Object.keys(recorded.writes), ["copy.bin"]);
  assert(Object.values(recorded.reads).every((d) => typeof d === "string" && d.length === 64));
  assert(recorded.tools.partgraph && recorded.tools["@gltf-transform/core"]);
  // Manifests record paths relative to where the build ran; an absolute graph path verifies from
  // anywhere. (No Deno.chdir here: the working folder is shared by test modules run in parallel.)
  const absolute = { ...recorded, graph: { ...recorded.graph, file: graph } };
  await Deno.writeTextFile(manifest, JSON.stringify(absolute));
  const ok = await cli("verify", manifest, "--json");
  assertEquals(ok.code, EXIT.ok, ok.out + ok.err);
  await Deno.writeFile(src, new Uint8Array([1, 2, 3]));
  const bad = await cli("verify", manifest, "--json");
  assertEquals(bad.code, EXIT.failed);
  const what = JSON.parse(bad.out).differences.map((d: { what: string }) => d.what);
  assert(what.includes("writes.copy.bin"), what.join(", "));
});

Deno.test("verify refuses what is not a build manifest with a usage error naming the file and field", async () => {
  const dir = await tempDir();
  const { graph } = await copyGraphFile(dir);
  const notJson = join(dir, "notes.txt");
  await Deno.writeTextFile(notJson, "# not a manifest\n");
  const noGraph = join(dir, "partial.json");
  await Deno.writeTextFile(noGraph, JSON.stringify({ manifest: 1, tools: {}, graph: { digest: "x" } }));
  const cases: [string, string][] = [
    [graph, "this is a graph file"],
    [notJson, "is not valid JSON"],
    [noGraph, "graph.file: expected a path"],
    [join(dir, "missing.json"), "cannot read manifest"],
  ];
  for (const [file, says] of cases) {
    const res = await cli("verify", file, "--out", join(dir, "out"));
    assertEquals(res.code, EXIT.usage, `${file}: ${res.err}`);
    assert(res.err.includes(says) && res.err.includes(file), res.err);
  }
});

Deno.test("check exits 3 with every problem, --json gives machine-readable issues", async () => {
  const dir = await tempDir();
  const graph = join(dir, "bad.json");
  await Deno.writeTextFile(
    graph,
    JSON.stringify({ version: 1, nodes: { a: { type: "io.raed" }, b: { type: "io.write" } } }),
  );
  const res = await cli("check", graph, "--json");
  assertEquals(res.code, EXIT.invalidGraph);
  const issues = JSON.parse(res.out).issues.map((i: { kind: string; path: string }) => `${i.kind} ${i.path}`)
    .sort();
  assertEquals(issues, [
    "missing_param /nodes/b/params",
    "missing_socket /nodes/b/inputs",
    "unknown_node_type /nodes/a/type",
  ]);
});

Deno.test("usage errors exit 2; unknown --set names are refused with the inputs listed", async () => {
  assertEquals((await cli("frobnicate")).code, EXIT.usage);
  assertEquals((await cli("run")).code, EXIT.usage);
  const dir = await tempDir();
  const { graph } = await copyGraphFile(dir);
  const res = await cli("run", graph, "--set", "nope=1");
  assertEquals(res.code, EXIT.usage);
  assert(res.err.includes("inputs: src, name"), res.err);
  assert(res.err.includes("usage:"), "a mistake in the arguments comes with the usage text");
  // A mistake in what the arguments name (a file that is not a manifest) is the message alone.
  const notManifest = await cli("verify", graph);
  assertEquals(notManifest.code, EXIT.usage);
  assert(
    notManifest.err.startsWith("error: ") && notManifest.err.includes("is not a build or batch manifest"),
  );
  assert(!notManifest.err.includes("usage:"), notManifest.err);
});

Deno.test("a misspelt command, option or --set name gets a did-you-mean", async () => {
  assert((await cli("runn")).err.includes("unknown command 'runn' (did you mean 'run'?)"));
  assert(
    (await cli("nodes", "--markdwon")).err.includes(
      "Unknown option '--markdwon' (did you mean '--markdown'?)",
    ),
  );
  const dir = await tempDir();
  const { graph } = await copyGraphFile(dir);
  const res = await cli("run", graph, "--set", "nmae=x");
  assert(res.err.includes("has no input 'nmae' (did you mean 'name'?)"), res.err);
  // Nothing close: no guess.
  assert(!(await cli("frobnicate")).err.includes("did you mean"));
});

Deno.test("nodes lists every registered node from its declaration", async () => {
  const res = await cli("nodes", "--json");
  const listed = JSON.parse(res.out).map((n: { type: string }) => n.type);
  assertEquals(listed, createRegistry().list().map((n) => n.type));
  const text = await cli("nodes");
  for (const node of createRegistry().list()) assert(text.out.includes(`${node.type} (v${node.version})`));
});

Deno.test("inspect describes a model, and names the problem in an undecodable file (exit 4)", async () => {
  const dir = await tempDir();
  const junk = join(dir, "junk.glb");
  await Deno.writeFile(junk, new TextEncoder().encode("glTF not really"));
  const res = await cli("inspect", junk, "--json");
  assertEquals(res.code, EXIT.badInput);
  const error = JSON.parse(res.out).error;
  assertEquals(error.kind, "decode");
  assert(typeof error.message === "string" && error.message.includes("junk.glb"));
});

Deno.test("inspect lists the extensions a file uses (required marked) and its textures' type and size", async () => {
  const dir = await tempDir();
  const quad = join(dir, "painted.glb");
  await Deno.writeFile(quad, await basisuQuadGlb(uastcKtx2(16, 8, () => [10, 200, 10])));
  const text = await cli("inspect", quad);
  assertEquals(text.code, EXIT.ok, text.err);
  assert(text.out.includes("extensions: KHR_texture_basisu (required)\n"), text.out);
  assert(/texture "paint" image\/ktx2 16×8, 0\.\d KiB\n/.test(text.out), text.out);
  const json = JSON.parse((await cli("inspect", quad, "--json")).out);
  assertEquals(json.extensions, [{ name: "KHR_texture_basisu", required: true }]);
  assertEquals(json.textures, [{
    name: "paint",
    mimeType: "image/ktx2",
    bytes: 160 + 8 * 16,
    size: [16, 8],
  }]);
});

Deno.test("cache stats, prune and clear work on a cache folder", async () => {
  const dir = await tempDir();
  const { graph, src } = await copyGraphFile(dir);
  const cache = join(dir, "c");
  await cli("run", graph, "--set", `src=${src}`, "--out", join(dir, "out"), "--cache-dir", cache, "--quiet");
  const stats = JSON.parse((await cli("cache", "stats", "--cache-dir", cache, "--json")).out);
  // The read's output is the input file's bytes: the record refers to the file, no blob copies it.
  assert(stats.actions === 2 && stats.blobs === 0 && stats.files === 1, JSON.stringify(stats));
  await Deno.remove(src); // its remembered digest can never be trusted again
  const pruned = JSON.parse(
    (await cli("cache", "prune", "--cache-dir", cache, "--max-size", "0", "--json")).out,
  );
  assertEquals([pruned.actions, pruned.files], [2, 1]);
  assertEquals((await cli("cache", "clear", "--cache-dir", cache)).code, EXIT.ok);
  assertEquals((await cli("cache", "vacuum", "--cache-dir", cache)).code, EXIT.usage);
});

Deno.test({
  name: "inspect adds the format's own summary: a DSON figure's bones and unresolved references",
  ignore: !corpusFile("dson/game_engine_mouth_geograft.duf"),
  async fn() {
    const res = await cli("inspect", corpusFile("dson/game_engine_mouth_geograft.duf")!, "--json");
    assertEquals(res.code, EXIT.ok, res.err);
    const report = JSON.parse(res.out);
    assertEquals(report.summary.bones.length, 41);
    assert(report.summary.unresolved.length > 0 && report.warnings.length > 0);
    assertEquals(report.source.format, "dson");
  },
});

Deno.test({
  name: "inspect describes a Freelancer model's parts, and prints its tree",
  ignore: !corpusFile("freelancer/librelancer_monkey.3db"),
  async fn() {
    const res = await cli("inspect", corpusFile("freelancer/librelancer_monkey.3db")!);
    assertEquals(res.code, EXIT.ok, res.err);
    assert(res.out.includes('└─ Root  mesh "Root.mesh" [1 prim, 1966 verts, 968 tris]'), res.out);
    assert(res.out.includes("cmp summary:"), res.out);
  },
});

Deno.test("a bytes graph input is given a file's contents with --set name=path", async () => {
  const dir = await tempDir();
  const src = join(dir, "blob.bin");
  await Deno.writeFile(src, new Uint8Array([7, 8, 9]));
  const graph = join(dir, "bytes.json");
  await Deno.writeTextFile(
    graph,
    JSON.stringify({
      version: 1,
      inputs: { data: { type: "bytes" } },
      nodes: {
        write: { type: "io.write", inputs: { bytes: { $input: "data" } }, params: { path: "same.bin" } },
      },
    }),
  );
  const res = await cli(
    "run",
    graph,
    "--set",
    `data=${src}`,
    "--out",
    join(dir, "out"),
    "--no-cache",
    "--quiet",
  );
  assertEquals(res.code, EXIT.ok, res.err);
  assertEquals(await Deno.readFile(join(dir, "out", "same.bin")), new Uint8Array([7, 8, 9]));
});
