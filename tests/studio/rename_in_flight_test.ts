/// <reference lib="dom" />
/**
 * A node renamed while a run goes on, in chromium: the runtime goes on reporting it by the id it had
 * when the run started, and the page gives those reports to the renamed node — its badge, a group
 * node's inner nodes' badges, and the run-log lines (named by the new id; a click shows the node,
 * whether the line came before or after the rename).
 */
import { equal, ok as assert } from "node:assert/strict";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { badgeIs, openStudio, renameWithF2 } from "./page_helpers.ts";
import { gate, GATED, hold, writeGatedGraphs } from "./gated_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: a node renamed while a run goes on gets the run's reports under its new id",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-rename-in-flight-" });
  // tail warns once it has run: a log line that comes after the rename.
  const top = await writeGatedGraphs(dir, {
    ...GATED,
    nodes: { ...GATED.nodes, tail: { ...GATED.nodes.tail, params: { say: "tail has run" } } },
  });
  const { studio, page, errors, close } = await openStudio(dir);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(top)}`);
    await page.waitForSelector("body[data-ready=true]");
    const open = hold();
    try {
      await page.click("#run");
      await page.waitForSelector('g.node[data-node="slow"][data-state="running"]');
      // quick (inside grp) has reported and logged; late and tail wait for slow.
      await page.locator("#run-log li", { hasText: "grp/quick: quick has run" }).waitFor();
      await renameWithF2(page, "tail", "echo");
      await renameWithF2(page, "grp", "parts");
      await badgeIs(page, "echo", "badge state-queued stale", "still waiting, under its new id");
      await badgeIs(page, "parts", "badge state-running stale", "quick done, late waiting");
    } finally {
      open();
    }
    await page.waitForFunction(() =>
      /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
    );
    assert((await page.textContent("#status"))!.startsWith("Run finished"));
    await badgeIs(page, "echo", "badge state-done stale", "tail's report went to echo");
    await badgeIs(page, "parts", "badge state-done stale", "late's report went to parts/late");
    equal(await page.locator('g.node[data-node="tail"], g.node[data-node="grp"]').count(), 0);
    // A line logged after the rename names the node as it is now; a click selects it.
    const after = page.locator("#run-log li", { hasText: "echo: tail has run" });
    await after.click();
    await page.waitForSelector('g.node.selected[data-node="echo"]');
    // A line logged before it still shows its node, inside the renamed group.
    await page.locator("#run-log li", { hasText: "grp/quick: quick has run" }).click();
    await page.waitForSelector('g.node.selected[data-node="quick"]');
    equal(await page.textContent("#crumbs"), `${top} *  ›  ${top.replace("gated.json", "inner.json")}`);
    await badgeIs(page, "late", "badge state-done stale", "its report is there, dimmed as the top's");
    equal(errors.length, 0, errors.join("\n"));
  } finally {
    gate.qaGate = undefined;
    await close();
  }
});
