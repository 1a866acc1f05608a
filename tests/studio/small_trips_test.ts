/// <reference lib="dom" />
/**
 * Small things a user walking through the studio tripped on, in chromium, in a project of the user's
 * own (a studio started in its folder): after an open that failed, opening another graph leaves no old
 * refusal in the status bar (it read as the new graph's); a model shown says "Shown", and the editor
 * tab takes that away ("Previewing x" stayed, as if still loading); previewing a graph file says it is
 * a graph to open (it said "unrecognised bytes"); a run's exported GLB downloads as the file the graph
 * writes, or as the graph's name (every one was `scene.glb`); and a model without parts to move names
 * the rig graph only when the project has it.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { copyAircraftGraphs, openStudio } from "./page_helpers.ts";
import { partsGlb } from "./preview_fixtures.ts";
import { preview } from "./preview_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** A graph exporting the demo fighter as GLB (the exporter's default name), written to `write` if given. */
function exportGraph(write?: string) {
  return {
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter" },
      export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
      ...write
        ? { write: { type: "io.write", inputs: { bytes: "export.bytes" }, params: { path: write } } }
        : {},
    },
    outputs: { glb: "export.bytes" },
  };
}

Deno.test({
  name: "studio: small trips — stale status, graph previews, download names, the rig hint",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-small-trips-" });
  await copyAircraftGraphs(dir);
  const graphs = join(dir, "graphs");
  const broken = "graphs/broken.json";
  // A half-written graph file: cut off mid-object, as an editor crash or a merge leaves it.
  await Deno.writeTextFile(join(dir, broken), '{"version": 1, "nodes": {"a": {"type": "io.re');
  await Deno.writeTextFile(join(graphs, "plane_export.json"), JSON.stringify(exportGraph("my_plane.glb")));
  await Deno.writeTextFile(join(graphs, "bare_export.json"), JSON.stringify(exportGraph()));
  // An aircraft as exported, not rigged yet: named parts, no ctrl_type on any.
  const unrigged = ["Fuselage", "Wing.L", "Wing.R", "Aileron.L", "Rudder"].map((name, i) => ({
    name,
    extras: {},
    at: [i * 1.5, 0, 0] as [number, number, number],
  }));
  await Deno.writeFile(join(dir, "plain.glb"), await partsGlb(unrigged));
  const { studio, page, errors, close } = await openStudio(dir, join(dir, "cache"), [], true);
  const bar = () =>
    page.evaluate(() => {
      const el = document.getElementById("status")!;
      return { text: el.textContent ?? "", refused: el.classList.contains("refused") };
    });
  const ready = async (graph: string) => {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(graph)}`);
    await page.waitForSelector("body[data-ready=true]");
  };
  try {
    await ready("graphs/aircraft.json");

    await t.step("a failed open, then a good one: the bar no longer shows the failure", async () => {
      await page.fill("#graph-path", broken);
      await page.click("#open-path");
      await page.waitForFunction(() => document.getElementById("status")!.classList.contains("refused"));
      ok((await bar()).text.includes("broken.json"), (await bar()).text);
      await page.fill("#graph-path", "graphs/rig.json");
      await page.click("#open-path");
      await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("rig.json"));
      const after = await bar();
      equal(after.refused, false, `still refused: ${after.text}`);
      ok(!after.text.includes("broken.json"), after.text);
    });

    await t.step("a model shown is said done, and the editor tab takes that away", async () => {
      await page.click("#tab-preview");
      equal(await preview(page, "plain.glb"), "ready");
      equal((await bar()).text, "Shown plain.glb in the preview");
      await page.click("#tab-editor");
      equal((await bar()).text, "");
    });

    await t.step("a project without the rig graph: the part panel says how to get the rig", async () => {
      const hint = (await page.textContent("#parts"))!;
      ok(hint.includes("this project has no graph for") && hint.includes("partgraph run"), hint);
    });

    await t.step("previewing a graph file says it is a graph to open", async () => {
      await page.click("#tab-preview");
      equal(await preview(page, "graphs/aircraft.json"), "failed");
      const said = (await page.textContent("#preview-error"))!;
      ok(said.includes("is a graph file, not a model") && !said.includes("unrecognised"), said);
    });

    await t.step("a run's GLB downloads as the file the graph writes, else as the graph's name", async () => {
      for (
        const [graph, expected] of [["plane_export", "my_plane.glb"], ["bare_export", "bare_export.glb"]]
      ) {
        await ready(`graphs/${graph}.json`);
        await page.click("#run");
        // A run on a loaded machine can take longer than playwright's 30 s default.
        await page.waitForFunction(
          () => /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!),
          undefined,
          { timeout: 120_000 },
        );
        equal(await page.getAttribute("#outputs a", "download"), expected);
        const response = await page.request.get(`${studio.url}api/output?name=glb`);
        ok(response.headers()["content-disposition"].includes(`filename="${expected}"`));
      }
    });

    await t.step("a project with the rig graph: the part panel names it", async () => {
      await Deno.copyFile("graphs/aircraft_file.json", join(graphs, "aircraft_file.json"));
      await ready("graphs/aircraft.json");
      await page.click("#tab-preview");
      equal(await preview(page, "plain.glb"), "ready");
      const hint = (await page.textContent("#parts"))!;
      ok(hint.includes("from graphs/aircraft_file.json's rig"), hint);
    });

    // The refused open's and the refused preview's own 422s are the console lines expected.
    const others = errors.filter((e) => !e.includes("422"));
    equal(others.length, 0, others.join("\n"));
  } finally {
    await close();
  }
});
