/**
 * The studio's HTTP API as a process on the loopback (or a web page in the browser) can reach it:
 * save never writes into a hidden folder or over a JSON file that is not a graph (`deno.json`, a
 * schema), encoded and absolute paths stay in the sandbox, a body larger than the API reads is
 * refused before it is parsed (declared or streamed without a length), malformed JSON and a wrong
 * method get a clear error, a request with another site's Host or Origin changes nothing, and a run
 * output read from a file named in any script downloads under its name.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { studioIn } from "./project_studio.ts";
import { MAX_BODY_BYTES } from "../../studio/body.ts";
import { tempDir } from "../support/temp.ts";

const GRAPH = { version: 1, nodes: {}, outputs: {} };

/** A studio whose project is a fresh folder holding a `deno.json`, a schema and one graph. */
async function withProject(fn: (url: string, project: string) => Promise<void>): Promise<void> {
  const project = await tempDir({ prefix: "studio-hostile-" });
  await Deno.mkdir(join(project, "graphs"));
  await Deno.mkdir(join(project, "schema"));
  await Deno.writeTextFile(join(project, "deno.json"), '{"tasks":{}}\n');
  await Deno.writeTextFile(join(project, "schema", "graph.json"), '{"$schema":"x","type":"object"}\n');
  await Deno.writeTextFile(join(project, "graphs", "a.json"), JSON.stringify(GRAPH));
  // The studio takes its project from the working directory it starts in.
  const studio = await studioIn(project);
  try {
    await fn(studio.url, project);
  } finally {
    await studio.close();
    await Deno.remove(project, { recursive: true });
  }
}

const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

/** Status and JSON error of a response. */
async function answer(response: Response): Promise<[number, string]> {
  const text = await response.text();
  return [response.status, text.startsWith("{") ? JSON.parse(text).error ?? "" : text];
}

Deno.test("studio hostile API: save writes graph files only, never hidden folders or other JSON", async () => {
  await withProject(async (url, project) => {
    for (const file of ["deno.json", "schema/graph.json"]) {
      const before = await Deno.readTextFile(join(project, file));
      const [status, error] = await answer(
        await post(`${url}api/save`, JSON.stringify({ path: file, graph: GRAPH })),
      );
      equal(status, 403, file);
      assert(error.includes("is not a graph file"), error);
      equal(await Deno.readTextFile(join(project, file)), before, `${file} untouched`);
    }
    for (const file of [".git/config.json", "node_modules/x/package.json", ".partgraph-cache/x.json"]) {
      const [status, error] = await answer(
        await post(`${url}api/save`, JSON.stringify({ path: file, graph: GRAPH })),
      );
      equal(status, 403, file);
      assert(error.includes("save refused") && error.includes("inside"), error);
      await Deno.stat(join(project, file)).then(() => assert(false, `${file} written`), () => {});
    }
    // A graph file is still replaced, and a new one made; an encoded '..' is a folder's literal name.
    const graph = { ...GRAPH, name: "edited" };
    equal((await post(`${url}api/save`, JSON.stringify({ path: "graphs/a.json", graph }))).status, 200);
    equal(JSON.parse(await Deno.readTextFile(join(project, "graphs/a.json"))).name, "edited");
    equal((await post(`${url}api/save`, JSON.stringify({ path: "%2e%2e/b.json", graph }))).status, 200);
    await Deno.stat(join(project, "%2e%2e", "b.json"));
    for (const path of ["../escape.json", "/tmp/escape.json", "graphs/../../escape.json"]) {
      const [status, error] = await answer(await post(`${url}api/save`, JSON.stringify({ path, graph })));
      equal(status, 403, path);
      assert(error.includes("outside the allowed folders"), error);
    }
    await Deno.stat(join(project, "..", "escape.json")).then(() => assert(false, "escaped"), () => {});
  });
});

