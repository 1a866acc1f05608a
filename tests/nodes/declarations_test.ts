/**
 * Node declarations load without their run code: the static module graph of the built-in plug-ins
 * (what `partgraph nodes`, `check`, `schema` and the catalogue load) holds no npm package and no
 * Node built-in — glTF-Transform, gl-matrix, codecs' libraries, `node:crypto` and Node's
 * compatibility layer (which `node:path` alone starts) load only when a node runs.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../", import.meta.url));

interface ModuleInfo {
  specifier: string;
  kind?: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** Every module a file loads before it runs (static imports only, followed transitively). */
async function staticGraph(file: string): Promise<string[]> {
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
      if (dep.code && !dep.isDynamic) stack.push(dep.code.specifier);
    }
  }
  return [...seen].sort();
}

for (const file of ["nodes/mod.ts", "cli/catalogue.ts", "cli/main.ts"]) {
  Deno.test(`${file} loads no npm package and no Node built-in before a node runs`, async () => {
    const graph = await staticGraph(file);
    const declares = file !== "cli/main.ts"; // the CLI's entry loads a command's module when it is asked for
    assert(
      graph.some((s) => s.endsWith("/nodes/rig/fit_hinge.ts")) === declares,
      "the declarations are in the graph",
    );
    assertEquals(graph.filter((s) => !s.startsWith("file:")), []);
    assertEquals(graph.filter((s) => /\/nodes\/.*_run\.ts$/.test(s)), [], "no implementation module");
  });
}
