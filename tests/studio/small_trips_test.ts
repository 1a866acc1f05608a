/// <reference lib="dom" />
/**
 * Small things a user walking through the studio tripped on, in chromium: after an open that failed,
 * opening another graph leaves no old refusal in the status bar (it read as the new graph's).
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { copyAircraftGraphs, openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: small trips — a failed open's refusal does not outlive the next open",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-small-trips-" });
  const { aircraft } = await copyAircraftGraphs(dir);
  const broken = join(dir, "graphs", "broken.json");
  // A half-written graph file: cut off mid-object, as an editor crash or a merge leaves it.
  await Deno.writeTextFile(broken, '{"version": 1, "nodes": {"a": {"type": "io.re');
  const { studio, page, errors, close } = await openStudio(dir);
  const bar = () =>
    page.evaluate(() => {
      const el = document.getElementById("status")!;
      return { text: el.textContent ?? "", refused: el.classList.contains("refused") };
    });
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(aircraft)}`);
    await page.waitForSelector("body[data-ready=true]");

    await t.step("a failed open, then a good one: the bar no longer shows the failure", async () => {
      await page.fill("#graph-path", broken);
      await page.click("#open-path");
      await page.waitForFunction(() => document.getElementById("status")!.classList.contains("refused"));
      const failed = await bar();
      ok(failed.text.includes("broken.json"), failed.text);
      await page.fill("#graph-path", join(dir, "graphs", "rig.json"));
      await page.click("#open-path");
      await page.waitForSelector('g.node[data-node="@inputs"]');
      await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("rig.json"));
      const after = await bar();
      equal(after.refused, false, `still refused: ${after.text}`);
      ok(!after.text.includes("broken.json"), after.text);
    });

    // The refused open's own 422 is the one console line expected.
    const others = errors.filter((e) => !e.includes("422"));
    equal(others.length, 0, others.join("\n"));
  } finally {
    await close();
  }
});
