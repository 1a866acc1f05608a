/**
 * Filters `deno doc --lint` output (read on stdin) for `deno task check`: every diagnostic fails
 * the check except `private-type-ref` errors about a type the referencing file imports from an npm
 * package (glTF-Transform's `Document`). Those are a known false positive of Deno's doc linter —
 * denoland/deno#27364, "private-type-ref should not be raised for type in other package", fixed
 * upstream after the Deno release this project pins.
 *
 * ```sh
 * deno doc --lint mod.ts |& deno run --allow-read scripts/doc_lint.ts
 * ```
 *
 * @module
 */

const text = new TextDecoder().decode(await new Response(Deno.stdin.readable).arrayBuffer())
  // deno-lint-ignore no-control-regex
  .replace(/\x1b\[[0-9;]*m/g, "");
const blocks = text.split(/\n(?=error)/).filter((b) => b.startsWith("error"));
const npmImports = new Map<string, Set<string>>();

/** Names a file imports from bare (package) specifiers. */
function packageImports(file: string): Set<string> {
  let names = npmImports.get(file);
  if (names) return names;
  names = new Set();
  const source = Deno.readTextFileSync(file);
  for (const m of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"([^"./][^"]*)"/g)) {
    for (const part of m[1].split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!.trim();
      if (name) names.add(name);
    }
  }
  npmImports.set(file, names);
  return names;
}

const kept: string[] = [];
let ignored = 0;
for (const block of blocks) {
  const ref = /^error\[private-type-ref\]: .* references private type '([^']+)'/.exec(block);
  const at = /-->\s+(\S+?):\d+:\d+/.exec(block);
  if (ref && at && packageImports(at[1]).has(ref[1])) ignored++;
  else if (!/^error: Found \d+ documentation lint errors?\.?$/m.test(block.split("\n")[0])) kept.push(block);
}
for (const block of kept) console.error(block.trimEnd() + "\n");
console.error(
  `doc lint: ${kept.length} problem(s); ${ignored} cross-package private-type-ref(s) ignored (denoland/deno#27364)`,
);
Deno.exit(kept.length ? 1 : 0);
