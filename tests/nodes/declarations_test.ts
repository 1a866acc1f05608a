/**
 * Node declarations load without their run code: the module graph Deno builds when the built-in
 * plug-ins load (what `partgraph nodes`, `check`, `schema` and the catalogue load) holds no npm
 * package and no Node built-in — glTF-Transform, gl-matrix, codecs' libraries, `node:crypto` and
 * Node's compatibility layer (which `node:path` alone starts) load only when a node runs. Deno
 * follows a written-out `import("…")` at start-up as it follows a static import, so both count;
 * run code is reached through `lazyRun(new URL(…))` and `importOnUse`, which it does not follow.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../", import.meta.url));

interface ModuleInfo {
  specifier: string;
  kind?: string;
  dependencies?: { code?: { specifier: string } }[];
}

/** Every module Deno loads or analyses when a file loads (static and written-out dynamic imports). */
async function startupGraph(file: string): Promise<string[]> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", file],
    cwd: repo,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(code === 0, new TextDecoder().decode(stderr));
  const info = JSON.parse(new TextDecoder().decode(stdout));
  const modules = new Map<string, ModuleInfo>(info.modules.map((m: ModuleInfo) => [m.specifier, m]));
  const redirects: Record<string, string> = info.redirects ?? {};
  const seen = new Set<string>();
  const stack = [...info.roots as string[]];
  while (stack.length) {
    const next = stack.pop()!;
    const specifier = redirects[next] ?? next;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      if (dep.code) stack.push(dep.code.specifier);
    }
  }
  return [...seen].sort();
}

/** What each entry may load before a node runs: `check` validates paths, so Node's `node:path` is allowed there. */
const ENTRIES = [
  { file: "nodes/mod.ts", declares: true, nodeBuiltins: false },
  { file: "cli/catalogue.ts", declares: true, nodeBuiltins: false }, // `nodes`, `schema`
  { file: "cli/main.ts", declares: false, nodeBuiltins: false }, // loads the command's module when asked for
  { file: "cli/check.ts", declares: true, nodeBuiltins: true },
];

for (const { file, declares, nodeBuiltins } of ENTRIES) {
  Deno.test(`${file} loads no npm package${nodeBuiltins ? "" : " and no Node built-in"} before a node runs`, async () => {
    const graph = await startupGraph(file);
    assertEquals(graph.some((s) => s.endsWith("/nodes/rig/fit_hinge.ts")), declares, "the declarations");
    const allowed = (s: string) => s.startsWith("file:") || (nodeBuiltins && s.startsWith("node:"));
    assertEquals(graph.filter((s) => !allowed(s)), []);
    assertEquals(graph.filter((s) => /\/nodes\/.*_run\.ts$/.test(s)), [], "no implementation module");
  });
}

/** Every `.ts` file under a folder of the repository. */
async function tsFiles(folder: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(`${repo}${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) out.push(...await tsFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

Deno.test("every importOnUse is typed as the module it imports", async () => {
  const mismatched: string[] = [];
  let calls = 0;
  for (const file of [...await tsFiles("nodes"), ...await tsFiles("cli"), ...await tsFiles("runtime")]) {
    const text = await Deno.readTextFile(`${repo}${file}`);
    for (
      const [call, typed, imported] of text.matchAll(/importOnUse<typeof import\("([^"]+)"\)>\(\s*"([^"]+)"/g)
    ) {
      calls++;
      if (typed !== imported) mismatched.push(`${file}: ${call}`);
    }
  }
  assert(calls > 20, `found ${calls} calls`);
  assertEquals(mismatched, []);
});
