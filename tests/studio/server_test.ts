/**
 * The studio server without a browser: the sandbox refuses paths that escape, check reports what
 * `checkGraph` reports, save writes the stable format atomically and only .json files, the run stream
 * ends with the outputs, the graph's `ui` field never changes a cache key, only the preview's
 * decoders are served under `/decoders/`, and the page's script is served with the preview (three.js)
 * in a chunk of its own, revalidated by its ETag.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { checkGraph, type GraphFile, runGraph } from "../../mod.ts";
import { startStudio } from "../../studio/server.ts";
import { sharedPage } from "./page_bundle.ts";
import { formatGraph } from "../../studio/format.ts";
import { withStudioOn } from "./server_helpers.ts";
import { tempDir } from "../support/temp.ts";
import { readGltf } from "../../runtime/scene/gltf_io.ts";
import { writeGameTree } from "../nodes/decode/freelancer/game_tree.ts";
import { dsonBytes, libraryFigure, sceneReferencing } from "../nodes/decode/dson/generate.ts";

const SMALL: GraphFile = {
  version: 1,
  nodes: {
    fighter: { type: "demo.fighter", params: { detail: 1 } },
    export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
  },
  outputs: { glb: "export.bytes" },
};

async function withStudio(fn: (url: string, dir: string) => Promise<void>): Promise<void> {
  const dir = await tempDir({ prefix: "studio-server-" });
  try {
    await withStudioOn(dir, (url) => fn(url, dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

Deno.test("studio server: paths outside the project and the given folders are refused", async () => {
  await withStudio(async (url, dir) => {
    for (const path of ["../../etc/passwd", "/etc/passwd", join(dir, "..", "elsewhere.json")]) {
      const response = await fetch(`${url}api/file?path=${encodeURIComponent(path)}`);
      equal(response.status, 403, path);
      assert((await response.json()).error.includes("outside the allowed folders"));
    }
    await Deno.symlink("/etc", join(dir, "link"));
    equal(
      (await fetch(`${url}api/file?path=${encodeURIComponent(join(dir, "link", "hostname"))}`)).status,
      403,
    );
    const inside = await fetch(`${url}api/file?path=graphs/aircraft.json`);
    equal(inside.status, 200);
    deepEqual(await inside.json(), JSON.parse(await Deno.readTextFile("graphs/aircraft.json")));
  });
});

Deno.test("studio server: the page's script leaves the preview to a chunk, and a reload gets 304", async () => {
  await withStudio(async (url) => {
    const app = await fetch(`${url}app.js`);
    equal(app.status, 200);
    const tag = app.headers.get("etag");
    assert(tag, "app.js has an ETag");
    equal(app.headers.get("cache-control"), "no-cache");
    const text = await app.text();
    // three.js is not in the script every page open parses: only in what the first preview imports.
    assert(!text.includes("WebGLRenderer"), "app.js holds three.js's renderer");
    const imported = [...text.matchAll(/(?:from |import\()"\.\/([\w-]+\.js)"/g)].map((m) => m[1]);
    const preview = imported.filter((name) => name.startsWith("preview-"));
    equal(preview.length, 1, `one preview chunk among ${imported.join(", ")}`);
    for (const name of new Set(imported)) {
      const chunk = await fetch(`${url}${name}`);
      equal(chunk.status, 200, name);
      equal(chunk.headers.get("content-type"), "text/javascript; charset=utf-8", name);
      equal(chunk.headers.get("cache-control"), "public, max-age=31536000, immutable", name);
      const body = await chunk.text();
      if (name === preview[0]) assert(body.includes("WebGLRenderer"), `${name} holds the renderer`);
    }
    const again = await fetch(`${url}app.js`, { headers: { "if-none-match": tag } });
    equal(again.status, 304);
    equal(await again.text(), "");
    const other = await fetch(`${url}app.js`, { headers: { "if-none-match": '"0-0"' } });
    equal(other.status, 200);
    equal((await other.text()).length, text.length);
    for (const path of ["chunk-.js", "preview.js", "__proto__", "app.js/"]) {
      const response = await fetch(`${url}${path}`);
      equal(response.status, 404, path);
      await response.body?.cancel();
    }
  });
});

Deno.test("studio server: every file the page loads is kept by the browser or revalidated to a 304", async () => {
  await withStudio(async (url) => {
    // What a page load and a first preview fetch: the page, what it links, what app.js imports, and
    // the decoders three.js's loaders ask for.
    const html = await (await fetch(url)).text();
    const linked = [...html.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1]);
    const app = await (await fetch(`${url}app.js`)).text();
    const chunks = [...app.matchAll(/(?:from |import\()"\.\/([\w-]+\.js)"/g)].map((m) => m[1]);
    // The decoders, under the path index.html names for the preview's loaders.
    const decoderPath = html.match(/<meta name="decoders" content="\/([^"]*)" \/>/)?.[1];
    assert(decoderPath, "index.html names the decoders' path");
    const decoders = [
      "basis_transcoder.js",
      "basis_transcoder.wasm",
      "draco_wasm_wrapper.js",
      "draco_decoder.wasm",
    ]
      .map((name) => `${decoderPath}${name}`);
    const assets = [...new Set(["", ...linked, ...chunks, ...decoders])];
    assert(
      linked.includes("style.css") && linked.includes("app.js"),
      `index.html links ${linked.join(", ")}`,
    );
    const unkept: string[] = [], kept: string[] = [];
    for (const path of assets) {
      const first = await fetch(`${url}${path}`);
      equal(first.status, 200, path);
      const body = new Uint8Array(await first.arrayBuffer());
      const control = first.headers.get("cache-control") ?? "";
      const tag = first.headers.get("etag");
      // A HEAD gets the GET's status and headers, and no body.
      const head = await fetch(`${url}${path}`, { method: "HEAD" });
      equal(head.status, 200, `HEAD ${path}`);
      for (const header of ["content-type", "etag", "cache-control"]) {
        equal(head.headers.get(header), first.headers.get(header), `HEAD ${path}: ${header}`);
      }
      equal(head.headers.get("content-length"), String(body.length), `HEAD ${path}: content-length`);
      equal((await head.arrayBuffer()).byteLength, 0, `HEAD ${path}: no body`);
      if (/\bimmutable\b/.test(control)) {
        // Kept as it is only under a name that carries a digest of it: a new build names it anew.
        assert(
          /-[0-9A-Z]{8}\.js$/i.test(path) || /^decoders\/[0-9a-f]{8}\/[\w.]+$/.test(path),
          `${path} is immutable without a digest in its name`,
        );
        kept.push(path);
        continue;
      }
      if (!/\bno-cache\b/.test(control) || !tag) {
        unkept.push(`${path || "/"} (cache-control '${control}', etag ${tag})`);
        continue;
      }
      // The second request, as a reload sends it: 304 with no body, the same validator.
      const again = await fetch(`${url}${path}`, { headers: { "if-none-match": `W/${tag}, "other"` } });
      equal(again.status, 304, path);
      equal((await again.arrayBuffer()).byteLength, 0, path);
      equal(again.headers.get("etag"), tag, path);
      const changed = await fetch(`${url}${path}`, { headers: { "if-none-match": '"0-0"' } });
      equal(changed.status, 200, path);
      equal((await changed.arrayBuffer()).byteLength, body.length, path);
    }
    deepEqual(unkept, [], "files served with neither an immutable name nor a validator");
    // The decoders change only with three.js: kept by the browser, not revalidated on each load.
    deepEqual(kept.filter((path) => path.startsWith("decoders/")), decoders, "decoders kept as they are");
    // A HEAD of a path not served is 404, as its GET.
    equal((await fetch(`${url}nothing.js`, { method: "HEAD" })).status, 404);
  });
});

Deno.test("studio server: the preview's decoders are served by name, nothing else under /decoders/", async () => {
  await withStudio(async (url) => {
    for (const name of ["basis_transcoder.wasm", "draco_decoder.wasm"]) {
      const response = await fetch(`${url}decoders/${name}`);
      equal(response.headers.get("content-type"), "application/wasm", name);
      deepEqual(
        [...new Uint8Array(await response.arrayBuffer()).subarray(0, 4)],
        [0, 0x61, 0x73, 0x6d],
        name,
      );
    }
    for (const name of ["basis_transcoder.js", "draco_wasm_wrapper.js"]) {
      const response = await fetch(`${url}decoders/${name}`);
      equal(response.headers.get("content-type"), "text/javascript", name);
      assert((await response.text()).length > 10_000, name);
    }
    for (const name of ["__proto__", "constructor", "..%2fserver.ts", "draco_decoder.js", ""]) {
      const response = await fetch(`${url}decoders/${name}`);
      equal(response.status, 404, name);
      await response.body?.cancel();
    }
    // Under the digest path the same bytes; under another digest (a page of an older three) nothing.
    const html = await (await fetch(url)).text();
    const path = html.match(/<meta name="decoders" content="\/(decoders\/[0-9a-f]{8}\/)" \/>/)?.[1];
    assert(path, "index.html names the decoders' digest path");
    const byName = new Uint8Array(await (await fetch(`${url}decoders/draco_decoder.wasm`)).arrayBuffer());
    const kept = new Uint8Array(await (await fetch(`${url}${path}draco_decoder.wasm`)).arrayBuffer());
    deepEqual(kept, byName);
    for (const wrong of ["decoders/00000000/draco_decoder.wasm", `${path}__proto__`, `${path}`]) {
      const response = await fetch(`${url}${wrong}`);
      equal(response.status, 404, wrong);
      await response.body?.cancel();
    }
  });
});

/** A preview's GLB and its warnings, as the page gets them. */
async function preview(url: string, path: string) {
  const response = await fetch(`${url}api/model?path=${encodeURIComponent(path)}`);
  equal(response.status, 200, path);
  const warnings: string[] = JSON.parse(decodeURIComponent(response.headers.get("x-partgraph-warnings")!));
  equal(Number(response.headers.get("x-partgraph-warning-count")), warnings.length);
  return { doc: await readGltf(new Uint8Array(await response.arrayBuffer())), warnings };
}

