/// <reference lib="dom" />
/**
 * What the studio's browser tests do to a page: find an element's box, drag between elements, name
 * a socket, wait for the live check and the status bar; and copy the graphs they edit.
 *
 * @module
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import type { BrowserContext, Dialog, Page } from "playwright-core";
import { startStudio, type Studio } from "../../studio/server.ts";
import { freshContext, watchErrors } from "../../studio/chromium.ts";
import { studioIn } from "./project_studio.ts";
import { sharedPage } from "./page_bundle.ts";

/**
 * An element's box, once it is drawn; the editor redraws by replacing its nodes, so a box asked for
 * mid-redraw (the element just replaced) is asked again. Waits on the element, not on a clock: a
 * loaded machine once drew later than the 2.5 s the old retries allowed.
 */
export async function boxOf(page: Page, selector: string) {
  for (let attempt = 0;; attempt++) {
    await page.locator(selector).first().waitFor({ state: "visible" });
    const box = await page.locator(selector).boundingBox().catch(() => null);
    if (box) return box;
    if (attempt === 20) throw new Error(`no box for ${selector}`);
  }
}

/** Waits until the page has drawn two frames (what it was doing when asked is done and laid out). */
export const nextFrames = (page: Page): Promise<unknown> =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/** Drags with the mouse from the centre of one element to the centre of another. */
export async function drag(page: Page, from: string, to: string): Promise<void> {
  const a = await boxOf(page, from);
  const b = await boxOf(page, to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
}

/** Pans the editor one view down its graph: Alt+drag from the editor's bottom edge to its top. */
export async function panOneViewDown(page: Page): Promise<void> {
  const box = (await page.locator("#editor").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height - 5);
  await page.keyboard.down("Alt");
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + 5, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up("Alt");
}

/** The selector of a node's socket. */
export const socket = (node: string, name: string, side: "in" | "out"): string =>
  `circle[data-node="${node}"][data-socket="${name}"][data-side="${side}"]`;

/** Leaves the group shown with Tab (nothing selected). */
export async function tabOut(page: Page): Promise<void> {
  await page.evaluate(() =>
    (globalThis as unknown as { studio: { editor: { select(ids: string[]): void } } }).studio.editor
      .select([])
  );
  await page.focus("#editor");
  await page.keyboard.press("Tab");
  await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("›"));
}

/** The socket names a node draws on one side, in drawing order. */
export const sockets = (page: Page, node: string, side: "in" | "out"): Promise<(string | null)[]> =>
  page.$$eval(
    `circle[data-node="${node}"][data-side="${side}"]`,
    (cs) => cs.map((c) => c.getAttribute("data-socket")),
  );

/** Waits for the live check after an edit or a Tab (150 ms debounce, then the server's answer). */
export const checked = (page: Page, count: string): Promise<unknown> =>
  page.waitForFunction((c) => document.getElementById("issue-count")!.textContent === c, count);

/** Waits until the status bar reads `text`. */
export const statusReads = (page: Page, text: string): Promise<unknown> =>
  page.waitForFunction((t) => document.getElementById("status")!.textContent === t, text);

/**
 * Asserts that node `id`'s run badge has the class `expected`, waiting until it does (a run's events
 * and the dimming after an edit reach the page when they do); a badge that never does fails naming
 * the class it has (null: no badge). It read the class once, within 2 s, and a loaded machine once
 * read no badge.
 */
export async function badgeIs(page: Page, id: string, expected: string, message?: string): Promise<void> {
  const selector = `g.node[data-node="${id}"] text.badge`;
  await page.waitForFunction(
    ([s, e]) => document.querySelector(s)?.getAttribute("class") === e,
    [selector, expected] as const,
  ).catch(() => {});
  const found = await page.$eval(selector, (b) => b.getAttribute("class")).catch(() => null);
  equal(found, expected, message);
}

/** Renames the node `from` of the graph shown to `to` with F2. */
export async function renameWithF2(page: Page, from: string, to: string): Promise<void> {
  await page.click(`g.node[data-node="${from}"] .title`);
  await page.keyboard.press("F2");
  await page.keyboard.type(to);
  await page.keyboard.press("Enter");
  await page.waitForSelector(`g.node[data-node="${to}"]`);
}

/** Clicks `selector`, answers the confirm it asks (accepting or dismissing it) and returns its message. */
export async function answering(page: Page, selector: string, accept: boolean): Promise<string> {
  const asked = page.waitForEvent("dialog");
  const clicked = page.click(selector);
  const dialog: Dialog = await asked;
  const message = dialog.message();
  await (accept ? dialog.accept() : dialog.dismiss());
  await clicked;
  return message;
}

/** Copies `graphs/aircraft.json` and its node group `graphs/rig.json` into `dir/graphs`. */
export async function copyAircraftGraphs(dir: string): Promise<{ aircraft: string; rig: string }> {
  await Deno.mkdir(join(dir, "graphs"));
  for (const name of ["aircraft.json", "rig.json"]) {
    await Deno.copyFile(`graphs/${name}`, join(dir, "graphs", name));
  }
  return { aircraft: join(dir, "graphs", "aircraft.json"), rig: join(dir, "graphs", "rig.json") };
}

