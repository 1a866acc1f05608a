/**
 * `GET /api/exists` (what the page asks before Ctrl+G or a new graph's first save writes a file) by
 * save's rules, on the paths a messy checkout has: dotfiles, `.git`, paths through hidden folders and
 * `node_modules`, symlinks out of the project or into `.git`, a dangling link, `..` and NUL. A path
 * save refuses is refused here with the same status (never answered `exists: false`, inviting a
 * write); an existing file says whether save may replace it, and a graph file's digest is that of
 * its bytes.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { studioIn } from "./project_studio.ts";
import { tempDir } from "../support/temp.ts";

const GRAPH = { version: 1, nodes: {}, outputs: {} };

Deno.test("studio /api/exists: hidden and escaping paths refused as save refuses them", async () => {
  const outside = await tempDir({ prefix: "studio-exists-outside-" });
  const project = await tempDir({ prefix: "studio-exists-" });
  // What a real checkout holds: git's folder, an env file, a package folder, a tool's hidden cache.
  for (const dir of [".git/hooks", "graphs/.drafts", "node_modules/pkg", ".partgraph-cache"]) {
    await Deno.mkdir(join(project, dir), { recursive: true });
  }
  await Deno.writeTextFile(join(project, ".git", "config"), "[core]\n\tbare = false\n");
  await Deno.writeTextFile(join(project, ".env"), "TOKEN=x\n");
  await Deno.writeTextFile(join(project, "graphs", ".drafts", "d.json"), JSON.stringify(GRAPH));
  await Deno.writeTextFile(join(project, "node_modules", "pkg", "package.json"), '{"nodes":{}}');
  await Deno.writeTextFile(join(project, "deno.json"), '{"tasks":{}}\n');
  const graphText = JSON.stringify({ ...GRAPH, name: "mine" }, null, 1);
  await Deno.writeTextFile(join(project, "graphs", "a.json"), graphText);
  await Deno.writeTextFile(join(outside, "secret.json"), JSON.stringify(GRAPH));
  // Links a user (or a hostile checkout) leaves: out of the project, into .git, dangling into .git.
  await Deno.symlink(join(outside, "secret.json"), join(project, "graphs", "out.json"));
  await Deno.symlink(outside, join(project, "graphs", "elsewhere"));
  await Deno.symlink(join(project, ".git", "config"), join(project, "graphs", "cfg.json"));
  await Deno.symlink(join(project, ".git"), join(project, "graphs", "g"));
  await Deno.symlink(join(project, ".git", "hooks", "new.json"), join(project, "graphs", "dangling.json"));
  const studio = await studioIn(project);
  const url = studio.url;
  const exists = async (path: string) => {
    const response = await fetch(`${url}api/exists?path=${encodeURIComponent(path)}`);
    return { status: response.status, body: await response.json() };
  };
  const saveNew = async (path: string) => {
    const response = await fetch(`${url}api/save`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path, graph: GRAPH, create: true }),
    });
    await response.body?.cancel();
    return response.status;
  };
  try {
    const hidden: [string, string][] = [
      [".git/config", ".git"],
      [".git/hooks/new.json", ".git"],
      [".env", ".env"],
      [".env.json", ".env.json"],
      ["graphs/.drafts/d.json", ".drafts"],
      ["graphs/.drafts/new.json", ".drafts"],
      ["node_modules/pkg/package.json", "node_modules"],
      [".partgraph-cache/x.json", ".partgraph-cache"],
      ["graphs/../.git/config", ".git"],
      [join(project, ".git", "config"), ".git"],
      ["graphs/cfg.json", ".git"], // a link into .git is judged where it leads
      ["graphs/g/config", ".git"],
      ["graphs/g/new.json", ".git"],
    ];
    for (const [path, part] of hidden) {
      const { status, body } = await exists(path);
      equal(status, 403, path);
      assert(body.error.includes(`inside '${part}'`), `${path}: ${body.error}`);
      equal(body.exists, undefined, `${path}: refused, not answered`);
      // Save refuses it too (a name not ending in .json is refused before its folder is looked at).
      equal(await saveNew(path), path.endsWith(".json") ? 403 : 400, `${path}: save refuses it too`);
    }
    for (
      const path of [
        "graphs/out.json",
        "graphs/elsewhere/secret.json",
        "graphs/elsewhere/new.json",
        "../x.json",
      ]
    ) {
      const { status, body } = await exists(path);
      equal(status, 403, path);
      assert(body.error.includes("outside the allowed folders"), `${path}: ${body.error}`);
      // Save refuses it too (a name not ending in .json is refused before its folder is looked at).
      equal(await saveNew(path), path.endsWith(".json") ? 403 : 400, `${path}: save refuses it too`);
    }
    for (const path of ["", "graphs/a\0.json"]) equal((await exists(path)).status, 403, JSON.stringify(path));

    // Answered: a graph file (with the digest of its bytes), other files and folders (not replaceable).
    const digest = createHash("sha256").update(graphText).digest("hex");
    deepEqual((await exists("graphs/a.json")).body, {
      path: "graphs/a.json",
      exists: true,
      graph: true,
      digest,
    });
    deepEqual((await exists("deno.json")).body, { path: "deno.json", exists: true, graph: false });
    deepEqual((await exists("graphs")).body, { path: "graphs", exists: true, graph: false });
    deepEqual((await exists("graphs/new.json")).body, { path: "graphs/new.json", exists: false });
    // A dangling link is there (its name is taken) and is no graph; nothing is made where it points.
    deepEqual((await exists("graphs/dangling.json")).body, {
      path: "graphs/dangling.json",
      exists: true,
      graph: false,
    });
    equal(await saveNew("graphs/dangling.json"), 409);
    await Deno.lstat(join(project, ".git", "hooks", "new.json")).then(
      () => assert(false, "written through the dangling link"),
      () => {},
    );
    equal(await Deno.readTextFile(join(outside, "secret.json")), JSON.stringify(GRAPH), "outside untouched");
  } finally {
    await studio.close();
    await Deno.remove(project, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
