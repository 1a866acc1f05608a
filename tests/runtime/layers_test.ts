/** The layout holds: the core imports nothing outside itself, node families keep to their own files, files stay small. */
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

/** The family a node file belongs to: its category, and for decoders the format (`decode/dson`). */
function familyOf(path: string): string {
  const [, category, sub] = path.split("/");
  return category === "decode" && sub && !sub.endsWith(".ts") ? `decode/${sub}` : category;
}

Deno.test("no node imports another family's internals (only the core and its own folder)", async () => {
  const offending: string[] = [];
  for (const file of await tsFiles("nodes")) {
    if (file === "nodes/mod.ts") continue; // the built-in list imports every plug-in by design
    for (const target of await importsOf(file)) {
      if (target.startsWith("runtime/")) continue;
      if (!target.startsWith("nodes/") || familyOf(target) !== familyOf(file)) {
        offending.push(`${file} → ${target}`);
      }
    }
  }
  assertEquals(offending, []);
});

Deno.test("core and CLI files stay small (under 400 lines)", async () => {
  const long: string[] = [];
  for (const file of ["mod.ts", ...await tsFiles("runtime"), ...await tsFiles("cli")]) {
    const lines = (await Deno.readTextFile(resolve(repo, file))).split("\n").length;
    if (lines > 400) long.push(`${file}: ${lines} lines`);
  }
  assertEquals(long, []);
});
