/**
 * `Sandbox.resolveMany` (the live check's read paths, 10,000s in a generated graph) answers every
 * path exactly as `Sandbox.resolve` does one at a time — the same real path, or the same refusal — on
 * a messy tree: files and missing files, missing folders, `..`, links out of the project, a link to a
 * folder inside it, a dangling link, a link loop, NUL and over-long paths, in a seeded random mix; and
 * it looks each folder up once: 10,000 reads in a missing folder cost a handful of look-ups, not three
 * each.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { PathRefused, Sandbox } from "../../studio/paths.ts";
import { prng } from "../support/prng.ts";
import { tempDir } from "../support/temp.ts";

/** A project with what real ones hold, and a folder outside it that links lead to. */
async function messyTree(): Promise<{ project: string; outside: string }> {
  const outside = await tempDir({ prefix: "studio-batch-outside-" });
  const project = await tempDir({ prefix: "studio-batch-" });
  await Deno.mkdir(join(project, "models", "sub"), { recursive: true });
  await Deno.mkdir(join(project, "graphs"));
  for (const name of ["a.glb", "b.cmp", "sub/c.3db"]) {
    await Deno.writeTextFile(join(project, "models", name), "x");
  }
  await Deno.writeTextFile(join(outside, "secret.glb"), "x");
  await Deno.symlink(join(outside, "secret.glb"), join(project, "models", "out.glb"));
  await Deno.symlink(outside, join(project, "models", "elsewhere"));
  await Deno.symlink(join(project, "models", "sub"), join(project, "graphs", "shortcut"));
  await Deno.symlink(join(project, "gone", "x.glb"), join(project, "models", "dangling.glb"));
  await Deno.symlink(join(project, "models", "loop2"), join(project, "models", "loop1"));
  await Deno.symlink(join(project, "models", "loop1"), join(project, "models", "loop2"));
  return { project, outside };
}

const PIECES = [
  "models/a.glb",
  "models/b.cmp",
  "models/sub/c.3db",
  "models/missing.glb",
  "models/nofolder/x.glb",
  "deep/er/still/x.glb",
  "models/out.glb",
  "models/elsewhere/secret.glb",
  "models/elsewhere/new.glb",
  "graphs/shortcut/c.3db",
  "graphs/shortcut/../a.glb",
  "models/dangling.glb",
  "models/loop1",
  "models/loop1/x.glb",
  "../x.glb",
  "models/../../x.glb",
  "./models//a.glb",
  "",
  "models/a\0.glb",
  `models/${"d/".repeat(2100)}x.glb`,
];

Deno.test("studio sandbox: resolveMany answers as resolve does, path by path", async () => {
  const { project, outside } = await messyTree();
  try {
    const sandbox = new Sandbox(project);
    const random = prng(56);
    const paths: string[] = [];
    for (let i = 0; i < 400; i++) {
      const piece = PIECES[Math.floor(random() * PIECES.length)];
      // Absolute spellings too, as a graph input's default may give them.
      paths.push(random() < 0.3 && piece !== "" ? join(project, piece) : piece);
    }
    paths.push(...PIECES);
    const one = (path: string) =>
      sandbox.resolve(path).catch((error) => {
        if (!(error instanceof PathRefused)) throw error;
        return `refused: ${error.message}`;
      });
    const expected = [];
    for (const path of paths) expected.push(await one(path));
    const batch = (await sandbox.resolveMany(paths)).map((r) =>
      r instanceof PathRefused ? `refused: ${r.message}` : r
    );
    deepEqual(batch, expected);
    // The mix held both kinds, so the comparison judged something.
    assert(expected.some((e) => e.startsWith("refused")) && expected.some((e) => !e.startsWith("refused")));
  } finally {
    await Deno.remove(project, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("studio sandbox: resolveMany looks each folder up once", async () => {
  const { project, outside } = await messyTree();
  const realPath = Deno.realPath;
  let calls = 0;
  try {
    const sandbox = new Sandbox(project);
    const paths = Array.from({ length: 10_000 }, (_, i) => `models/generated/part_${i}.glb`);
    paths.push(...Array.from({ length: 100 }, (_, i) => `models/${i % 2 ? "a.glb" : "b.cmp"}`));
    Deno.realPath = (path) => (calls++, realPath(path));
    const answers = await sandbox.resolveMany(paths);
    equal(answers.length, paths.length);
    equal(answers[0], join(Deno.realPathSync(project), "models", "generated", "part_0.glb"));
    // Each folder from the root down, then the existing folder's 100 files; none for the missing one's.
    assert(calls < 100 + 30, `${calls} look-ups for ${paths.length} paths`);
  } finally {
    Deno.realPath = realPath;
    await Deno.remove(project, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
