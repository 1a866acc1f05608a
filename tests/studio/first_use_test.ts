/// <reference lib="dom" />
/**
 * The studio as a first-time user meets it, in chromium: a run that fails its check leaves no node
 * "queued"; the picker names the graph opened by path; a graph input's issue shows on its row and a
 * string input takes a path typed as is; a live check keeps what is being typed and the focus Tab
 * moved; a graph's own module nodes have their sockets and parameters; a preview says it is opening;
 * the 3D toolbar stays above the status bar and a small window keeps the editor. Run stays disabled
 * while a run goes on, however it ends; the unsaved marker follows undo; leaving with unsaved edits
 * asks first; a part whose rest lies outside its limits starts at its rest, and a group's slider and
 * its members' follow each other.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Dialog, Page } from "playwright-core";
import { runGraph } from "../../mod.ts";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { nextFrames, openStudio } from "./page_helpers.ts";

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

/** A GLB of nodes only (no meshes): enough for the part panel, which reads the nodes' extras. */
function glbOf(json: unknown): Uint8Array {
  let text = JSON.stringify(json);
  while (text.length % 4) text += " ";
  const chunk = new TextEncoder().encode(text);
  const glb = new Uint8Array(20 + chunk.length);
  const view = new DataView(glb.buffer);
  view.setUint32(0, 0x46546c67, true); // "glTF"
  view.setUint32(4, 2, true);
  view.setUint32(8, glb.length, true);
  view.setUint32(12, chunk.length, true);
  view.setUint32(16, 0x4e4f534a, true); // "JSON"
  glb.set(chunk, 20);
  return glb;
}

/** Sets a part panel slider (`data-part` key) as dragging it does. */
const slide = (page: Page, key: string, value: number) =>
  page.$eval(`.part[data-part="${key}"] input`, (input: HTMLInputElement, v: number) => {
    input.value = String(v);
    input.dispatchEvent(new Event("input"));
  }, value);

