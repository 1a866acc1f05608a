/// <reference lib="dom" />
/**
 * Names as hostile or careless files carry them, in chromium: a 10 KB name, a right-to-left override
 * that would make `abc\u202Egnp.exe` read `abcexe.png`, a NUL, `</script>` and `javascript:` text, as
 * part, group, clip and node names, in texture file names the preview warns about, and as node ids
 * and graph input names in the node editor. Nothing runs, nothing is made of them but text, the
 * override and the NUL are shown as `[U+202E]` and `[U+0000]`, and no name runs out of its panel or
 * node: the part panel cuts it with an ellipsis, the editor cuts a title or socket label and keeps the
 * whole as its tooltip, and a preview with 60 warnings quoting 3 KB paths lists each cut. A generated
 * graph of 600 nodes lists its node ids a few times per redraw and Home, not once per wire or node.
 */
import { equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { partsDoc } from "./preview_fixtures.ts";
import { preview } from "./preview_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

const LONG = "W".repeat(10_000);
const RLO = "abc\u202Egnp.exe";
const NAMES = [
  LONG,
  RLO,
  "nul\u0000byte",
  "</script><script>document.title='x'</script>",
  "javascript:alert(1)",
];

/** A GLB of one part per name (the long one also its group's name) and a clip named like a spoof. */
async function namesGlb(): Promise<Uint8Array> {
  const doc: Document = partsDoc(NAMES.map((name, i) => ({
    name,
    extras: { ctrl_type: "rotation", unit: "deg", min: -5, max: 5, ...(i === 0 ? { group: LONG } : {}) },
    at: [i * 2, 0, 0],
  })));
  const buffer = doc.getRoot().listBuffers()[0];
  const input = doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(new Float32Array([0, 1]));
  const output = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(new Float32Array(6));
  const sampler = doc.createAnimationSampler().setInput(input).setOutput(output);
  const target = doc.getRoot().listNodes().find((n) => n.getName() === RLO)!;
  const channel = doc.createAnimationChannel().setTargetNode(target).setTargetPath("translation")
    .setSampler(sampler);
  doc.createAnimation(`${LONG}\u202Eclip`).addSampler(sampler).addChannel(channel);
  return await writeGlb(doc, { generator: "partgraph studio test" });
}

/** A glTF whose 60 textures are all missing, each at a 3 KB path (with an override). */
function missingTexturesGltf(): string {
  const count = 60;
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const base64 = btoa(String.fromCharCode(...new Uint8Array(positions.buffer)));
  return JSON.stringify({
    asset: { version: "2.0" },
    scene: 0,
    scenes: [{ nodes: [...Array(count).keys()] }],
    nodes: Array.from({ length: count }, (_, i) => ({ name: `<img src=x onerror=alert(${i})>`, mesh: i })),
    meshes: Array.from(
      { length: count },
      (_, i) => ({ primitives: [{ attributes: { POSITION: 0 }, material: i }] }),
    ),
    materials: Array.from({ length: count }, (_, i) => ({
      name: `<b>m${i}</b>`,
      pbrMetallicRoughness: { baseColorTexture: { index: i } },
    })),
    textures: Array.from({ length: count }, (_, i) => ({ source: i })),
    // Folders 200 characters deep to about 3 KB: a longer file name is an error of the file system.
    images: Array.from(
      { length: count },
      (_, i) => ({ uri: `tex/${`${"d".repeat(200)}/`.repeat(15)}\u202E${i}.png` }),
    ),
    accessors: [{
      bufferView: 0,
      componentType: 5126,
      count: 3,
      type: "VEC3",
      min: [0, 0, 0],
      max: [1, 1, 0],
    }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    buffers: [{ byteLength: 36, uri: `data:application/octet-stream;base64,${base64}` }],
  });
}

/** A graph of `count` nodes in pairs (a fighter and its export), as a script generates one. */
function chainGraph(count: number) {
  const nodes: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    nodes[`n${i}`] = i % 2
      ? { type: "export.gltf", inputs: { scene: `n${i - 1}.scene` } }
      : { type: "demo.fighter", params: { detail: 1 } };
  }
  return { version: 1, nodes, outputs: { glb: "n1.bytes" } };
}

/** Text of the page's visible panels (tree, parts, clips, warnings, issues, status), with the raw controls. */
const panelText = (page: Page) =>
  page.evaluate(() =>
    ["#parts", "#tree", "#clips", "#preview-warnings", "#issues", "#status", "#preview-info"]
      .map((s) => document.querySelector(s)?.textContent ?? "").join("\n")
  );

/** Elements outside the window's right edge that are not inside a box that cuts them off. */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body *")].filter((e) => {
      if (e.closest("svg")) return false;
      const right = e.getBoundingClientRect().right;
      if (right <= innerWidth + 1) return false;
      for (let up = e.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX !== "visible" && up.getBoundingClientRect().right <= innerWidth + 1) return false;
      }
      return true;
    }).map((e) =>
      `${e.tagName.toLowerCase()}.${e.className}: ${Math.round(e.getBoundingClientRect().width)} px`
    )
  );

