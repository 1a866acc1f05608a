/**
 * One headless chromium for a whole run of the studio's browser tests, served to every test file by
 * Playwright's browser server (`chromium.launchServer`): `deno test --parallel` runs each test file in
 * a worker of its own, and each launched its own chromium (~40 a run). Run as its own process by
 * `chromium_shared.ts` — `deno run -A studio/chromium_server.ts <owner pid> <endpoint file>` — so the
 * browser outlives the test file that started it, and ends with the run: it closes once the owner
 * (the test run's process) is gone, whether it ended or was killed. It writes its endpoint, or why
 * it could not start, to the endpoint file, and removes the file as it closes.
 *
 * Each test file connects with `chromium.connect` and makes contexts of its own: a client's contexts
 * are its own (another's pages and dialogs never reach it), and they close when it disconnects.
 *
 * @module
 */
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.ts";
import { startOf } from "./chromium_shared.ts";

/** How often the server looks whether its owner is still there (ms). */
const WATCH_MS = 250;

/** Writes `text` to `file` whole: to a file of its own, renamed into place (a reader never sees half). */
export async function writeWhole(file: string, text: string): Promise<void> {
  const part = `${file}.${crypto.randomUUID()}.part`;
  await Deno.writeTextFile(part, text);
  await Deno.rename(part, file);
}

async function serve(owner: number, file: string): Promise<void> {
  // The owner's start time, not just its id: an id the system gives again later is another process.
  const since = startOf(owner);
  if (since === undefined) return; // the run ended before the browser was up
  let server;
  try {
    server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    await writeWhole(file, JSON.stringify({ error: String((error as Error).message ?? error) }));
    return;
  }
  const browser = server.process().pid;
  await writeWhole(file, JSON.stringify({ endpoint: server.wsEndpoint(), pid: Deno.pid, browser }));
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => stop = resolve);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) Deno.addSignalListener(signal, () => stop());
  const watch = setInterval(() => {
    if (startOf(owner) !== since) stop();
  }, WATCH_MS);
  await stopped;
  clearInterval(watch);
  await Deno.remove(file).catch(() => {});
  await Deno.remove(`${file}.lock`).catch(() => {});
  await server.close();
}

if (import.meta.main) {
  const [owner, file] = Deno.args;
  if (!/^\d+$/.test(owner ?? "") || !file) {
    console.error("usage: deno run -A studio/chromium_server.ts <owner pid> <endpoint file>");
    Deno.exit(2);
  }
  await serve(Number(owner), file);
  Deno.exit(0);
}