Deno.test("studio server: a previewed model finds its Freelancer libraries and Daz content as the tools do", async () => {
  const tree = await writeGameTree();
  const studio = await startStudio({
    port: 0,
    roots: [tree.base],
    cacheDir: false,
    page: (await sharedPage()).files,
  });
  try {
    // The fighter's materials are in the family .mat beside its folder, its texture two levels up.
    const fighter = await preview(studio.url, tree.fighter);
    const paint = fighter.doc.getRoot().listMaterials().find((m) => m.getName() === "rh_paint");
    assert(paint?.getBaseColorTexture(), `rh_paint textured; warnings: ${fighter.warnings.join("; ")}`);
    assert(!fighter.warnings.some((w) => w.includes("placeholder")), fighter.warnings.join("; "));

    // A scene in a Daz library instances a figure from the library's data folder.
    const library = join(tree.base, "My Library");
    await Deno.mkdir(join(library, "data", "Gen"), { recursive: true });
    await Deno.mkdir(join(library, "Scenes"));
    await Deno.writeFile(join(library, "data", "Gen", "Figure.dsf"), dsonBytes(libraryFigure()));
    const scene = join(library, "Scenes", "user.duf");
    await Deno.writeFile(scene, dsonBytes(sceneReferencing("/data/Gen/Figure.dsf")));
    const figure = await preview(studio.url, scene);
    deepEqual(figure.warnings, []);
    const names = figure.doc.getRoot().listNodes().map((n) => n.getName());
    for (const bone of ["gen_figure_bone0", "gen_figure_bone1", "gen_figure_bone2"]) {
      assert(names.includes(bone), `${bone} in ${names.join(", ")}`);
    }
    equal(figure.doc.getRoot().listSkins().length, 1);
  } finally {
    await studio.close();
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("studio server: requests another site makes the browser send are refused", async () => {
  await withStudio(async (url, dir) => {
    const body = JSON.stringify({ path: join(dir, "x.json"), graph: SMALL });
    const form = await fetch(`${url}api/save`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body,
    });
    equal(form.status, 403);
    await form.body?.cancel();
    const foreign = await fetch(`${url}api/save`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://evil.example" },
      body,
    });
    equal(foreign.status, 403);
    await foreign.body?.cancel();
    // fetch() will not send another Host header, so a DNS-rebound request is written by hand.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(url).port) });
    await conn.write(
      new TextEncoder().encode("GET /api/graphs HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"),
    );
    const reply = new Uint8Array(256);
    const n = await conn.read(reply);
    conn.close();
    assert(
      new TextDecoder().decode(reply.subarray(0, n ?? 0)).startsWith("HTTP/1.1 403"),
      "rebound host refused",
    );
    await Deno.stat(join(dir, "x.json")).then(() => assert(false, "a refused save wrote the file"), () => {});
  });
});

Deno.test("studio server: check reports exactly what checkGraph reports", async () => {
  await withStudio(async (url, dir) => {
    const bad = {
      version: 1,
      nodes: {
        fighter: { type: "demo.fighter", params: { detail: 99 } },
        nope: { type: "no.such_node" },
        export: { type: "export.gltf", inputs: { scene: "fighter.bytes" } },
      },
    };
    const path = join(dir, "bad.json");
    const { issues } = await (await post(`${url}api/check`, { path, graph: bad })).json();
    await Deno.writeTextFile(path, JSON.stringify(bad));
    const expected = await checkGraph(path);
    assert(expected.length >= 3, JSON.stringify(expected));
    deepEqual(
      issues.map((i: { path: string; kind: string }) => [i.path, i.kind]),
      expected.map((i) => [i.path, i.kind]),
    );
  });
});

Deno.test("studio server: a custom node module outside the sandbox is refused, never loaded", async () => {
  await withStudio(async (url, dir) => {
    const graph = { ...SMALL, modules: ["../../../../tmp/evil.ts"] };
    const { issues } = await (await post(`${url}api/check`, { path: join(dir, "g.json"), graph })).json();
    equal(issues.length, 1);
    equal(issues[0].path, "/modules/0");
    assert(issues[0].message.includes("outside the allowed folders"));
    // The same module named by a node group inside the sandbox: refused too, at the group's own path.
    const group = join(dir, "group.json");
    await Deno.writeTextFile(group, JSON.stringify({ ...SMALL, modules: ["../../../../tmp/evil.ts"] }));
    const outer = { version: 1, nodes: { g: { type: "graph", graph: "group.json" } } };
    const nested =
      (await (await post(`${url}api/check`, { path: join(dir, "outer.json"), graph: outer })).json()).issues;
    deepEqual(nested.map((i: { path: string; file: string }) => [i.path, i.file]), [["/modules/0", group]]);
    const outside = { version: 1, nodes: { g: { type: "graph", graph: "/etc/group.json" } } };
    const refused =
      (await (await post(`${url}api/check`, { path: join(dir, "o.json"), graph: outside })).json()).issues;
    deepEqual(refused.map((i: { path: string }) => i.path), ["/nodes/g/graph"]);
  });
});

Deno.test("studio server: a graph cannot read a file outside the sandbox through a run", async () => {
  await withStudio(async (url, dir) => {
    const graph = {
      version: 1,
      inputs: { file: { type: "string", default: "/etc/hostname" } },
      nodes: { read: { type: "io.read", params: { path: { $input: "file" } } } },
      outputs: { bytes: "read.bytes" },
    };
    const path = join(dir, "g.json");
    const { issues } = await (await post(`${url}api/check`, { path, graph })).json();
    deepEqual(issues.map((i: { path: string; kind: string }) => [i.path, i.kind]), [[
      "/nodes/read/params/path",
      "bad_param",
    ]]);
    const stream = await (await post(`${url}api/run`, { path, graph })).text();
    assert(!stream.includes("event: node"), "nothing ran");
    assert(stream.includes('"ok":false') && stream.includes("outside the allowed folders"), stream);
    equal((await fetch(`${url}api/output?name=bytes`)).status, 404);
  });
});

Deno.test("studio server: a read path outside the sandbox is reported beside the graph's other issues", async () => {
  await withStudio(async (url, dir) => {
    // The group reads what its input says; the outer graph gives it /etc/passwd.
    await Deno.writeTextFile(
      join(dir, "reader.json"),
      JSON.stringify({
        version: 1,
        inputs: { file: { type: "string" } },
        nodes: { read: { type: "io.read", params: { path: { $input: "file" } } } },
        outputs: { bytes: "read.bytes" },
      }),
    );
    const graph = {
      version: 1,
      inputs: { file: { type: "string", default: "/etc/passwd" } },
      nodes: {
        read: { type: "io.read", params: { path: { $input: "file" } } },
        literal: { type: "io.read", params: { path: { $literal: "/etc/hostname" } } },
        inside: { type: "io.read", params: { path: "reader.json" } },
        group: { type: "graph", graph: "reader.json", params: { file: "/etc/passwd" } },
        nope: { type: "no.such_node" },
        fighter: { type: "demo.fighter", params: { detail: 99 } },
      },
      outputs: { bytes: "read.bytes" },
    };
    const path = join(dir, "g.json");
    const { issues } = await (await post(`${url}api/check`, { path, graph })).json();
    await Deno.writeTextFile(path, JSON.stringify(graph));
    const validator = (await checkGraph(path)).map((i) => [i.path, i.kind]);
    assert(validator.length >= 2, JSON.stringify(validator));
    deepEqual(issues.map((i: { path: string; kind: string }) => [i.path, i.kind]), [
      ...validator,
      ["/nodes/read/params/path", "bad_param"],
      ["/nodes/literal/params/path", "bad_param"],
      ["/nodes/group", "bad_param"],
    ]);
    assert(issues.at(-1).message.startsWith("group/read: path '/etc/passwd' refused"), issues.at(-1).message);
    const stream = await (await post(`${url}api/run`, { path, graph })).text();
    assert(!stream.includes("event: node"), "nothing ran");
    assert(stream.includes('"ok":false') && stream.includes("outside the allowed folders"), stream);
  });
});

Deno.test("studio server: save writes the stable format, only .json, only inside the sandbox", async () => {
  await withStudio(async (url, dir) => {
    const path = join(dir, "saved.json");
    const graph = { ...SMALL, ui: { nodes: { fighter: [0, 0], export: [260, 0] } } };
    equal((await post(`${url}api/save`, { path, graph })).status, 200);
    const text = await Deno.readTextFile(path);
    equal(text, formatGraph(graph));
    deepEqual(JSON.parse(text), graph);
    equal((await post(`${url}api/save`, { path: join(dir, "evil.ts"), graph })).status, 400);
    equal((await post(`${url}api/save`, { path: "/tmp/../etc/x.json", graph })).status, 403);
  });
});

Deno.test("format: a changed parameter changes only its own line; the text parses back unchanged", () => {
  const graph = JSON.parse(Deno.readTextFileSync("graphs/aircraft.json"));
  const text = formatGraph(graph);
  deepEqual(JSON.parse(text), graph);
  equal(formatGraph(JSON.parse(text)), text);
  graph.nodes.export.params.name = "renamed";
  const changed = formatGraph(graph).split("\n");
  const before = text.split("\n");
  equal(changed.length, before.length);
  deepEqual(changed.map((line, i) => line !== before[i] ? i : -1).filter((i) => i >= 0).length, 1);
});

Deno.test("studio server: a run streams its plan, node events and ends with the outputs", async () => {
  await withStudio(async (url, dir) => {
    // `spare` feeds nothing the run needs: it is not in the plan, and never runs.
    const graph = { ...SMALL, nodes: { ...SMALL.nodes, spare: { type: "demo.fighter" } } };
    const response = await post(`${url}api/run`, { path: join(dir, "g.json"), graph });
    equal(response.headers.get("content-type"), "text/event-stream");
    const events = (await response.text()).trim().split("\n\n").map((block) => ({
      event: /^event: (.*)$/m.exec(block)![1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)![1]),
    }));
    deepEqual(
      events[0],
      { event: "plan", data: { nodes: ["fighter", "export"], groups: [], files: [] } },
      "upstream first",
    );
    const done = events.filter((e) => e.event === "node" && e.data.state === "done").map((e) => e.data.id);
    deepEqual(done.sort(), ["export", "fighter"]);
    deepEqual(events.filter((e) => e.data.id === "spare"), []);
    const end = events.at(-1)!;
    equal(end.event, "end");
    equal(end.data.ok, true);
    deepEqual(end.data.outputs.map((o: { name: string }) => o.name), ["glb"]);
    const glb = new Uint8Array(await (await fetch(`${url}api/output?name=glb`)).arrayBuffer());
    equal(glb.length, end.data.outputs[0].size);
    equal(new TextDecoder().decode(glb.slice(0, 4)), "glTF");
  });
});

