/**
 * The test run's one chromium (`chromium_server.ts`), connected to from each test file: the first file
 * to need it starts it, the others find its endpoint in a file in the system's temp folder named by
 * the run's process id. A lock file next to it (made with `createNew`, holding the starting server's
 * process id) lets one file start it while the others wait; a server found gone (killed) is started
 * again.
 *
 * @module
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";

const SERVER = fileURLToPath(new URL("./chromium_server.ts", import.meta.url));
const PROJECT = fileURLToPath(new URL("../", import.meta.url));

/** How long a test file waits for the server another started (ms): a loaded host took 10 s. */
const WAIT_MS = 120_000;

/** The endpoint file's prefix; the run's process id follows. */
const PREFIX = "partgraph-studio-chromium-";

/** What the server wrote: its endpoint, or why it could not start. */
type Kept = { endpoint: string; pid: number } | { error: string };

/** This module's connection (one per test file). */
let shared: Promise<Browser> | undefined;

/**
 * The run's chromium, connected: its contexts are this test file's own. Connected once per test file;
 * the connection (and the contexts made on it) ends with the file.
 */
export function sharedBrowser(): Promise<Browser> {
  shared ??= connect().catch((error) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

async function connect(): Promise<Browser> {
  const file = join(tmpdir(), `${PREFIX}${Deno.pid}.json`);
  for (let attempt = 0;; attempt++) {
    const kept = await endpoint(file);
    try {
      return await chromium.connect(kept.endpoint, { timeout: 30_000 });
    } catch (error) {
      // The server is gone (killed) though its file is there: remove both and start another, once.
      if (attempt > 0 || startOf(kept.pid) !== undefined) throw error;
      await Deno.remove(file).catch(() => {});
      await Deno.remove(`${file}.lock`).catch(() => {});
    }
  }
}

/** The server's endpoint: read from `file`, else the server started (by this file or another). */
async function endpoint(file: string): Promise<{ endpoint: string; pid: number }> {
  const lock = `${file}.lock`;
  const until = Date.now() + WAIT_MS;
  for (let pause = 10;; pause = Math.min(pause * 2, 200)) {
    const kept = await read(file);
    if (kept && "error" in kept) {
      throw new Error(`chromium for the studio's tests did not start: ${kept.error}`);
    }
    if (kept) return kept;
    const starter = await Deno.readTextFile(lock).catch(() => undefined);
    if (starter === undefined) await start(file, lock);
    else if (starter && startOf(Number(starter)) === undefined && !(await read(file))) {
      // The server that was starting ended without a word (killed): start another.
      await Deno.remove(lock).catch(() => {});
      continue;
    }
    if (Date.now() > until) {
      throw new Error(`chromium for the studio's tests: no endpoint in ${file} after ${WAIT_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** Starts the server, unless another test file took the lock first. */
async function start(file: string, lock: string): Promise<void> {
  let held: Deno.FsFile;
  try {
    held = await Deno.open(lock, { write: true, createNew: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return;
    throw error;
  }
  try {
    removeOrphans();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--frozen", "-A", SERVER, String(Deno.pid), file],
      cwd: PROJECT,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      // Its own process group: it outlives the test file that started it, and ends with the run.
      detached: true,
    }).spawn();
    child.unref();
    await held.write(new TextEncoder().encode(String(child.pid)));
  } finally {
    held.close();
  }
}

/** The server's file, whole, or undefined while there is none. */
async function read(file: string): Promise<Kept | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Removes the endpoint and lock files of runs that are gone (a server that failed to start leaves
 * its reason in its file; one killed with its run cannot remove its own), and the empty artifact
 * folders Playwright made for browsers killed before it could remove them (one per test file a run,
 * when each test file killed its own chromium as it ended) once they are an hour old.
 */
function removeOrphans(): void {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const entry of Deno.readDirSync(tmpdir())) {
    const path = join(tmpdir(), entry.name);
    if (entry.isDirectory && entry.name.startsWith("playwright-artifacts-")) {
      try {
        // Not recursive: a folder with anything in it may be a live browser's.
        if ((Deno.statSync(path).mtime?.getTime() ?? Infinity) < hourAgo) Deno.removeSync(path);
      } catch { /* not empty, or gone */ }
      continue;
    }
    const run = entry.name.startsWith(PREFIX) && /^(\d+)\.json/.exec(entry.name.slice(PREFIX.length));
    if (!run || startOf(Number(run[1])) !== undefined) continue;
    Deno.remove(path).catch(() => {});
  }
}

/** The start time of process `pid` (clock ticks since boot, /proc/<pid>/stat field 22); undefined: gone. */
export function startOf(pid: number): string | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Field 3 is the state: a zombie has ended, though its parent has not reaped it yet.
    return fields[0] === "Z" || fields[0] === "X" ? undefined : fields[19];
  } catch {
    return undefined;
  }
}
