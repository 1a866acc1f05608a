/// <reference lib="dom" />
/**
 * The page on a slow server (a busy machine, a remote one through a tunnel): Save pressed again before
 * the first Save's answer came neither asks to overwrite the page's own save nor drops the edits made
 * meanwhile — they are saved once the first is done.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

Deno.test({
  name: "studio page: Save twice on a slow server saves once, then the edits made meanwhile, unasked",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-slow-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "ship.json");
  await Deno.writeTextFile(file, JSON.stringify({ version: 1, nodes: {}, outputs: {} }));
  const { studio, page, errors, close } = await openStudio(dir, false);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  let posts = 0;
  // The first save's answer is held until Save has been pressed again (a slow server, whatever the
  // machine's load: it was a 1.5 s delay, which a loaded machine could outlast before the second Save).
  let release!: () => void;
  const secondSavePressed = new Promise<void>((done) => release = done);
  await page.route("**/api/save", async (route) => {
    if (++posts === 1) await secondSavePressed;
    await route.continue();
  });
  const add = async (type: string, id: string) => {
    await page.fill("#node-search", type);
    await page.press("#node-search", "Enter");
    await page.waitForSelector(`g.node[data-node="${id}"]`);
  };
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await add("demo.fighter", "fighter");
    await page.click("#save");
    await add("export.gltf", "gltf");
    await page.click("#save"); // the first Save's answer has not come
    release();
    await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved "));
    await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.endsWith("*"));
    deepEqual(dialogs, [], "nothing asked: the page's own save is not someone else's change");
    deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(file)).nodes), ["fighter", "gltf"]);
    equal(posts, 2, "the first save and one for the edits made meanwhile");
    deepEqual(errors, []);
  } finally {
    release();
    await close();
  }
});