Deno.test("the graph's ui field is ignored by the runtime and never enters a cache key", async () => {
  const cacheDir = await tempDir({ prefix: "studio-ui-cache-" });
  try {
    const states: string[] = [];
    const plain = await runGraph(SMALL, { cacheDir, outDir: cacheDir });
    const withUi = await runGraph({ ...SMALL, ui: { nodes: { fighter: [10, 20] }, outputs: [1, 2] } }, {
      cacheDir,
      outDir: cacheDir,
      onEvent: (e) => e.event === "node" && states.push(e.state),
    });
    deepEqual(states, ["cached", "cached"]);
    deepEqual(
      (withUi.outputs.glb as { bytes: Uint8Array }).bytes,
      (plain.outputs.glb as { bytes: Uint8Array }).bytes,
    );
    deepEqual(await checkGraph({ ...SMALL, ui: { anything: true } }), []);
    equal((await checkGraph({ ...SMALL, ui: [] as unknown as Record<string, never> }))[0].path, "/ui");
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("studio server: a graph's own module nodes come with it, described like the catalogue's", async () => {
  await withStudio(async (url, dir) => {
    const runtime = new URL("../../runtime/mod.ts", import.meta.url).href;
    await Deno.writeTextFile(
      join(dir, "halve.ts"),
      `import { defineNode } from "${runtime}";
export default { nodes: [defineNode({
  type: "qa.halve", version: 1, doc: "Halves a number.",
  inputs: { value: { type: "number", doc: "In." } },
  outputs: { value: { type: "number", doc: "Half." } },
  params: { times: { type: "number", default: 1, min: 0, doc: "How often." } },
  run: ({ inputs }) => ({ value: inputs.value / 2 }),
})] };
`,
    );
    const graph = join(dir, "custom.json");
    await Deno.writeTextFile(graph, JSON.stringify({ version: 1, modules: ["./halve.ts"], nodes: {} }));
    const opened = await (await fetch(`${url}api/graph?path=${encodeURIComponent(graph)}`)).json();
    deepEqual(opened.nodes.map((n: { type: string }) => n.type), ["qa.halve"]);
    deepEqual(Object.keys(opened.nodes[0].inputs), ["value"]);
    equal(opened.nodes[0].params.times.min, 0);
    // A graph without modules has none; one whose module lies outside the folders loads nothing.
    deepEqual((await (await fetch(`${url}api/graph?path=graphs/aircraft.json`)).json()).nodes, []);
    await Deno.writeTextFile(graph, JSON.stringify({ version: 1, modules: ["/etc/x.ts"], nodes: {} }));
    deepEqual((await (await fetch(`${url}api/graph?path=${encodeURIComponent(graph)}`)).json()).nodes, []);
  });
});

Deno.test("studio server: a file the editor cannot draw is refused with each JSON path; a flawed graph opens", async () => {
  await withStudio(async (url, dir) => {
    const open = async (name: string, graph: unknown) => {
      await Deno.writeTextFile(join(dir, name), JSON.stringify(graph));
      const response = await fetch(`${url}api/graph?path=${encodeURIComponent(join(dir, name))}`);
      return { status: response.status, body: await response.json() };
    };
    const refused = (name: string, problems: string) => ({
      status: 422,
      body: { error: `cannot draw '${join(dir, name)}' as a graph (fix it in a text editor): ${problems}` },
    });
    deepEqual(await open("list.json", [1, 2]), refused("list.json", "/: a graph must be a JSON object"));
    deepEqual(
      await open("bare.json", { version: 1 }),
      refused("bare.json", "/nodes: expected an object of nodes by id"),
    );
    deepEqual(
      await open("shapes.json", {
        version: 1,
        nodes: { "a/b": "demo.fighter", c: { type: "demo.fighter", params: [1], inputs: { s: 5 } } },
        outputs: { x: 5 },
        ui: { nodes: { c: [0] } },
      }),
      refused(
        "shapes.json",
        [
          "/nodes/a~1b: expected a node object",
          "/nodes/c/params: expected an object of parameters",
          `/nodes/c/inputs/s: expected a link "node.socket" or {"$input": name}`,
          `/outputs/x: expected a link "node.socket", found 5`,
          "/ui/nodes/c: expected a position [x, y]",
        ].join("; "),
      ),
    );
    // What the editor can draw opens, flaws and all: the live check marks them.
    const flawed = await open("flawed.json", {
      version: 1,
      extra: true,
      nodes: { a: { type: "no.such" }, g: { type: "graph", graph: "missing.json" } },
      outputs: { x: "a.out" },
    });
    equal(flawed.status, 200);
    deepEqual(Object.keys(flawed.body.graph.nodes), ["a", "g"]);
  });
});

Deno.test("format: an array goes on one line when it fits, a module list and a position in ui too", () => {
  const graph = {
    version: 1,
    modules: ["./report_bounds.ts"],
    nodes: { a: { type: "demo.fighter" } },
    ui: { nodes: { a: [20, 40] }, inputs: [-33, 208], outputs: [727, 208] },
  };
  const text = formatGraph(graph);
  deepEqual(text.split("\n"), [
    "{",
    '  "version": 1,',
    '  "modules": ["./report_bounds.ts"],',
    '  "nodes": {',
    '    "a": {',
    '      "type": "demo.fighter"',
    "    }",
    "  },",
    '  "ui": {',
    '    "nodes": {',
    '      "a": [20, 40]',
    "    },",
    '    "inputs": [-33, 208],',
    '    "outputs": [727, 208]',
    "  }",
    "}",
    "",
  ]);
  deepEqual(JSON.parse(text), graph);
  // One too long for a line still breaks, one entry per line.
  const long = formatGraph({ version: 1, modules: Array.from({ length: 12 }, (_, i) => `./module_${i}.ts`) });
  equal(long.split("\n").length, 18, "{, version, modules: [, 12 modules, ], }, and the end of file");
});

Deno.test("studio server: /api/users finds the graphs that run a group file, and those it cannot draw", async () => {
  await withStudio(async (url, dir) => {
    const sub = join(dir, "sub");
    await Deno.mkdir(join(sub, "inner"), { recursive: true });
    const write = (name: string, value: unknown) =>
      Deno.writeTextFile(join(sub, name), typeof value === "string" ? value : JSON.stringify(value));
    await write("inner/group.json", { version: 1, nodes: {} });
    await write("a.json", { version: 1, nodes: { g: { type: "graph", graph: "inner/group.json" } } });
    await write("inner/b.json", {
      version: 1,
      nodes: { g: { type: "graph", graph: "group.json", inputs: 5 } },
    });
    await write("inner/c.json", "{ not json");
    await write("inner/d.json", { version: 1, nodes: { g: { type: "graph", graph: "other.json" } } });
    await write("inner/e.json", { version: 1, nodes: { g: { type: "graph", graph: "./group.json" } } });
    // Dependencies and dot-folders are not graphs: not walked.
    for (const skipped of ["node_modules/pkg", ".hidden"]) {
      await Deno.mkdir(join(sub, skipped), { recursive: true });
      await write(`${skipped}/f.json`, {
        version: 1,
        nodes: { g: { type: "graph", graph: "../../inner/group.json" } },
      });
    }
    const users = async (path: string) => {
      const response = await fetch(`${url}api/users?path=${encodeURIComponent(path)}`);
      return { status: response.status, body: await response.json() };
    };
    // Every folder the studio may open is looked in (sub/a.json is above the group's folder); the
    // project's folders too, and out/ inside the root is walked with it.
    const { body, status } = await users(join(sub, "inner", "group.json"));
    equal(status, 200);
    deepEqual(body.users, [join(sub, "a.json"), join(sub, "inner", "e.json")]);
    deepEqual(body.unopenable, [join(sub, "inner", "b.json")]);
    deepEqual(body.searched, [".", await Deno.realPath(dir)]);
    // The project is this checkout, whose out/ may hold more scratch files than the walk's budget:
    // then the walk is not complete, but the budget is shared, so the root was searched to its end
    // (its users above are found) and only the checkout's folders are named unfinished.
    const root = await Deno.realPath(dir);
    if (!body.complete) {
      assert(body.unfinished.length > 0, "an incomplete walk names where it stopped");
      deepEqual(body.unfinished.filter((folder: string) => folder.startsWith(root)), []);
    }
    // The project's graphs/ holds 7 graph files; under the root: a.json, b–e.json and nothing else.
    assert(body.files >= 7 + 4, `${body.files} .json files read`);
    equal((await users("/etc/hostname")).status, 403);
  });
});
