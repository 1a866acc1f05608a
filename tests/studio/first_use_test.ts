/// <reference lib="dom" />
/**
 * The studio as a first-time user meets it, in chromium: a run that fails its check leaves no node
 * "queued"; the picker names the graph opened by path; a graph input's issue shows on its row and a
 * string input takes a path typed as is; a live check keeps what is being typed and the focus Tab
 * moved; a graph's own module nodes have their sockets and parameters; a preview says it is opening;
 * the 3D toolbar stays above the status bar and a small window keeps the editor.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { runGraph } from "../../mod.ts";
import { startStudio } from "../../studio/server.ts";
import { browserMissing, launch, watchErrors } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** A custom node module, as a user writes one beside their graph. */
const MODULE = `import { defineNode } from "${new URL("../../runtime/mod.ts", import.meta.url).href}";
export default { nodes: [defineNode({
  type: "qa.pass", version: 1, doc: "Passes a scene on.",
  inputs: { scene: { type: "scene", doc: "In." } },
  outputs: { scene: { type: "scene", doc: "The same scene." } },
  params: { seconds: { type: "number", default: 0, min: 0, doc: "Unused." } },
  run: ({ inputs }) => ({ scene: inputs.scene }),
})] };
`;

const states = (page: Page) =>
  page.$$eval("g.node[data-node]", (nodes) => nodes.map((n) => n.getAttribute("data-state") ?? ""));

/** The id of the node the focused element edits (`data-param` of its row), and its value. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement | null;
    return [(active?.closest("[data-param]") as HTMLElement | null)?.dataset.param, active?.value];
  });

/** Asserts the 3D toolbar (which wraps in a narrow pane) ends above the status bar, the view above it. */
async function toolbarAboveStatus(page: Page, minView: number): Promise<void> {
  const toolbar = (await page.locator(".toolbar3d").boundingBox())!;
  const status = (await page.locator("#status").boundingBox())!;
  const view = (await page.locator("#view3d").boundingBox())!;
  assert(toolbar.y + toolbar.height <= status.y + 0.5, `toolbar ${JSON.stringify(toolbar)} over status`);
  assert(
    view.y + view.height <= toolbar.y + 0.5 && view.height >= minView,
    `3D view ${JSON.stringify(view)}`,
  );
}

