/// <reference lib="dom" />
/**
 * What a run tells the user while it goes on and after it ends, in chromium, on a graph whose node
 * group waits on a node the test holds: the group's badge says running until every node of it the
 * run evaluates has reported; a stream that breaks off (ends early, or its connection drops) leaves
 * no node running or queued but interrupted, says so in the run log and gives Run back; a run-log line
 * for a node inside a group selects that node, Tabbing into its group or out of another as needed.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { gate, hold, INNER, writeGatedGraphs } from "./gated_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

const badge = (page: Page, node: string) =>
  page.locator(`g.node[data-node="${node}"]`).getAttribute("data-state");

/** Waits until a node's badge reads `state`. */
const badgeReads = (page: Page, node: string, state: string) =>
  page.waitForSelector(`g.node[data-node="${node}"][data-state="${state}"]`);

const ended = (page: Page) =>
  page.waitForFunction(() => /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!));

Deno.test({
  name: "studio: run badges while a run goes on, after its stream breaks, and the run log's links",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-run-feedback-" });
  await writeGatedGraphs(dir);
  const { studio, page, errors, close } = await openStudio(dir);
  const crumbs = () => page.textContent("#crumbs");
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(join(dir, "graphs", "gated.json"))}`);
    await page.waitForSelector("body[data-ready=true]");

    await t.step("a group reads running until every node of it has reported", async () => {
      const open = hold();
      await page.click("#run");
      await badgeReads(page, "slow", "running");
      try {
        // quick (inside grp) has reported (its warning comes after its state); late waits for slow.
        await page.locator("#run-log li", { hasText: "grp/quick: quick has run" }).waitFor();
        equal(await badge(page, "grp"), "running");
        equal(await badge(page, "tail"), "queued");
      } finally {
        open();
      }
      await ended(page);
      equal(await page.textContent("#status").then((s) => s!.startsWith("Run finished")), true);
      equal(await badge(page, "grp"), "done");
      equal(await badge(page, "tail"), "done");
    });

    await t.step("a stream that ends early leaves nodes interrupted, not running", async () => {
      await page.route("**/api/run", (route) =>
        route.fulfill({
          contentType: "text/event-stream",
          body: [
            `event: plan\ndata: {"nodes":["slow","grp/quick","grp/late","grp/broken","tail"]}\n\n`,
            `event: node\ndata: {"event":"node","id":"slow","type":"qa.gate","state":"running"}\n\n`,
            `event: node\ndata: {"event":"node","id":"grp/quick","type":"qa.echo","state":"done","ms":1}\n\n`,
          ].join(""),
        }));
      await page.click("#run");
      await ended(page);
      await page.unroute("**/api/run");
      equal(await page.isEnabled("#run"), true);
      deepEqual(
        [await badge(page, "slow"), await badge(page, "grp"), await badge(page, "tail")],
        ["interrupted", "interrupted", "interrupted"],
      );
      const log = (await page.locator("#run-log li").allTextContents()).join("\n");
      assert(log.includes("the event stream ended early before the run ended"), log);
      assert(log.includes("4 node(s) interrupted"), log);
    });

    await t.step("a connection that drops mid-run leaves nodes interrupted, and Run back", async () => {
      // A stand-in for a studio killed mid-run: it streams a running node, then its connection drops.
      let cut = () => {};
      const dropped = new Promise<void>((done) => cut = done);
      const killer = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, () => {
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode(
              `event: plan\ndata: {"nodes":["slow","grp/quick","grp/late","grp/broken","tail"]}\n\n` +
                `event: node\ndata: {"event":"node","id":"slow","type":"qa.gate","state":"running"}\n\n`,
            ));
            await dropped;
            controller.error(new Error("killed"));
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      });
      const { port } = killer.addr as Deno.NetAddr;
      await page.route("**/api/run", (route) => route.continue({ url: `http://127.0.0.1:${port}/api/run` }));
      try {
        await page.click("#run");
        await badgeReads(page, "slow", "running");
        equal(await badge(page, "grp"), "queued");
        equal(await page.isEnabled("#run"), false);
        cut();
        await ended(page);
        equal(await page.isEnabled("#run"), true);
        deepEqual(
          [await badge(page, "slow"), await badge(page, "grp"), await badge(page, "tail")],
          ["interrupted", "interrupted", "interrupted"],
        );
        const log = (await page.locator("#run-log li").allTextContents()).join("\n");
        assert(/the event stream broke off .* before the run ended; 5 node\(s\) interrupted/.test(log), log);
      } finally {
        await page.unroute("**/api/run");
        await killer.shutdown();
      }
      // The dropped response's own console line is this test's doing, not the page's.
      for (let i; (i = errors.findIndex((e) => e.includes("ERR_INCOMPLETE_CHUNKED_ENCODING"))) >= 0;) {
        errors.splice(i, 1);
      }
    });

    await t.step("a run-log line for a node inside a group selects that node", async () => {
      // Make grp/broken fail: its line is the one to follow.
      await Deno.writeTextFile(
        join(dir, "graphs", "inner.json"),
        JSON.stringify({
          ...INNER,
          nodes: { ...INNER.nodes, broken: { type: "qa.echo", params: { fail: true } } },
        }),
      );
      await page.reload();
      await page.waitForSelector("body[data-ready=true]");
      gate.qaGate = Promise.resolve();
      await page.click("#run");
      await ended(page);
      const line = page.locator("#run-log li", { hasText: "grp/broken: " }).first();
      assert((await line.textContent())!.includes("asked to fail"));
      // From the top graph: Tab into grp, select broken.
      await line.click();
      await page.waitForSelector('g.node.selected[data-node="broken"]');
      assert((await crumbs())!.endsWith("inner.json"), "inside the group");
      equal(await badge(page, "broken"), "failed");
      // Already inside the group: the line selects the inner node, not anything named grp.
      await page.click('g.node[data-node="quick"] .title');
      await line.click();
      await page.waitForSelector('g.node.selected[data-node="broken"]');
      assert((await crumbs())!.endsWith("inner.json"));
      // A top-level node's line from inside the group goes back up to select it.
      await page.locator("#run-log li", { hasText: "slow: held" }).click();
      await page.waitForSelector('g.node.selected[data-node="slow"]');
      equal(await crumbs(), join(dir, "graphs", "gated.json"));
      // From another graph: the run's graph opens again, and its group.
      await page.fill("#graph-path", join(dir, "graphs", "inner.json"));
      await page.click("#open-path");
      await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("gated"));
      await line.click();
      await page.waitForSelector('g.node.selected[data-node="broken"]');
      assert((await crumbs())!.includes("gated.json"), "entered from the graph that ran");
      // The run's end lists the failure again; the log shows it once, under its node.
      deepEqual(await page.locator("#run-log li.error").allTextContents(), [
        `grp/broken: node 'grp/broken' (qa.echo) failed: asked to fail`,
      ]);
    });

    deepEqual(errors, []);
  } finally {
    gate.qaGate = undefined;
    await close();
  }
});
