/**
 * The test run's one chromium (`studio/chromium_server.ts`) never outlives its run: started for an
 * owner process, it serves browser contexts while the owner lives, and once the owner is gone (here
 * killed, as a run stopped with kill -9 is) the server, its chromium and its endpoint file go too.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { startOf } from "../../studio/chromium_shared.ts";
import { tempDir } from "../support/temp.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

const SERVER = fileURLToPath(new URL("../../studio/chromium_server.ts", import.meta.url));

/** Waits (up to 120 s: a liveness bound, not a timing) until `done()` holds; false if it never did. */
async function until(done: () => boolean | Promise<boolean>): Promise<boolean> {
  for (const end = Date.now() + 120_000; Date.now() < end;) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

Deno.test({
  name: "shared chromium: serves its owner's run, and goes (browser and file) once the owner is killed",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-chromium-shared-" });
  const file = join(dir, "endpoint.json");
  const owner = new Deno.Command("sleep", { args: ["600"], stdin: "null" }).spawn();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "--frozen", "-A", SERVER, String(owner.pid), file],
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    assert(
      await until(() => Deno.stat(file).then(() => true, () => false)),
      "the server wrote no endpoint",
    );
    const kept = JSON.parse(await Deno.readTextFile(file));
    assert(startOf(kept.browser) !== undefined, "its chromium runs");
    const browser = await chromium.connect(kept.endpoint);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent("<p>served</p>");
    equal(await page.textContent("p"), "served");
    await browser.close();

    let ended: Deno.CommandStatus | undefined;
    server.status.then((status) => ended = status);
    owner.kill("SIGKILL");
    await owner.status;
    assert(await until(() => ended !== undefined), "the server outlived its owner");
    equal(ended!.code, 0, "the server closed itself");
    assert(await until(() => startOf(kept.browser) === undefined), "its chromium outlived the owner");
    assert(!(await Deno.stat(file).then(() => true, () => false)), "its endpoint file was left behind");
  } finally {
    try {
      owner.kill("SIGKILL");
    } catch { /* killed already */ }
    try {
      server.kill("SIGKILL");
    } catch { /* ended already */ }
  }
});
