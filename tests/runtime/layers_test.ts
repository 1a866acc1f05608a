/** The core stands alone: nothing under runtime/ imports a built-in node. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { dirname, relative, resolve } from "node:path";

const repo = fileURLToPath(new URL("../../", import.meta.url));

/** Repository-relative paths of every `.ts` file under a folder. */
async function tsFiles(folder: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(resolve(repo, folder))) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) out.push(...await tsFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** Relative imports (static and dynamic) of a file, resolved to repository-relative paths. */
async function importsOf(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(resolve(repo, file));
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]);
  return specs.map((spec) => relative(repo, resolve(repo, dirname(file), spec)));
}

Deno.test("no file under runtime/ imports from nodes/ (or anything outside the core but deno.json)", async () => {
  const offending: string[] = [];
  for (const file of await tsFiles("runtime")) {
    for (const target of await importsOf(file)) {
      if (!target.startsWith("runtime/") && target !== "deno.json") offending.push(`${file} → ${target}`);
    }
  }
  assertEquals(offending, []);
});
