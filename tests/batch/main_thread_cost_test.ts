/**
 * Work a batch does around its inputs, counted: what the batch's main thread loads before its first
 * worker can start, and what a pool member reads again for every input. On two cores a second job
 * pays for both out of the workers' time (issue #14's two-job ratio).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jobServer, type JobSpec, type WorkerMessage } from "../../batch/job.ts";
import { RunningBoard } from "../../batch/running_board.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";
import { TOOL_VERSIONS } from "../../runtime/version.ts";
import { VERSION as GLTF_TRANSFORM_VERSION } from "@gltf-transform/core";

const FREELANCER = fileURLToPath(new URL("../../graphs/freelancer.json", import.meta.url));

Deno.test("batch: the command's main thread imports no node:fs (loading Node's stream modules held up the first worker 50-70 ms)", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fileURLToPath(new URL("../../cli/batch.ts", import.meta.url))],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const { modules } = JSON.parse(new TextDecoder().decode(stdout)) as { modules: { specifier: string }[] };
  const nodeFs = modules.map((m) => m.specifier).filter((s) => s === "node:fs" || s === "node:fs/promises");
  assertEquals(nodeFs, []);
});

/**
 * The modules `root` loads when it runs: its static imports, followed from `deno info` through the
 * imports that are code (not `import type`) and not dynamic. npm packages are counted as one each.
 */
async function loadedModules(root: string): Promise<Set<string>> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fileURLToPath(new URL(root, import.meta.url))],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    redirects?: Record<string, string>;
    modules: {
      specifier: string;
      error?: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const redirect = (s: string) => info.redirects?.[s] ?? s;
  const top = bySpecifier.get(redirect(info.roots[0]));
  assertEquals(top !== undefined && top.error === undefined, true, `${root}: ${top?.error ?? "not found"}`);
  const seen = new Set<string>();
  const stack = [redirect(info.roots[0])];
  while (stack.length) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) stack.push(redirect(dep.code.specifier));
    }
  }
  return seen;
}

Deno.test("batch: the command's main thread loads the node declarations to validate the graph, not the runtime that runs it", async () => {
  const batch = await loadedModules("../../cli/batch.ts");
  const declarations = await loadedModules("../../nodes/mod.ts");
  const own = [...batch].filter((s) => !declarations.has(s));
  const root = new URL("../../", import.meta.url).href;
  const named = (s: string) => s.replace(root, "");
  // glTF-Transform, the executor and the job runner are the workers' (they load them themselves);
  // the main thread loaded them all through job.ts's and the version record's imports.
  const workersOnly = own.filter((s) =>
    s.startsWith("npm:") || /\/(mod|runtime\/executor|runtime\/mod|batch\/job)\.ts$/.test(s)
  ).map(named);
  assertEquals(workersOnly, []);
  // What is left: the batch, the CLI's shared options, validation, manifests (48 when this was written;
  // 164 with glTF-Transform before, 132 of them besides the declarations).
  assertEquals(
    own.length <= 60,
    true,
    `${own.length} modules besides the declarations: ${own.map(named).join(" ")}`,
  );
});

Deno.test("verify: reading the manifest loads neither the run's runtime nor the batch's (each is imported for its kind)", async () => {
  const root = new URL("../../", import.meta.url).href;
  const loaded = [...await loadedModules("../../cli/verify.ts")].map((s) => s.replace(root, ""));
  assertEquals(
    loaded.filter((s) =>
      s.startsWith("npm:") || /^(mod|runtime\/executor|nodes\/mod|cli\/run|cli\/batch)\.ts$/.test(s)
    ),
    [],
  );
});

Deno.test("version record: glTF-Transform's pinned version is the one the library says it is", () => {
  assertEquals(`v${TOOL_VERSIONS["@gltf-transform/core"]}`, GLTF_TRANSFORM_VERSION); // it says "v4.5.1"
});

Deno.test("batch worker: its jobs read the graph file once between them, not once per input", async () => {
  const dir = await tempDir();
  const specs: JobSpec[] = [];
  for (const seed of [6101, 6203, 6307]) {
    const path = join(dir, `ship${seed}.cmp`);
    // Small compounds of the retail shape: what is counted is the graph's reading, not their work.
    await Deno.writeFile(path, realisticCmp(seed, { parts: 3 + seed % 4, maxGroupVertices: 120 }));
    specs.push({
      graph: FREELANCER,
      inputs: {},
      each: { name: "model", type: "string", path },
      outDir: join(dir, `out${seed}`),
      cacheDir: false,
      noCache: true,
      refresh: false,
      events: false,
    });
  }
  const reads: string[] = [];
  const readTextFile = Deno.readTextFile;
  Deno.readTextFile = (path, options) => {
    reads.push(String(path));
    return readTextFile(path, options);
  };
  const results: unknown[] = [];
  try {
    let done!: () => void;
    const serve = jobServer((message: WorkerMessage) => {
      if (message.kind === "done") {
        results.push((message.result as { ok: boolean }).ok);
        done();
      }
    });
    const board = new RunningBoard();
    for (const [id, spec] of specs.entries()) {
      await new Promise<void>((resolve) => {
        done = resolve;
        serve({ id, spec, board: board.buffer });
      });
    }
  } finally {
    Deno.readTextFile = readTextFile;
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals(results, [true, true, true]);
  // Once to load its code before the first input, once for the runs (was: once more per input).
  assertEquals(reads.filter((path) => path === FREELANCER).length, 2);
});