/** A part panel row: its slider's position and its value as shown. */
const shown = async (page: Page, key: string) => [
  await page.inputValue(`.part[data-part="${key}"] input`),
  await page.textContent(`.part[data-part="${key}"] output`),
];

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
  const { studio, page, errors, close } = await openStudio(dir);
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

    await t.step("Run is disabled while a run goes on, and back however the run ends", async () => {
      const ended = () =>
        page.waitForFunction(() =>
          /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
        );
      let posted = 0;
      let release = () => {};
      const held = new Promise<void>((done) => release = done);
      await page.route("**/api/run", async (route) => {
        posted++;
        await held;
        await route.continue();
      });
      await page.click("#run");
      await page.waitForSelector("#run:disabled");
      assert((await page.textContent("#status"))!.includes("Run is disabled until it ends"));
      // A second click (forced: a user does not wait for the button) starts nothing.
      await page.click("#run", { force: true });
      release();
      await ended();
      equal(posted, 1, "one run posted");
      equal(await page.isEnabled("#run"), true);
      await page.unroute("**/api/run");
      // The connection breaks off: the run fails, and Run is back.
      await page.route("**/api/run", (route) => route.abort());
      await page.click("#run");
      await ended();
      assert((await page.textContent("#status"))!.includes("the connection broke off"));
      // The aborted request's own console line is this test's doing, not the page's.
      errors.splice(errors.indexOf("console: Failed to load resource: net::ERR_FAILED"), 1);
      equal(await page.isEnabled("#run"), true);
      await page.unroute("**/api/run");
      // The stream stops before its end event.
      await page.route("**/api/run", (route) =>
        route.fulfill({
          contentType: "text/event-stream",
          body: 'event: node\ndata: {"event":"node","id":"car","type":"x","state":"running"}\n\n',
        }));
      await page.click("#run");
      await ended();
      equal(await page.textContent("#status"), "Run failed: the event stream ended early");
      equal(await page.isEnabled("#run"), true);
      await page.unroute("**/api/run");
    });

    await t.step("a graph input's issue shows on its row; a string input takes a bare path", async () => {
      await page.click('g.node[data-node="@inputs"] .title');
      const row = '#params [data-input="model"]';
      assert((await page.textContent(`${row} .param-issue`))!.includes("has no default"));
      const model = join(dir, "quad.car");
      await page.fill(`${row} input.default`, model);
      await page.press(`${row} input.default`, "Enter");
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
      const answered = page.waitForResponse((r) =>
        r.url().endsWith("/api/check") &&
        /"pose":(\{"a":1\}|"\{\\"a\\": 1\}")/.test(r.request().postData() ?? "")
      );
      await page.fill('#params [data-param="pose"] textarea', '{"a": 1}');
      // To the morph field with Tab (resolvers' parameters between them, such as Freelancer's pivots).
      for (let i = 0; i < 6 && (await focused(page))[0] !== "morph"; i++) await page.keyboard.press("Tab");
      await page.keyboard.type("smile");
      // The pose edit's check has answered and the page has drawn since (it waited 800 ms).
      await (await answered).finished();
      await nextFrames(page);
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

    const custom = join(dir, "graphs", "custom.json");
    await t.step("the unsaved marker goes when undo returns to the graph as opened", async () => {
      equal(await page.textContent("#crumbs"), custom);
      await page.click('g.node[data-node="pass"] .title');
      await page.keyboard.press("Shift+D");
      await page.waitForSelector('g.node[data-node="pass_2"]');
      equal(await page.textContent("#crumbs"), `${custom} *`);
      await page.click("#undo");
      await page.waitForSelector('g.node[data-node="pass_2"]', { state: "detached" });
      equal(await page.textContent("#crumbs"), custom);
      await page.click("#redo");
      equal(await page.textContent("#crumbs"), `${custom} *`);
    });

    await t.step("closing or reloading with unsaved edits asks first; without, it does not", async () => {
      // Playwright accepts a beforeunload prompt nobody listens for; here each answer is chosen.
      const asked: string[] = [];
      let answer: "stay" | "leave" = "stay";
      let answered = Promise.resolve();
      const onDialog = (dialog: Dialog) => {
        asked.push(dialog.type());
        answered = answer === "stay" ? dialog.dismiss() : dialog.accept();
      };
      page.on("dialog", onDialog);
      try {
        // Closing (a reload that is refused never settles in Playwright; a refused close just stays).
        const prompted = page.waitForEvent("dialog");
        await page.close({ runBeforeUnload: true });
        await prompted;
        await answered;
        equal(page.isClosed(), false, "staying keeps the page");
        equal(await page.textContent("#crumbs"), `${custom} *`, "and the edit");
        await page.click("#undo");
        equal(await page.textContent("#crumbs"), custom);
        await page.reload();
        await page.waitForSelector("body[data-ready=true]");
        deepEqual(asked, ["beforeunload"], "nothing unsaved: the reload did not ask");
        await page.click('g.node[data-node="pass"] .title');
        await page.keyboard.press("Shift+D");
        await page.waitForSelector('g.node[data-node="pass_2"]');
        answer = "leave";
        await page.reload();
        await page.waitForSelector("body[data-ready=true]");
        deepEqual(asked, ["beforeunload", "beforeunload"], "an unsaved edit: the reload asked");
        equal(await page.textContent("#crumbs"), custom, "left: the edit is gone, as the user chose");
      } finally {
        page.off("dialog", onDialog);
      }
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
      equal(await page.textContent("#status"), `Shown ${glb} in the preview`);
      await toolbarAboveStatus(page, 600);
      await page.setViewportSize({ width: 560, height: 420 });
      await nextFrames(page);
      await toolbarAboveStatus(page, 20);
      await page.click("#tab-editor");
      const editor = (await page.locator("#editor").boundingBox())!;
      assert(editor.width >= 150, `editor ${editor.width}px wide in a 560px window`);
    });

    await t.step(
      "a part at rest outside its limits starts at rest; group and member sliders follow",
      async () => {
        await page.setViewportSize({ width: 1400, height: 800 });
        const flaps = join(dir, "flaps.glb");
        const part = (name: string, min: number, max: number) => ({
          name,
          extras: { ctrl_type: "rotation", unit: "deg", min, max, group: "flaps" },
        });
        await Deno.writeFile(
          flaps,
          glbOf({
            asset: { version: "2.0" },
            scene: 0,
            scenes: [{ nodes: [0] }],
            nodes: [{ name: "Wing", children: [1, 2] }, part("FlapL", 5, 30), part("FlapR", -10, 10)],
          }),
        );
        await page.click("#tab-preview");
        await page.fill("#model-path", flaps);
        await page.click("#preview-open");
        await page.waitForFunction((label) => document.body.dataset.previewReady === label, flaps);
        // At rest FlapL is at 0, below its 5° limit: its slider says so and sits at 0, not at 5.
        deepEqual(await shown(page, "FlapL"), ["0", "0.00"]);
        assert((await page.textContent('.part[data-part="FlapL"] span'))!.includes("rest 0 outside"));
        await slide(page, "FlapL", 1);
        const angle = () =>
          page.evaluate(() => {
            const hook = globalThis as unknown as {
              studio: { preview(): { parts: { name: string; object: { quaternion: { w: number } } }[] } };
            };
            const flap = hook.studio.preview().parts.find((p) => p.name === "FlapL")!;
            return Math.round(2 * Math.acos(Math.min(1, Math.abs(flap.object.quaternion.w))) * 180 / Math.PI);
          });
        equal(await angle(), 1, "a small move from rest moves the part a little, no jump to 5°");
        deepEqual(await shown(page, "group:flaps"), ["0", "mixed"]);
        // The group's slider moves its members' sliders; each member keeps to its own travel.
        await slide(page, "group:flaps", 8);
        deepEqual(await shown(page, "FlapL"), ["8", "8.00"]);
        deepEqual(await shown(page, "FlapR"), ["8", "8.00"]);
        deepEqual(await shown(page, "group:flaps"), ["8", "8.00"]);
        await slide(page, "group:flaps", 20);
        deepEqual(await shown(page, "FlapR"), ["10", "10.00"]);
        equal((await shown(page, "group:flaps"))[1], "mixed");
        // Members brought back together: the group's slider shows their common value.
        await slide(page, "FlapL", 10);
        deepEqual(await shown(page, "group:flaps"), ["10", "10.00"]);
      },
    );

    deepEqual(errors, []);
  } finally {
    await close();
  }
});
