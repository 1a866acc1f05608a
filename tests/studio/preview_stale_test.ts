/// <reference lib="dom" />
/**
 * The preview never shows an older result as the current one: a model asked for while a slower one
 * is still on its way (held back by the test until the later one is shown, as a large file the
 * runtime decodes for seconds would be) stays shown when the slow one lands — the test waits until
 * the page has settled both, never for a time —; a run output shown in the preview says it is from
 * an earlier run once a new run starts; and after a run that fails, the server serves none of the
 * previous run's outputs as the latest. The page opens without the preview's script (three.js), and
 * loads it once for the first two models asked for at once.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import type { Page } from "playwright-core";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { partsGlb } from "./preview_fixtures.ts";
import { preview } from "./preview_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** A GLB of a unit triangle and a mesh of which two of three vertices are at ∞ and NaN. */
async function nonFiniteGlb(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const mesh = (name: string, positions: number[]) => {
    const accessor = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
      new Float32Array(positions),
    );
    return doc.createNode(name).setMesh(
      doc.createMesh(name).addPrimitive(
        doc.createPrimitive().setAttribute("POSITION", accessor),
      ),
    );
  };
  doc.createScene("s").addChild(mesh("Good_mesh", [0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .addChild(mesh("Broken_mesh", [Infinity, 0, 0, NaN, 1, 0, 0, 0, 1]));
  return await writeGlb(doc, { generator: "partgraph studio test" });
}

const treeText = (page: Page) => page.evaluate(() => document.getElementById("tree")!.textContent ?? "");

Deno.test({
  name: "studio preview: a slow model never lands over a later one; an earlier run's output says so",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const dir = await tempDir({ prefix: "studio-preview-stale-" });
    const slow = join(dir, "slow.glb");
    await Deno.writeFile(slow, await partsGlb([{ name: "Slow_cloud", extras: {}, at: [0, 0, 0] }]));
    const quick = join(dir, "quick.glb");
    await Deno.writeFile(quick, await partsGlb([{ name: "Quick_part", extras: {}, at: [0, 0, 0] }]));
    await Deno.mkdir(join(dir, "graphs"));
    const graph = join(dir, "graphs", "small.json");
    await Deno.writeTextFile(
      graph,
      JSON.stringify({
        version: 1,
        nodes: {
          fighter: { type: "demo.fighter", params: { detail: 1 } },
          export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
          // The output's bytes are written too: the preview labels the output by that file.
          write: { type: "io.write", inputs: { bytes: "export.bytes" }, params: { path: "small.glb" } },
        },
        outputs: { glb: "export.bytes" },
      }),
    );
    const { page, studio, errors, close } = await openStudio(dir, false);
    try {
      // The preview's script (three.js) is a chunk of its own, loaded when the first model is shown.
      const previewScripts: string[] = [];
      page.on("request", (r) => void (/\/preview-\w+\.js$/.test(r.url()) && previewScripts.push(r.url())));
      await page.goto(studio.url);
      await page.waitForSelector("body[data-ready]");
      deepEqual(previewScripts, [], "the editor opens without the preview's script");
      await page.click("#tab-preview");

      await t.step("a model asked for later stays shown when a slower one lands", async () => {
        // The slow model's answer is let through only once the quick one is shown.
        let quickShown!: () => void;
        const shown = new Promise<void>((done) => quickShown = done);
        await page.route((url) => url.search.includes("slow.glb"), async (route) => {
          await shown;
          await route.continue();
        });
        const slowAnswer = page.waitForResponse((r) => r.url().includes("slow.glb"));
        await page.fill("#model-path", slow);
        await page.click("#preview-open");
        await page.fill("#model-path", quick);
        await page.click("#preview-open");
        await page.waitForFunction((q) => document.body.dataset.previewReady === q, quick);
        quickShown();
        await (await slowAnswer).finished();
        // Both models asked for have had their outcome: the slow one dropped, or (were it let
        // through) parsed and shown. The page counts them; no time is waited for.
        await page.waitForFunction(() => document.body.dataset.previewSettled === "2");
        equal(await page.evaluate(() => document.body.dataset.previewReady), quick);
        const tree = await treeText(page);
        assert(tree.includes("Quick_part") && !tree.includes("Slow_cloud"), tree);
        assert((await page.textContent("#preview-info"))!.startsWith(quick));
        assert((await page.textContent("#status"))!.startsWith(`Shown ${quick}`));
        // Two models asked for while the preview's script loaded: it was loaded once, for both.
        equal(previewScripts.length, 1, previewScripts.join(", "));
      });

      await t.step("vertices at NaN or ∞ are counted, and the model framed by the rest", async () => {
        const broken = join(dir, "nan.glb");
        await Deno.writeFile(broken, await nonFiniteGlb());
        equal(await preview(page, broken), "ready");
        const info = (await page.textContent("#preview-info"))!;
        assert(
          info.includes("2 vertices not at a finite position (NaN or ∞), not drawn, in Broken_mesh"),
          info,
        );
        const camera = await page.evaluate(() => {
          const hook = globalThis as unknown as { studio: { preview(): { camera: { position: number[] } } } };
          const p = hook.studio.preview().camera.position as unknown as { x: number; y: number; z: number };
          return [p.x, p.y, p.z];
        });
        assert(camera.every(Number.isFinite) && Math.hypot(...camera) < 100, `camera at ${camera}`);
      });

      await t.step("a run output shown is marked once a new run starts", async () => {
        await page.click("#tab-editor");
        await page.fill("#graph-path", graph);
        await page.click("#open-path");
        // The graph opened, not the one shown before it: aircraft.json has a node 'fighter' too, and a
        // run of it lists its own outputs.
        await page.waitForFunction((g) => document.getElementById("crumbs")!.textContent === g, graph);
        await page.waitForSelector('g.node[data-node="fighter"]');
        const run = async () => {
          await page.click("#run");
          await page.waitForFunction(() =>
            document.getElementById("status")!.textContent!.startsWith("Run ")
          );
          await page.waitForFunction(() => !(document.getElementById("run") as HTMLButtonElement).disabled);
          // A failed run lists no output to click: said here, with the reason, not as a click's timeout.
          const said = (await page.textContent("#status"))!;
          assert(said.startsWith("Run finished"), said);
        };
        await run();
        // Waited for by the preview's count of models settled, not by the label it shows.
        const settled = () => page.evaluate(() => Number(document.body.dataset.previewSettled ?? 0));
        const before = await settled();
        await page.click("#outputs li button");
        await page.waitForFunction((n) => Number(document.body.dataset.previewSettled) > n, before);
        // The glb output is labelled by the file the run wrote it as (the Outputs list's written row),
        // not by the output's name.
        const rows = await page.locator("#outputs li a").allTextContents();
        const written = rows.find((row) => row.includes("(written,"))?.replace(/ \(written,.*$/, "");
        assert(written?.endsWith("small.glb"), rows.join("; "));
        equal(await page.evaluate(() => document.body.dataset.previewReady), written);
        assert((await page.textContent("#preview-info"))!.startsWith(`${written}: `));
        assert((await page.textContent("#status"))!.startsWith(`Shown ${written} in the preview`));
        assert(!(await page.textContent("#preview-info"))!.includes("earlier run"));
        await page.click("#tab-editor");
        await run();
        const info = (await page.textContent("#preview-info"))!;
        assert(info.includes("from an earlier run"), info);
        // Previewing the new output clears the mark.
        await page.click("#outputs li button");
        await page.waitForFunction(() => !document.body.dataset.previewOutdated);
        assert(!(await page.textContent("#preview-info"))!.includes("earlier run"));
      });

      await t.step("after a failed run no earlier output is served as the latest", async () => {
        equal((await fetch(`${studio.url}api/output?name=glb`)).status, 200);
        const failing = {
          version: 1,
          nodes: { read: { type: "io.read", params: { path: join(dir, "nothing-here.glb") } } },
          outputs: { bytes: "read.bytes" },
        };
        const response = await fetch(`${studio.url}api/run`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ path: graph, graph: failing }),
        });
        const events = await response.text();
        assert(events.includes('"ok":false'), events.slice(-300));
        const stale = await fetch(`${studio.url}api/output?name=glb`);
        equal(stale.status, 404);
        await stale.body?.cancel();
      });
      equal(errors.filter((e) => !e.includes("status of 404")).join("\n"), "");
    } finally {
      await close();
    }
  },
});
