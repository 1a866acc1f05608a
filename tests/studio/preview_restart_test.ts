/// <reference lib="dom" />
/**
 * The page loads the 3D preview's script (three.js, a chunk of its own) on the first preview. A
 * studio started again with another build of the page since the page was opened no longer serves
 * that chunk under the name the page asks for: the status bar says so, and to Save and reload,
 * rather than that the server does not answer (it does) or nothing at all.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { startStudio } from "../../studio/server.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { sharedPage } from "./page_bundle.ts";
import { partsGlb } from "./preview_fixtures.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio preview: a studio started again with another build says so at the first preview",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await tempDir({ prefix: "studio-preview-restart-" });
    const model = join(dir, "part.glb");
    await Deno.writeFile(model, await partsGlb([{ name: "Only_part", extras: {}, at: [0, 0, 0] }]));
    const { page, studio, errors, close } = await openStudio(dir, false);
    let again: Awaited<ReturnType<typeof startStudio>> | undefined;
    try {
      await page.goto(studio.url);
      await page.waitForSelector("body[data-ready]");
      // The same port, the page's chunks under other names: what a rebuilt studio serves.
      await studio.close();
      const renamed = Object.fromEntries(
        Object.entries((await sharedPage()).files).map(([path, text]) => [
          path === "/app.js" ? path : path.replace(/-(\w+)\.js$/, "-REBUILT$1.js"),
          text,
        ]),
      );
      again = await startStudio({
        port: Number(new URL(studio.url).port),
        roots: [dir],
        outDir: join(dir, "out"),
        cacheDir: false,
        page: renamed,
      });
      await page.click("#tab-preview");
      await page.fill("#model-path", model);
      await page.click("#preview-open");
      await page.waitForFunction(() => document.getElementById("status")!.classList.contains("refused"));
      const said = (await page.textContent("#status"))!;
      assert(said.startsWith("the 3D preview's script is not on the studio server any more"), said);
      assert(said.includes("Save, then reload"), said);
      equal(await page.evaluate(() => document.body.dataset.previewSettled), "1");
      // The page's own console errors are the chunk's 404 and the failed import, nothing else.
      equal(
        errors.filter((e) => !e.includes("404") && !e.includes("dynamically imported module")).join("\n"),
        "",
      );
    } finally {
      await again?.close();
      await close().catch(() => {});
    }
  },
});
