/// <reference lib="dom" />
/**
 * Regenerates the README's studio screenshots, taken by the page itself in chromium: the node editor
 * on graphs/aircraft.json after a run (node states shown), and the 3D preview of the rigged fighter
 * with its ailerons deflected and hinge lines drawn.
 *
 *     deno task studio-screenshots
 *
 * @module
 */
import { runGraph } from "../mod.ts";
import { startStudio } from "../studio/server.ts";
import { browserMissing, launch } from "../studio/chromium.ts";

const missing = browserMissing();
if (missing) {
  console.error(missing);
  Deno.exit(1);
}
await runGraph("graphs/aircraft.json", { outDir: "out" });
const studio = await startStudio({ port: 0, graph: "graphs/aircraft.json" });
const { browser, close } = await launch();
try {
  const page = await browser.newPage();
  await page.goto(studio.url);
  await page.waitForSelector("body[data-ready=true]");
  await page.click('g.node[data-node="rig"] .title');
  await page.click("#run");
  await page.waitForFunction(() => /^Run /.test(document.getElementById("status")!.textContent!));
  await page.screenshot({ path: "docs/studio-editor.png" });

  await page.click("#tab-preview");
  await page.fill("#model-path", "out/fighter.rigged.glb");
  await page.click("#preview-open");
  await page.waitForSelector("body[data-preview-ready]");
  await page.$eval('.part[data-part="group:ailerons"] input', (input: HTMLInputElement) => {
    input.value = "20";
    input.dispatchEvent(new Event("input"));
  });
  await page.screenshot({ path: "docs/studio-preview.png" });
  console.log("wrote docs/studio-editor.png and docs/studio-preview.png");
} finally {
  await close();
  await studio.close();
}
