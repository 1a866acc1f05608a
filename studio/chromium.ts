/**
 * Launches Debian's chromium through playwright-core for the studio's browser tests and screenshot script
 * (Playwright never downloads a browser here), and collects console errors.
 *
 * @module
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Why browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  try {
    Deno.statSync(CHROMIUM);
    return undefined;
  } catch {
    return `studio browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does it)`;
  }
}

/** The flags every headless chromium of the studio's gets. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--enable-unsafe-swiftshader",
];

/** The page size the tests and screenshots are laid out for. */
const VIEWPORT = { width: 1400, height: 800 };

/** A headless chromium with a fresh profile (its own --user-data-dir); close it with `close()`. */
export async function launch(): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  const profile = await Deno.makeTempDir({ prefix: "studio-chromium-" });
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: VIEWPORT,
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** This module's one chromium for {@link freshContext}, launched on first use. */
let shared: Promise<Browser> | undefined;

/**
 * A fresh browser context (its own cookies, storage and pages, nothing shared with any other) in one
 * headless chromium kept for the whole module (a test file): launching and closing a chromium per
 * test was about 3 s of each of the studio's browser tests. Close the context with `close()`; the
 * chromium and its profile go when the module unloads.
 */
export async function freshContext(): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  shared ??= launchShared();
  const browser = await (await shared).newContext({ viewport: VIEWPORT });
  return { browser, close: () => browser.close() };
}

/**
 * Launches the shared chromium and, as the module unloads (no await is possible then), kills it and
 * removes the profile folder Playwright made for it, which nothing else would remove: the process is
 * found by a switch of its own on its command line, so parallel test files each remove only theirs.
 */
async function launchShared(): Promise<Browser> {
  const mark = `--partgraph-studio-test=${crypto.randomUUID()}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...ARGS, mark] });
  const found = markedProcess(mark);
  if (found) globalThis.addEventListener("unload", () => removeKilled(found.pid, found.profile));
  return browser;
}

/**
 * Kills chromium `pid` and every process under it, waits until they are gone (or dead, awaiting
 * their parent), then removes `profile`: a helper still running (its network service) wrote into the
 * profile after it was removed. Synchronous: an unload handler cannot wait on a timer.
 */
function removeKilled(pid: number, profile: string): void {
  const pids = [pid, ...descendants(pid)];
  for (const p of pids) {
    try {
      Deno.kill(p, "SIGKILL");
    } catch { /* already gone */ }
  }
  const until = Date.now() + 3000;
  while (Date.now() < until && pids.some(running)) { /* wait */ }
  for (let i = 0; i < 50; i++) {
    try {
      Deno.removeSync(profile, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      const pause = Date.now() + 20;
      while (Date.now() < pause) { /* wait */ }
    }
  }
}

/** The state letter of process `pid` from /proc (undefined: gone). */
function stateOf(pid: number): string | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** True while `pid` runs (not gone, not a zombie awaiting its parent). */
const running = (pid: number): boolean => !["Z", "X", undefined].includes(stateOf(pid));

/** Every process under `root` (children, theirs, and so on), from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of procEntries()) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry}/stat`);
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...children.get(parent) ?? [], Number(entry)]);
    } catch { /* it ended meanwhile */ }
  }
  const found: number[] = [];
  for (let i = -1; i < found.length; i++) found.push(...children.get(i < 0 ? root : found[i]) ?? []);
  return found;
}

/** The process ids /proc lists (none where there is no /proc). */
function procEntries(): string[] {
  try {
    return [...Deno.readDirSync("/proc")].map((e) => e.name).filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
}

/** The main chromium process whose command line carries `mark`, with its profile folder (Linux /proc). */
function markedProcess(mark: string): { pid: number; profile: string } | undefined {
  for (const entry of procEntries()) {
    let args: string[];
    try {
      args = Deno.readTextFileSync(`/proc/${entry}/cmdline`).split("\0");
    } catch {
      continue;
    }
    if (!args.includes(mark) || args.some((a) => a.startsWith("--type="))) continue;
    const profile = args.find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
    if (profile) return { pid: Number(entry), profile };
  }
  return undefined;
}

/** Records console errors and uncaught page errors (a test asserts there were none). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page: ${error.message}`));
  return errors;
}