Deno.test({
  name: "studio: what a first-time user runs into (runs, picker, panels, custom nodes, layout)",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-first-use-" });
  await Deno.mkdir(join(dir, "graphs"));
  for (const name of ["aircraft.json", "rig.json", "carnivores.json"]) {
    await Deno.copyFile(`graphs/${name}`, join(dir, "graphs", name));
  }
  await Deno.writeTextFile(join(dir, "graphs", "pass.ts"), MODULE);
  await Deno.writeTextFile(
    join(dir, "graphs", "custom.json"),
    JSON.stringify({
      version: 1,
      modules: ["./pass.ts"],
      nodes: {
        fighter: { type: "demo.fighter", params: { detail: 1 } },
        pass: { type: "qa.pass", inputs: { scene: "fighter.scene" } },
        export: { type: "export.gltf", inputs: { scene: "pass.scene" } },
      },
      outputs: { glb: "export.bytes" },
    }),
  );
  const studio = await startStudio({
    port: 0,
    roots: [dir],
    outDir: join(dir, "out"),
    cacheDir: join(dir, "cache"),
  });
  const { browser, close } = await launch();
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const open = async (file: string) => {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
  };
  try {
    const carnivores = join(dir, "graphs", "carnivores.json");
    await open(carnivores);

    await t.step("the picker names the graph opened by path, not the first of graphs/", async () => {
      equal(await page.inputValue("#graph-picker"), await page.textContent("#crumbs"));
      equal(await page.inputValue("#graph-picker"), carnivores);
    });

    await t.step("a run that fails its check leaves no node queued", async () => {
      await page.click("#run");
      await page.waitForFunction(() =>
        /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
      );
      assert((await page.textContent("#status"))!.includes("missing_graph_input"));
      deepEqual((await states(page)).filter((s) => s !== ""), []);
    });

    await t.step("a graph input's issue shows on its row; a string input takes a bare path", async () => {
      await page.click('g.node[data-node="@inputs"] .title');
      const row = '#params [data-input="model"]';
      assert((await page.textContent(`${row} .param-issue`))!.includes("has no default"));
      const model = join(dir, "quad.car");
      await page.fill(`${row} input`, model);
      await page.press(`${row} input`, "Enter");
      await page.waitForSelector(`${row} .param-issue`, { state: "detached" });
      equal(await page.textContent("#issue-count"), "valid");
      equal(
        await page.evaluate(() =>
          (globalThis as unknown as {
            studio: { current(): { graph: { inputs: { model: { default: string } } } } };
          })
            .studio.current().graph.inputs.model.default
        ),
        model,
      );
    });

    await t.step("a live check keeps the text being typed and the focus Tab moved", async () => {
      await page.fill("#node-search", "constraints.resolve");
      await page.press("#node-search", "Enter");
      await page.click('g.node[data-node="resolve_2"] .title');
      // The edit schedules a live check; its answer arrives while the next field is being typed in.
      await page.fill('#params [data-param="pose"] textarea', '{"a": 1}');
      await page.keyboard.press("Tab");
      await page.keyboard.type("smile");
      await page.waitForTimeout(800);
      deepEqual(await focused(page), ["morph", "smile"]);
      await page.keyboard.press("Tab");
      await page.keyboard.type("-20");
      await page.keyboard.press("Enter");
      await page.waitForSelector('#params [data-param="morph_weight"] .param-issue');
      assert(
        (await page.textContent('#params [data-param="morph_weight"] .param-issue'))!.includes(">= -10"),
      );
      deepEqual(await focused(page), ["morph_weight", "-20"]);
    });

    await t.step("a graph's own module nodes have their sockets and parameters", async () => {
      await open(join(dir, "graphs", "custom.json"));
      for (const side of ["in", "out"]) {
        equal(
          await page.locator(`circle[data-node="pass"][data-socket="scene"][data-side="${side}"]`).count(),
          1,
        );
      }
      await page.click('g.node[data-node="pass"] .title');
      equal(await page.textContent("#params .doc"), "Passes a scene on.");
      equal(await page.locator('#params [data-param="seconds"] input').count(), 1);
      await page.fill("#node-search", "qa.");
      deepEqual(await page.$$eval("#node-results li", (items) => items.map((li) => li.textContent)), [
        "qa.pass",
      ]);
    });

    await t.step("a preview says it is opening; the 3D toolbar stays above the status bar", async () => {
      const glb = join(dir, "fighter.glb");
      const built = await runGraph(join(dir, "graphs", "custom.json"), { cacheDir: false });
      await Deno.writeFile(glb, (built.outputs.glb as { bytes: Uint8Array }).bytes);
      let release = () => {};
      const held = new Promise<void>((done) => release = done);
      await page.route("**/api/model?*", async (route) => {
        await held;
        await route.continue();
      });
      await page.click("#tab-preview");
      await page.fill("#model-path", glb);
      await page.click("#preview-open");
      await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Opening"));
      release();
      await page.waitForFunction((label) => document.body.dataset.previewReady === label, glb);
      equal(await page.textContent("#status"), `Previewing ${glb}`);
      await toolbarAboveStatus(page, 600);
      await page.setViewportSize({ width: 560, height: 420 });
      await page.waitForTimeout(100);
      await toolbarAboveStatus(page, 20);
      await page.click("#tab-editor");
      const editor = (await page.locator("#editor").boundingBox())!;
      assert(editor.width >= 150, `editor ${editor.width}px wide in a 560px window`);
    });

    deepEqual(errors, []);
  } finally {
    await close();
    await studio.close();
  }
});
