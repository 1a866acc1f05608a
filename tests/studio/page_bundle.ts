/**
 * The studio page's scripts, bundled once for a whole run of the studio's tests: `deno test --parallel`
 * runs each test file in a worker of its own, and the child processes of `project_studio.ts` are
 * processes of their own, so the server's once-per-process bundle was made ~50 times a run (about 1.2 s
 * of CPU each). The bundle is kept in the system's temp folder under a digest of everything it is made
 * from — every file of studio/web/, studio/server.ts (the bundler's options), deno.lock (three.js) and
 * Deno's version — so an edit makes a new bundle and a stale one is never served. Written to a file of
 * its own (the scripts by the path each is served at, as JSON) and renamed into place: test files bundling at the same moment each write a whole file, and
 * a reader never sees half of one. A bundle no run has used for an hour is removed when a new one is
 * made.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundlePage, type PageFiles } from "../../studio/server.ts";

const STUDIO = fileURLToPath(new URL("../../studio/", import.meta.url));
const LOCK = fileURLToPath(new URL("../../deno.lock", import.meta.url));

/**
 * Imports the page may make that the digest covers: its own modules and three.js (pinned by
 * deno.lock). Any other would be bundled without being in the digest: refused, naming it.
 */
const COVERED = /^(\.\/[^/]+$|three$|three\/)/;

/** A module's static imports and re-exports (`… from "x"`, `import "x"`) and dynamic `import("x")`. */
const IMPORTS =
  /^\s*(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm;

/** The digest of what the page's bundle is made from (see the module doc). */
async function digest(): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`deno ${Deno.version.deno}\0`);
  const web = [...Deno.readDirSync(join(STUDIO, "web"))].map((e) => e.name).sort();
  for (const name of web) {
    const text = await Deno.readTextFile(join(STUDIO, "web", name));
    for (const [, from, bare, dynamic] of text.matchAll(IMPORTS)) {
      const specifier = from ?? bare ?? dynamic;
      if (!COVERED.test(specifier)) {
        throw new Error(
          `studio/web/${name} imports "${specifier}", which tests/studio/page_bundle.ts's digest does not cover`,
        );
      }
    }
    hash.update(`${name}\0${text}\0`);
  }
  for (const file of [join(STUDIO, "server.ts"), LOCK]) hash.update(`${await Deno.readTextFile(file)}\0`);
  return hash.digest("hex").slice(0, 32);
}

/** This module's answer (one per test file). */
let shared: Promise<{ file: string; files: PageFiles }> | undefined;

/**
 * The page's scripts and the file they are kept in: read from the temp folder when this run (or an
 * earlier one, of the same sources) bundled them, else bundled and kept there.
 */
export function sharedPage(): Promise<{ file: string; files: PageFiles }> {
  shared ??= keptPage().catch((error) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** The kept bundles' prefix in the temp folder; the digest follows. */
const PREFIX = "partgraph-studio-page-";

/**
 * How long a bundle of other sources is kept unused (ms): another checkout's test run may be using
 * it right now (each use marks it used), and one left by an edit since is not used again.
 */
const UNUSED_MS = 60 * 60 * 1000;

async function keptPage(): Promise<{ file: string; files: PageFiles }> {
  const file = join(tmpdir(), `${PREFIX}${await digest()}.json`);
  try {
    const files = await readPage(file);
    // Marked used, so that no other run removes it as a bundle nobody uses.
    const now = new Date();
    await Deno.utime(file, now, now).catch(() => {});
    return { file, files };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const files = await bundlePage();
  const part = `${file}.${crypto.randomUUID()}.part`;
  await Deno.writeTextFile(part, JSON.stringify(files));
  await Deno.rename(part, file);
  await removeUnused(file);
  return { file, files };
}

/** The page's scripts kept in `file` by {@link sharedPage} (a child-process studio reads them so). */
export async function readPage(file: string): Promise<PageFiles> {
  return JSON.parse(await Deno.readTextFile(file));
}

/**
 * Removes the bundles kept in `folder` (and halves a killed run left) that no run has used for
 * {@link UNUSED_MS}, all but `kept`: each edit of the page's sources makes a bundle of 1.8 MB, and
 * they were kept forever. Returns the files removed.
 */
export async function removeUnused(kept: string, folder = tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    const file = join(folder, entry.name);
    if (!entry.isFile || !entry.name.startsWith(PREFIX) || file === kept) continue;
    try {
      const { mtime } = await Deno.stat(file);
      if (mtime && now - mtime.getTime() < UNUSED_MS) continue;
      await Deno.remove(file);
      removed.push(file);
    } catch { /* another run removed it first */ }
  }
  return removed;
}
