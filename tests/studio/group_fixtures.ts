/// <reference lib="dom" />
/**
 * A top graph exporting a node group's scene, and the page steps the browser tests of open, edited
 * groups share: entering the group, running the top graph, the GLB a fighter gives exported directly.
 *
 * @module
 */
import { ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createRegistry, type GraphFile, runGraph } from "../../mod.ts";

/** The group: the demo fighter at mesh detail 1 as its output, and one at detail 3 not (yet) output. */
export const INNER: GraphFile = {
  version: 1,
  nodes: {
    fighter: { type: "demo.fighter", params: { detail: 1 } },
    fighter_hi: { type: "demo.fighter", params: { detail: 3 } },
  },
  outputs: { scene: "fighter.scene" },
};

/** The graph that uses `inner.json` as node `group`, exporting its scene as a GLB. */
export const TOP: GraphFile = {
  version: 1,
  nodes: {
    group: { type: "graph", graph: "inner.json" },
    export: { type: "export.gltf", inputs: { scene: "group.scene" } },
  },
  outputs: { glb: "export.bytes" },
};

/** Writes {@link TOP} and `inner` as `dir/graphs/top.json` and `inner.json`; their paths and the group's text. */
export async function writeGroupGraphs(
  dir: string,
  inner: GraphFile = INNER,
): Promise<{ top: string; inner: string; innerText: string }> {
  await Deno.mkdir(join(dir, "graphs"));
  const paths = { top: join(dir, "graphs", "top.json"), inner: join(dir, "graphs", "inner.json") };
  await Deno.writeTextFile(paths.top, JSON.stringify(TOP));
  await Deno.writeTextFile(paths.inner, JSON.stringify(inner));
  return { ...paths, innerText: await Deno.readTextFile(paths.inner) };
}

/** The GLB of the demo fighter at `detail` exported directly (no group, no cache). */
export async function fighterGlb(dir: string, detail: number): Promise<Uint8Array> {
  const graph: GraphFile = {
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter", params: { detail } },
      export: { type: "export.gltf", inputs: { scene: "fighter.scene" } },
    },
    outputs: { glb: "export.bytes" },
  };
  const result = await runGraph({ json: graph, file: join(dir, "flat.json"), dir }, {
    registry: createRegistry(),
    outDir: join(dir, `flat-out-${detail}`),
    cacheDir: false,
  });
  return (result.outputs.glb as { bytes: Uint8Array }).bytes;
}

/** Selects node `group` of the graph shown and enters it with Tab. */
export async function tabIn(page: Page): Promise<void> {
  await page.click('g.node[data-node="group"] .title');
  await page.keyboard.press("Tab");
  await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("›"));
}

/** Runs the top graph from the page; the GLB it output, the `export` node's badge and the run log. */
export async function runTop(page: Page, url: string) {
  await page.click("#run");
  await page.waitForFunction(() =>
    /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
  );
  const status = (await page.textContent("#status"))!;
  assert(status.startsWith("Run finished"), status);
  return {
    glb: new Uint8Array(await (await fetch(`${url}api/output?name=glb`)).arrayBuffer()),
    badge: await page.getAttribute('g.node[data-node="export"] text.badge', "class"),
    log: await page.locator("#run-log li").allTextContents(),
  };
}
