/**
 * Launches Debian's chromium through playwright-core for the studio's browser tests and screenshot script
 * (Playwright never downloads a browser here), and collects console errors.
 *
 * @module
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { sharedBrowser, startOf } from "./chromium_shared.ts";

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
export const CHROMIUM_ARGS = [
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
    args: CHROMIUM_ARGS,
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

/**
 * A fresh browser context (its own cookies, storage and pages, nothing shared with any other) in the
 * test run's one headless chromium (`chromium_shared.ts`): launching a chromium per test was about
 * 3 s of each of the studio's browser tests, and one per test file ~40 chromiums a run. Close the
 * context with `close()`; the chromium goes when the run ends.
 */
export async function freshContext(): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  const browser = await (await (startOf(Deno.pid) === undefined ? ownBrowser() : sharedBrowser()))
    .newContext({ viewport: VIEWPORT });
  return { browser, close: () => browser.close() };
}

/** This test file's own chromium, where no /proc tells the shared one when its run has ended. */
let own: Promise<Browser> | undefined;

/** A chromium for this test file alone, killed as the file ends (no await is possible then). */
function ownBrowser(): Promise<Browser> {
  own ??= (async () => {
    const server = await chromium.launchServer({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    globalThis.addEventListener("unload", () => server.process().kill("SIGKILL"));
    return await chromium.connect(server.wsEndpoint());
  })();
  return own;
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