Deno.test("studio hostile API: huge bodies, malformed JSON and wrong methods get a clear error", async () => {
  await withProject(async (url) => {
    // Declared too large: refused from its Content-Length.
    const big = new Uint8Array(MAX_BODY_BYTES + 1).fill(0x20);
    big[0] = 0x7b;
    let [status, error] = await answer(await post(`${url}api/check`, big));
    equal(status, 413);
    assert(error.includes("larger than the studio reads"), error);
    // Streamed without a length: refused once past the limit, before it is all read.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 4 * MAX_BODY_BYTES) return controller.close();
        sent += 1 << 20;
        controller.enqueue(new Uint8Array(1 << 20).fill(0x20));
      },
    });
    [status, error] = await answer(await post(`${url}api/run`, stream));
    equal(status, 413);
    assert(sent < 4 * MAX_BODY_BYTES, `stopped reading at ${sent} bytes`);
    for (const body of ["{not json", "", "[1,2", "\u0000"]) {
      [status, error] = await answer(await post(`${url}api/save`, body));
      equal(status, 400, JSON.stringify(body));
      assert(error.startsWith("request is not valid JSON"), error);
    }
    for (const body of ["null", "[]", '{"path":"graphs/a.json"}', '{"path":5,"graph":{}}']) {
      [status] = await answer(await post(`${url}api/check`, body));
      assert(status === 400 || status === 403, `${body}: ${status}`);
    }
    const put = await fetch(`${url}api/save`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    equal(put.status, 405);
    equal(put.headers.get("allow"), "POST");
    deepEqual(await answer(put), [405, "/api/save takes POST, not PUT"]);
    [status] = await answer(await post(`${url}api/graph`, "{}"));
    equal(status, 405);
    [status] = await answer(await fetch(`${url}api/nothing`));
    equal(status, 404);
  });
});

/** A raw HTTP/1.1 request (fetch will not send another Host): the status line of the answer. */
async function raw(url: string, head: string, body = ""): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(url).port) });
  try {
    await conn.write(new TextEncoder().encode(`${head}\r\nConnection: close\r\n\r\n${body}`));
    const reply = new Uint8Array(512);
    const n = await conn.read(reply);
    return new TextDecoder().decode(reply.subarray(0, n ?? 0)).split("\r\n")[0];
  } finally {
    conn.close();
  }
}

Deno.test("studio hostile API: another site's Host or Origin is refused and writes nothing", async () => {
  await withProject(async (url, project) => {
    const port = new URL(url).port;
    const save = JSON.stringify({ path: "graphs/rebound.json", graph: GRAPH });
    for (const host of [`127.0.0.1.evil.example:${port}`, `evil.example:${port}`, "localhost", ""]) {
      const head = `POST /api/save HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${save.length}`;
      equal(await raw(url, head, save), "HTTP/1.1 403 Forbidden", host);
    }
    for (const origin of ["http://evil.example", "null", `http://localhost:${port}.evil.example`]) {
      equal((await post(`${url}api/save`, save, { origin })).status, 403, origin);
    }
    equal((await post(`${url}api/save`, save, { "content-type": "text/plain" })).status, 403);
    await Deno.stat(join(project, "graphs", "rebound.json")).then(() => assert(false, "written"), () => {});
    // The studio's own origin is served.
    equal((await post(`${url}api/save`, save, { origin: url.slice(0, -1) })).status, 200);
  });
});

Deno.test("studio hostile API: a run output from a file named in any script downloads under its name", async () => {
  await withProject(async (url, project) => {
    const name = 'модель "1" 飛行機.glb';
    await Deno.writeFile(join(project, name), new Uint8Array([1, 2, 3, 4]));
    const graph = {
      version: 1,
      nodes: { read: { type: "io.read", params: { path: join(project, name) } } },
      outputs: { bytes: "read.bytes" },
    };
    const events = await (await post(`${url}api/run`, JSON.stringify({ path: "graphs/a.json", graph })))
      .text();
    assert(events.includes('"ok":true'), events.slice(-300));
    const download = await fetch(`${url}api/output?name=bytes`);
    equal(download.status, 200);
    deepEqual([...new Uint8Array(await download.arrayBuffer())], [1, 2, 3, 4]);
    const disposition = download.headers.get("content-disposition")!;
    const exact = /filename\*=UTF-8''(\S+)/.exec(disposition)?.[1];
    equal(decodeURIComponent(exact ?? ""), name, disposition);
    assert(/filename="[\x20-\x7e]+"/.test(disposition), disposition);
  });
});
