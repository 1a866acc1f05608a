/// <reference lib="dom" />
/**
 * What a user walking through the studio met, in chromium: a reload opens the top graph that was shown
 * (the address names it), not the graph the studio started with; a written path's field says it is
 * inside the output folder (`io.write`'s `path`), a read path's that it is relative to the graph.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { checked, copyAircraftGraphs, openStudio, tabOut } from "./page_helpers.ts";
import { tabIn } from "./group_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio: a reload shows the top graph shown; a path field says what it is relative to",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-user-walk-" });
  const { aircraft, rig } = await copyAircraftGraphs(dir);
  // A top graph with a node group called `group` (the fixtures' Tab helper enters it).
  const top = join(dir, "graphs", "top.json");
  await Deno.writeTextFile(
    top,
    JSON.stringify({ version: 1, nodes: { group: { type: "graph", graph: "rig.json" } } }),
  );
  const { studio, page, errors, close } = await openStudio(dir);
  const address = () => new URL(page.url()).searchParams.get("graph");
  const crumbs = () => page.textContent("#crumbs");
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(aircraft)}`);
    await page.waitForSelector("body[data-ready=true]");

    await t.step("the address follows the top graph; a reload opens it", async () => {
      await page.fill("#graph-path", top);
      await page.click("#open-path");
      await page.waitForSelector('g.node[data-node="group"]');
      equal(address(), top);
      // Tab into a group leaves the top graph in the address: a reload shows the top graph.
      await tabIn(page);
      equal(await crumbs(), `${top}  ›  ${rig}`);
      equal(address(), top);
      await page.reload();
      await page.waitForSelector("body[data-ready=true]");
      equal(await crumbs(), top);
      await checked(page, "1 issue(s)");
      await tabIn(page);
      await tabOut(page);
    });

    await t.step("io.write's path is in the output folder; io.read's relative to the graph", async () => {
      for (const type of ["io.write", "io.read"]) {
        await page.fill("#node-search", type);
        await page.press("#node-search", "Enter");
      }
      const placeholder = async (node: string) => {
        await page.click(`g.node[data-node="${node}"] .title`);
        return page.getAttribute('#params [data-param="path"] input[type=text]', "placeholder");
      };
      equal(await placeholder("write"), "path in the output folder");
      equal(await placeholder("read"), `path relative to ${join(dir, "graphs")}/`);
    });

    equal(errors.length, 0, errors.join("\n"));
  } finally {
    await close();
  }
});
