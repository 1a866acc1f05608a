import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join, relative } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;

/** The Markdown files whose links are checked: the README and everything under docs/. */
function markdownFiles(): string[] {
  const docs = [...Deno.readDirSync(join(ROOT, "docs"))]
    .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
    .map((entry) => join(ROOT, "docs", entry.name));
  return [join(ROOT, "README.md"), ...docs.sort()];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, "").replaceAll(" ", "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

Deno.test("every relative link of the README and docs/ names a file that exists, and a heading in it", () => {
  const texts = new Map(markdownFiles().map((file) => [file, Deno.readTextFileSync(file)]));
  const broken: string[] = [];
  for (const [file, text] of texts) {
    const prose = text.replace(/```[\s\S]*?```/g, "");
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto: — not ours to check
      const [path, anchor] = target.split("#");
      const linked = path ? join(dirname(file), path) : file;
      const where = `${relative(ROOT, file)} → ${target}`;
      if (!texts.has(linked) && !exists(linked)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      const linkedText = texts.get(linked) ??
        (linked.endsWith(".md") ? Deno.readTextFileSync(linked) : undefined);
      if (anchor && linkedText !== undefined && !anchorsOf(linkedText).has(anchor)) {
        broken.push(`${where}: no such heading`);
      }
    }
  }
  assertEquals(broken, []);
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
