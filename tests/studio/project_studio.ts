/**
 * A studio whose project is a folder of the test's, started in a child process whose working
 * directory is that folder (as a user starts `partgraph studio` in a project). The studio takes its
 * project from the working directory, and `Deno.chdir` in a test would move every other test file's
 * working directory too when they run in parallel (`deno test --parallel` runs them as threads of
 * one process).
 *
 * Run as a script, it is that child: it starts the studio with the JSON options it is given, prints
 * the address and closes it when its stdin ends.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { startStudio, type Studio, type StudioOptions } from "../../studio/server.ts";
import { readPage, sharedPage } from "./page_bundle.ts";

/**
 * What the child is started with: the studio's options, `cacheDir: false` by default, and the file
 * holding the page's scripts (`page_bundle.ts`'s, so that the child does not bundle them again).
 */
type ChildOptions = Pick<StudioOptions, "roots" | "outDir" | "graph"> & {
  readonly cacheDir?: string | false;
  readonly pageFile?: string;
  /**
   * Folders (of the project) the child may write in, as `deno task studio`'s `--allow-write` lists
   * them; by default it may do anything (`-A`).
   */
  readonly allowWrite?: readonly string[];
};

/** Starts a studio (port 0, loopback) in a child process working in `project`; `close()` stops it. */
export async function studioIn(project: string, options: ChildOptions = {}): Promise<Studio> {
  const { allowWrite, ...studioOptions } = options;
  const permissions = allowWrite
    ? ["--allow-read", "--allow-env", "--allow-net=127.0.0.1", `--allow-write=${allowWrite.join(",")}`]
    : ["-A"];
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--frozen",
      "--no-check",
      "--unstable-bundle",
      ...permissions,
      `--config=${fromFileUrl(new URL("../../deno.json", import.meta.url))}`,
      fromFileUrl(import.meta.url),
      JSON.stringify({ cacheDir: false, pageFile: (await sharedPage()).file, ...studioOptions }),
    ],
    cwd: project,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const decoded = child.stdout.pipeThrough(new TextDecoderStream());
  const lines = decoded.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) {
      const { code } = await child.status;
      throw new Error(`the studio in ${project} exited (code ${code}) before it listened: ${text}`);
    }
    text += value;
  }
  lines.releaseLock();
  let closed: Promise<void> | undefined;
  // The rest of its output is not read: drained so that the child never blocks on a full pipe.
  decoded.pipeTo(new WritableStream()).catch(() => {});
  return {
    url: text.slice(0, text.indexOf("\n")),
    // Closed once, however often asked: a test may stop the server to see what the page says then.
    close: () => closed ??= child.stdin.close().then(() => child.status).then(() => {}),
  };
}

if (import.meta.main) {
  const { pageFile, ...options } = JSON.parse(Deno.args[0]);
  const page = pageFile === undefined ? undefined : await readPage(pageFile);
  const studio = await startStudio({ port: 0, ...options, page });
  console.log(studio.url);
  // Until the parent closes stdin (or dies): then the server stops and the process ends.
  await Deno.stdin.readable.pipeTo(new WritableStream());
  await studio.close();
}
