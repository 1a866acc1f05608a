/**
 * `openStudio` keeps one browser context per test file and page, and each open still starts as in a fresh one: no page, cookie, route, listener or viewport
 * of the open before it is left.
 */
import { deepEqual, equal } from "node:assert/strict";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { copyAircraftGraphs, openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio tests: a second openStudio reuses the file's context, with nothing of the first left in it",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-kept-context-" });
  const { aircraft } = await copyAircraftGraphs(dir);
  const first = await openStudio(dir);
  await first.page.goto(`${first.studio.url}?graph=${encodeURIComponent(aircraft)}`);
  await first.page.waitForSelector("g.node");
  await first.browser.addCookies([{ name: "left", value: "1", url: first.studio.url }]);
  await first.page.route("**/api/**", (route) => route.abort());
  first.page.on("dialog", (dialog) => dialog.dismiss());
  await first.page.setViewportSize({ width: 500, height: 400 });
  const second = await first.browser.newPage();
  await second.goto(first.studio.url);
  await first.close();

  const next = await openStudio(dir);
  try {
    equal(next.browser, first.browser, "the second open is in the file's one context");
    equal(next.page, first.page, "the second open is on the file's kept page");
    deepEqual(next.browser.pages(), [next.page], "the first open's other pages are closed");
    equal(next.page.url(), "about:blank", "the kept page is left blank");
    deepEqual(next.page.viewportSize(), { width: 1400, height: 800 }, "the test's viewport is undone");
    await next.page.goto(`${next.studio.url}?graph=${encodeURIComponent(aircraft)}`);
    await next.page.waitForSelector("g.node");
    deepEqual(await next.browser.cookies(), [], "the first open's cookies are cleared");
    deepEqual(next.errors, []);
  } finally {
    await next.close();
  }
});
