/**
 * What a hostile user does to a running studio over HTTP, on a {@link hostileProject}: read its
 * secrets, reach it as `LOCALHOST`, check and save huge, looping, renamed and Unicode graphs, save
 * one graph from two tabs or over a file changed on disk, preview a model of hundreds of megabytes.
 * Each case says whether the studio answered right, and when not, whether it did so silently (a 200
 * that leaks a file or loses an edit — the worst outcome).
 *
 * @module
 */
import type { HostileProject } from "./hostile_project.ts";

/** One case's outcome. */
export interface Outcome {
  readonly name: string;
  /** The studio did not do what it should. */
  readonly wrong: boolean;
  /** Wrong and answered as if all were well (HTTP 200). */
  readonly silent: boolean;
  readonly detail: string;
}

/**
 * How long a check may go unanswered before it counts as hung. Generous on purpose: this tells a
 * hang from an answer, never a slow answer from a quick one (the host may be loaded).
 */
const HANG_MS = 120_000;

const post = (url: string, body: unknown, headers: Record<string, string> = {}, timeout = 60_000) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeout),
  });

/** A JSON answer's fields, as far as the cases read them. */
// deno-lint-ignore no-explicit-any
type Json = any;

async function answer(response: Response): Promise<{ status: number; text: string; json?: Json }> {
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: response.status, text, json };
}

/** The status of `GET /api/catalogue` sent with the Host header `host` (fetch sets its own). */
async function statusWithHost(url: string, host: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(url).port) });
  try {
    await conn.write(new TextEncoder().encode(`GET /api/catalogue HTTP/1.1\r\nHost: ${host}\r\n\r\n`));
    const reply = new Uint8Array(64);
    const n = await conn.read(reply);
    return Number(new TextDecoder().decode(reply.subarray(0, n ?? 0)).split(" ")[1]);
  } finally {
    conn.close();
  }
}

/** Runs every case against the studio at `url` serving `project`, which `p` was written into. */
export async function hostileCases(url: string, project: string, p: HostileProject): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const note = (name: string, wrong: boolean, status: number, detail: string) =>
    out.push({ name, wrong, silent: wrong && status === 200, detail });
  const api = (route: string, path: string) => fetch(`${url}api/${route}?path=${encodeURIComponent(path)}`);

  for (const secret of p.secrets) {
    for (const route of ["file", "graph", "model"]) {
      const a = await answer(await api(route, secret));
      // Refused, naming the rule; never the file's content (nor a JSON parser's quote of it).
      const leaked = a.status === 200 || /BEGIN KEY|API_KEY|\[remote|"name":|"tasks"/.test(a.text);
      note(`read ${secret} via /api/${route}`, leaked || a.status < 400, a.status, a.text.slice(0, 160));
    }
  }

  const port = new URL(url).port;
  for (const host of [`LOCALHOST:${port}`, `LocalHost:${port}`, `127.0.0.1:${port}`]) {
    const status = await statusWithHost(url, host);
    note(`Host ${host} served`, status !== 200, status, String(status));
  }
  for (const host of [`EVIL.example:${port}`, `LOCALHOST.evil.example:${port}`, `localhost:${port}.`]) {
    const status = await statusWithHost(url, host);
    note(`Host ${host} refused`, status !== 403, status, String(status));
  }

  const checked = async (
    name: string,
    path: string,
    expect: (issues: { kind: string; message: string }[]) => boolean,
  ) => {
    const graph = JSON.parse(await (await api("file", path)).text().catch(() => "null"));
    const started = performance.now();
    // A check that does not answer in time is a hang, however it would end.
    const a = await post(`${url}api/check`, { path, graph }, {}, HANG_MS).then(answer).catch(() => ({
      status: 0,
      text: "no answer",
      json: undefined,
    }));
    const ms = performance.now() - started;
    const issues = a.json?.issues ?? [];
    const wrong = a.status !== 200 || !expect(issues);
    note(name, wrong, a.status, `${a.status} ${Math.round(ms)} ms, ${issues.length} issues`);
  };
  await checked(`check ${p.bigNodes}-node graph`, p.bigGraph, () => true);
  await checked("check a cycle", p.cycleGraph, (issues) => issues.some((i) => i.kind === "cycle"));
  await checked(
    `check renamed type ${p.renamedType}`,
    p.renamedGraph,
    (issues) => issues.some((i) => i.message.includes(p.renamedType)),
  );
  await checked(`check Unicode graph (${p.longParam}-char param)`, p.unicodeGraph, () => true);
  await checked(
    `check a ${p.longParam}-char read path`,
    p.longPathGraph,
    (issues) => issues.some((i) => i.kind === "bad_param" && i.message.length < 1_000),
  );

  // Open, save, open again: the Unicode graph (a megabyte of text) comes back as it was.
  const opened = (await answer(await api("graph", p.unicodeGraph))).json;
  const resaved = await answer(
    await post(`${url}api/save`, {
      path: p.unicodeGraph,
      graph: opened?.graph,
      base: opened?.digest,
    }),
  );
  const back = (await answer(await api("graph", p.unicodeGraph))).json;
  note(
    "Unicode graph round trip",
    resaved.status !== 200 || JSON.stringify(back?.graph) !== JSON.stringify(opened?.graph),
    resaved.status,
    `${resaved.status}`,
  );

  // Two tabs open the graph, both edit, both save: the second must not silently replace the first.
  const tab = (await answer(await api("graph", p.renamedGraph))).json;
  const edit = (label: string) => ({ ...tab.graph, description: label });
  await post(`${url}api/save`, { path: p.renamedGraph, graph: edit("tab one"), base: tab.digest });
  const second = await answer(
    await post(`${url}api/save`, { path: p.renamedGraph, graph: edit("tab two"), base: tab.digest }),
  );
  note("second tab saving over the first", second.status !== 409, second.status, second.text.slice(0, 160));

  // The file changed on disk (a text editor, git pull) while open: save says so.
  const open = (await answer(await api("graph", p.cycleGraph))).json;
  const onDisk = { ...open.graph, description: "edited in a text editor" };
  await Deno.writeTextFile(`${project}/${p.cycleGraph}`, JSON.stringify(onDisk));
  const over = await answer(
    await post(`${url}api/save`, { path: p.cycleGraph, graph: open.graph, base: open.digest }),
  );
  note("save over a file changed on disk", over.status !== 409, over.status, over.text.slice(0, 160));

  // A model of hundreds of MB: a clear refusal, not a download the tab chokes on (its answer is small).
  const started = performance.now();
  const big = await api("model", p.bigModel);
  const size = Number(big.headers.get("content-length") ?? 0);
  await big.body?.cancel();
  const ms = performance.now() - started;
  note(
    `preview ${Math.round(p.bigModelBytes / 2 ** 20)} MB model`,
    big.status !== 413 || size > 64 * 1024,
    big.status,
    `${big.status} ${size} bytes ${Math.round(ms)} ms`,
  );
  return out;
}
