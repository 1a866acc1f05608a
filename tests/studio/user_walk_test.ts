/// <reference lib="dom" />
/**
 * What a user walking through the studio met, in chromium: a reload opens the top graph that was shown
 * (the address names it), not the graph the studio started with; a written path's field says it is
 * inside the output folder (`io.write`'s `path`), a read path's that it is relative to the project folder
 * (where runs resolve it, whichever folder the graph is in: it said the graph's folder); undo
 * and redo keep the selection (Group Input's panel stays; a renamed node stays selected).
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { checked, copyAircraftGraphs, openStudio, statusReads, tabOut } from "./page_helpers.ts";
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

    await t.step("io.write's path is in the output folder; io.read's relative to the project", async () => {
      for (const type of ["io.write", "io.read"]) {
        await page.fill("#node-search", type);
        await page.press("#node-search", "Enter");
      }
      const placeholder = async (node: string) => {
        await page.click(`g.node[data-node="${node}"] .title`);
        return page.getAttribute('#params [data-param="path"] input[type=text]', "placeholder");
      };
      equal(await placeholder("write"), "path in the output folder");
      equal(await placeholder("read"), "path relative to the project folder");
    });

    await t.step("undo and redo keep the selection: Group Input's panel, a renamed node", async () => {
      await page.fill("#graph-path", aircraft);
      await page.click("#open-path");
      await page.waitForSelector('g.node[data-node="rig"]');
      await page.click('g.node[data-node="@inputs"] .title');
      const detail = '#params [data-input="detail"] input.default';
      await page.fill(detail, "3");
      await page.press(detail, "Enter");
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await statusReads(page, "Undone: set the default of detail");
      equal(await page.inputValue(detail), "2", "the panel stays, with the value undone");
      await page.click('g.node[data-node="export"] .title');
      await page.keyboard.press("F2");
      await page.keyboard.type("glb");
      await page.keyboard.press("Enter");
      await page.waitForSelector('g.node.selected[data-node="glb"]');
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await page.waitForSelector('g.node.selected[data-node="export"]');
      equal(await page.inputValue("#params input.name-field"), "export");
      await page.keyboard.press("Control+Shift+z");
      await page.waitForSelector('g.node.selected[data-node="glb"]');
      equal(await page.inputValue("#params input.name-field"), "glb");
    });

    equal(errors.length, 0, errors.join("\n"));
  } finally {
    await close();
  }
});