Deno.test({
  name: "studio hostile names: shown as text, overrides and NULs visible, kept inside their panels",
  ignore: !!missing,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const dir = await tempDir({ prefix: "studio-hostile-names-" });
    await Deno.writeFile(join(dir, "names.glb"), await namesGlb());
    await Deno.writeTextFile(join(dir, "textures.gltf"), missingTexturesGltf());
    const ids = [LONG, "abc\u202Egnp", `<img src=x onerror="document.title='x'">`, `bad id ${LONG}`];
    const graph = {
      version: 1,
      inputs: { [`in_${"x".repeat(300)}`]: { type: "string", default: "a" } },
      nodes: {
        ...Object.fromEntries(ids.map((id) => [id, { type: "demo.fighter", params: { detail: 1 } }])),
        export: { type: "export.gltf", inputs: { scene: `${LONG}.scene` } },
      },
      outputs: { glb: "export.bytes" },
    };
    await Deno.mkdir(join(dir, "graphs"));
    await Deno.writeTextFile(join(dir, "graphs", "hostile.json"), JSON.stringify(graph));
    const { page, studio, errors, close } = await openStudio(dir, false);
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      await page.goto(studio.url);
      await page.waitForSelector("#tab-preview");
      const title = await page.title();
      await page.click("#tab-preview");

      await t.step("preview: part, group and clip names", async () => {
        equal(await preview(page, join(dir, "names.glb")), "ready");
        const text = await panelText(page);
        assert(text.includes("abc[U+202E]gnp.exe"), "the override is shown");
        assert(text.includes("nul[U+0000]byte"), "the NUL is shown");
        assert(text.includes("</script><script>document.title='x'</script>"), "markup shown as text");
        assert(
          !text.includes("\u0000") && !text.includes("\u202e"),
          "no raw override or NUL reaches the page",
        );
        // The long name is in the panel whole (cut by its box, not by the page), yet stays inside it.
        const caption = await page.$eval(
          "#parts .part bdi",
          (bdi) => ({
            chars: bdi.textContent!.length,
            right: bdi.getBoundingClientRect().right,
            panel: bdi.closest(".part")!.getBoundingClientRect().right,
          }),
        );
        equal(caption.chars, LONG.length);
        assert(caption.right <= caption.panel + 1, JSON.stringify(caption));
        const clips = await page.$eval("#clips", (s) => s.getBoundingClientRect().width);
        assert(clips < 400, `clip list ${clips} px wide`);
        assert(
          (await page.$$eval("#clips option", (o) => o.map((x) => x.textContent))).some((x) =>
            x?.endsWith("[U+202E]clip")
          ),
        );
        equal((await overflowing(page)).join("\n"), "");
      });

      await t.step("preview: 60 warnings quoting 3 KB paths", async () => {
        equal(await preview(page, join(dir, "textures.gltf")), "ready");
        const count = await page.textContent("#preview-warning-count");
        assert(Number(count) >= 60, `warnings counted: ${count}`);
        const lines = await page.$$eval("#preview-warnings li", (li) => li.map((l) => l.textContent!));
        assert(lines.length >= 50, `${lines.length} listed`);
        assert(lines.every((l) => l.length < 1000), "each warning cut");
        assert(lines.some((l) => l.includes("characters)")), "a cut warning says how long it was");
        assert(!/[\u202e]/.test(await panelText(page)));
        equal((await overflowing(page)).join("\n"), "");
      });

      await t.step("node editor: node ids and graph input names", async () => {
        await page.click("#tab-editor");
        await page.fill("#graph-path", join(dir, "graphs", "hostile.json"));
        await page.click("#open-path");
        // The long id is this graph's own (the studio opened the project's first graph before).
        await page.waitForFunction(
          (n) =>
            [...document.querySelectorAll("g.node")].some((g) => g.getAttribute("data-node")?.length === n),
          LONG.length,
        );
        await page.waitForFunction(() => document.getElementById("issue-count")!.textContent !== "");
        const long = await page.$eval(`g.node[data-node="${LONG}"]`, (g) => {
          const title = g.querySelector("text.title")!;
          return {
            shown: title.childNodes[0].textContent!,
            tooltip: title.querySelector("title")?.textContent ?? "",
            clipped: title.getAttribute("clip-path"),
          };
        });
        assert(long.shown.length <= 30 && long.shown.endsWith("…"), long.shown);
        assert(
          long.tooltip.startsWith("WWWW") && long.tooltip.includes("characters)"),
          long.tooltip.slice(-40),
        );
        assert(long.clipped, "a cut title is clipped to its header");
        const labels = await page.$$eval(
          "g.node text.label",
          (t) => t.map((x) => x.childNodes[0].textContent!),
        );
        assert(labels.every((l) => l.length <= 20), labels.join(", "));
        // An issue quoting a 10 KB id (twice) is cut, saying how long it was.
        const lines = await page.$$eval("#issues li", (li) => li.map((l) => l.textContent!));
        assert(
          lines.length >= 3 && lines.every((l) => l.length < 700),
          lines.map((l) => l.length).join(", "),
        );
        assert(
          lines.some((l) => l.startsWith("invalid_graph at /nodes/bad id WWW") && l.endsWith("characters)")),
        );
        const issues = await page.textContent("#issues");
        assert(issues?.includes("abc[U+202E]gnp"), issues ?? "");
        assert(!/[\u202e]/.test(issues ?? ""), "no raw override in the issues");
        const svgText = await page.$eval("#editor", (svg) => svg.textContent!);
        assert(!/[\u202e]/.test(svgText), "no raw override in the drawing");
        equal((await overflowing(page)).join("\n"), "");
      });

      await t.step(
        "node editor: a generated graph's node ids are listed once per redraw, not per wire",
        async () => {
          const file = join(dir, "graphs", "chain.json");
          await Deno.writeTextFile(file, JSON.stringify(chainGraph(600)));
          await page.fill("#graph-path", file);
          await page.click("#open-path");
          await page.waitForSelector('g.node[data-node="n599"]');
          // Each listing of the node ids copies them all: once per wire or per node made a redraw and
          // Home quadratic (a 5,000-node graph: Home 7.8 s, a selection 1.6 s).
          const listings = await page.evaluate(() => {
            type Editor = { render(): void; frameAll(): void; model: { ids(): string[] } };
            const editor = (globalThis as unknown as { studio: { editor: Editor } }).studio.editor;
            const model = editor.model;
            const ids = model.ids.bind(model);
            let calls = 0;
            model.ids = () => (calls++, ids());
            try {
              editor.render();
              editor.frameAll();
            } finally {
              model.ids = ids;
            }
            return calls;
          });
          assert(listings <= 6, `${listings} listings of 600 node ids for a redraw and Home`);
        },
      );

      equal(await page.title(), title, "no script ran");
      equal(dialogs.join("\n"), "", "no dialog opened");
      equal(await page.locator("body img, #parts b, #tree b, #issues img").count(), 0, "no markup made");
      equal(errors.filter((e) => !e.includes("status of 4")).join("\n"), "");
    } finally {
      await close();
    }
  },
});
