/**
 * Launches Debian's chromium through playwright-core for the studio's browser tests and screenshot script
 * (Playwright never downloads a browser here), and collects console errors.
 *
 * @module
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";

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

/** A headless chromium with a fresh profile (its own --user-data-dir); close it with `close()`. */
export async function launch(): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  const profile = await Deno.makeTempDir({ prefix: "studio-chromium-" });
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--enable-unsafe-swiftshader",
    ],
    viewport: { width: 1400, height: 800 },
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
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