/** A studio server on `dir` and a chromium page, with the page's console errors. */
export interface OpenStudio {
  readonly studio: Studio;
  readonly browser: BrowserContext;
  readonly page: Page;
  readonly errors: string[];
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

/**
 * Starts a studio on `dir` (its first root, `more` the others, which it only reads; outputs in
 * `dir/out`, the cache in `dir/cache` unless `cacheDir` says otherwise) and opens a chromium page on
 * nothing yet. `inProject`: the studio runs in a child process working in `dir` (its project: what
 * the page's paths are relative to), as a user starts it in a folder, writing only in `allowWrite`'s
 * folders when given; otherwise in this process, whose working folder (the repository) is its project.
 */
export async function openStudio(
  dir: string,
  cacheDir: string | false = join(dir, "cache"),
  more: readonly string[] = [],
  inProject: boolean | { allowWrite: readonly string[] } = false,
): Promise<OpenStudio> {
  const options = { roots: [dir, ...more], outDir: join(dir, "out"), cacheDir };
  const studio = inProject
    ? await studioIn(dir, inProject === true ? options : { ...options, ...inProject })
    : await startStudio({ port: 0, ...options, page: (await sharedPage()).files });
  const { browser, page } = await filePage();
  return {
    studio,
    browser,
    page,
    errors: watchErrors(page),
    close: async () => {
      await leave(browser, page);
      await studio.close();
    },
  };
}

/**
 * This test file's browser context, made by the first `openStudio` (kept between opens). One per
 * isolate: the test modules a theme imports (`themes/`) share it, and its page, as one file's tests do.
 */
let context: Promise<BrowserContext> | undefined;

/**
 * The test file's browser context, kept between opens with its page (see `filePage`); what either
 * keeps of an open is cleared by `leave`.
 */
function fileContext(): Promise<BrowserContext> {
  context ??= freshContext().then(({ browser }) => browser).catch((error) => {
    context = undefined;
    throw error;
  });
  return context;
}

/** This test file's page, kept between opens; undefined when the last open could not leave it clean. */
let kept: Page | undefined;

/**
 * The page an open gets: the file's kept page, else a new one. A page kept (its renderer process
 * kept) cost the shared chromium about 1-2 CPU-s less per open than a new one.
 */
async function filePage(): Promise<{ browser: BrowserContext; page: Page }> {
  const browser = await fileContext();
  if (kept && !kept.isClosed()) {
    const page = kept;
    kept = undefined;
    return { browser, page };
  }
  const page = await browser.newPage();
  size ??= page.viewportSize() ?? undefined;
  // An init script cannot be removed: a page given one is not kept (see `leave`).
  const addInitScript = page.addInitScript.bind(page);
  page.addInitScript = (...args: Parameters<Page["addInitScript"]>) => {
    initScripts.add(page);
    return addInitScript(...args);
  };
  return { browser, page };
}

/** The viewport a new page of the context has: a kept page is given it back. */
let size: { width: number; height: number } | undefined;

/** The pages a test gave an init script. */
const initScripts = new WeakSet<Page>();

/** The page events a test may listen to: their listeners are removed when an open ends. */
const EVENTS = [
  "close",
  "console",
  "crash",
  "dialog",
  "domcontentloaded",
  "download",
  "filechooser",
  "frameattached",
  "framedetached",
  "framenavigated",
  "load",
  "pageerror",
  "popup",
  "request",
  "requestfailed",
  "requestfinished",
  "response",
  "websocket",
  "worker",
] as const;

/**
 * Ends one `openStudio`'s use of the page and context, so that the next open starts as in a fresh
 * context: closes every other page (a test's second tabs and popups), clears the cookies, permissions
 * and HTTP cache, and leaves the kept page blank, with no listener, route or held key of the test's
 * and the tests' viewport. A page with an init script of the test's, or one that will not leave
 * (a page that asks before unloading), is closed instead: the next open gets a new page. The studio
 * keeps nothing in localStorage, sessionStorage or IndexedDB, and each open's server has a port (an
 * origin) of its own. The context itself ends with the test file.
 */
async function leave(browser: BrowserContext, page: Page): Promise<void> {
  await Promise.all(browser.pages().filter((p) => p !== page).map((p) => p.close()));
  if (page.isClosed() || initScripts.has(page)) {
    await page.close();
  } else {
    for (const event of EVENTS) page.removeAllListeners(event);
    await page.unrouteAll({ behavior: "ignoreErrors" });
    for (const key of ["Alt", "Control", "Meta", "Shift"]) await page.keyboard.up(key);
    await page.mouse.up();
    const left = await page.goto("about:blank", { timeout: 10_000 }).then(() => true, () => false);
    if (left && page.url() === "about:blank" && size) {
      await page.setViewportSize(size);
      kept = page;
    } else await page.close();
  }
  if (!kept) {
    // No page to clear the context's HTTP cache through: the next open gets a fresh context.
    context = undefined;
    await browser.close();
    return;
  }
  const cdp = await browser.newCDPSession(kept);
  await cdp.send("Network.clearBrowserCache");
  await cdp.detach();
  await browser.clearCookies();
  await browser.clearPermissions();
}
