/// <reference lib="dom" />
/**
 * Editing across a graph and its node group, in chromium, as a user goes about it: Save with nothing
 * changed says so; a file the editor cannot draw is refused with its JSON paths and the graph shown
 * stays; inside a group its inputs (given by the node) are not "missing"; an output added inside a
 * group is a socket of the group node at once, unsaved, and stays one once saved; a run runs an open group as edited (its file
 * untouched) and says so; a duplicate goes below its original, not over its sockets. A graph asked for
 * in the address that cannot be opened is said so, and the first graph opens instead; a group file
 * that is missing costs the page no failed request.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import {
  boxOf,
  checked,
  copyAircraftGraphs,
  drag,
  openStudio,
  socket,
  sockets,
  tabOut as leaveGroup,
} from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

/** The names of a GLB's nodes that end in `_rest` (from its JSON chunk, at byte 20). */
const restNodes = (glb: Uint8Array): string[] => {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  return (json.nodes as { name?: string }[]).map((n) => n.name ?? "").filter((n) => n.endsWith("_rest"));
};

/** What chromium logs for any HTTP 422 answer to a fetch (no page script can keep it quiet). */
const UNPROCESSABLE =
  "console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)";

Deno.test({
  name: "studio: editing a graph and its node group (save, refuse, group inputs and sockets, duplicate)",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-editing-" });
  const { aircraft, rig } = await copyAircraftGraphs(dir);
  const { studio, page, errors, close } = await openStudio(dir);
  const status = () => page.textContent("#status");
  const tabOut = () => leaveGroup(page);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(aircraft)}`);
    await page.waitForSelector("body[data-ready=true]");

    await t.step("Save with nothing changed says so", async () => {
      await page.click("#save");
      equal(await status(), "Nothing to save: every open graph is as its file has it");
    });

    await t.step("a file the editor cannot draw is refused with its JSON paths", async () => {
      const bad = join(dir, "bad.json");
      await Deno.writeTextFile(bad, JSON.stringify({ version: 1, nodes: { a: "demo.fighter" } }));
      await page.fill("#graph-path", bad);
      await page.click("#open-path");
      await page.waitForSelector("#status.refused");
      equal(
        await status(),
        `cannot draw '${bad}' as a graph (fix it in a text editor): /nodes/a: expected a node object`,
      );
      equal(await page.textContent("#crumbs"), aircraft, "the graph shown stays");
      assert(await page.locator('g.node[data-node="fighter"]').count() === 1);
      // The refusal is HTTP 422, which chromium logs as a failed resource whatever the page does with it.
      errors.splice(errors.indexOf(UNPROCESSABLE), 1);
    });

    await t.step("inside a group, the inputs its node gives are not missing", async () => {
      await page.click('g.node[data-node="rig"] .title');
      await page.keyboard.press("Tab");
      await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("›"));
      await checked(page, "valid");
      equal(await page.locator("#issues li").count(), 0);
      await tabOut();
      // Opened on its own, rig.json does need its scene: the check says so.
      await page.fill("#graph-path", rig);
      await page.click("#open-path");
      await page.waitForFunction((r) => document.getElementById("crumbs")!.textContent === r, rig);
      await checked(page, "1 issue(s)");
      assert((await page.textContent("#issues li"))!.startsWith("missing_graph_input at /inputs/scene"));
      await page.fill("#graph-path", aircraft);
      await page.click("#open-path");
      await page.waitForFunction((a) => document.getElementById("crumbs")!.textContent === a, aircraft);
    });

    await t.step("a run runs an open group as edited, and its file stays as saved", async () => {
      const rigText = await Deno.readTextFile(rig);
      const runRead = async () => {
        await page.click("#run");
        await page.waitForFunction(() =>
          /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
        );
        assert((await status())!.startsWith("Run finished"), `${await status()}`);
        return {
          glb: await Deno.readFile(join(dir, "out", "fighter.rigged.glb")),
          log: await page.locator("#run-log li").allTextContents(),
          badge: await page.getAttribute('g.node[data-node="rig"] text.badge', "class"),
        };
      };
      const saved = await runRead();
      const tabIn = async () => {
        await page.click('g.node[data-node="rig"] .title');
        await page.keyboard.press("Tab");
        await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("›"));
      };
      // Inside rig: pivots' zero_rest, bound to the group's input (false), unbound and set to true.
      await tabIn();
      await page.click('g.node[data-node="pivots"] .title');
      await page.click('#params [data-param="zero_rest"] button');
      await page.check('#params [data-param="zero_rest"] input[type=checkbox]');
      await tabOut();
      equal(await page.textContent("#crumbs"), aircraft, "the top graph itself is unchanged");
      const edited = await runRead();
      assert(
        edited.log.includes(
          `run: ${rig} runs as edited: its unsaved changes are in this run, not in its file`,
        ),
        edited.log.join("\n"),
      );
      // zero_rest puts each pivot's rest orientation on a fixed HINGE_auto_<name>_rest parent.
      equal(restNodes(saved.glb).length, 0);
      const rests = restNodes(edited.glb);
      assert(rests.length >= 4 && rests.every((n) => /^HINGE_auto_.+_rest$/.test(n)), rests.join(", "));
      equal(await Deno.readTextFile(rig), rigText, "rig.json is not written by a run");
      // Undone inside the group, it is the saved graph again: the saved run's cache entries, its bytes.
      await tabIn();
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await page.keyboard.press("Control+z");
      await page.waitForFunction(() => !document.getElementById("crumbs")!.textContent!.includes("*"));
      await tabOut();
      const undone = await runRead();
      deepEqual(undone.glb, saved.glb);
      equal(undone.badge, "badge state-cached");
      assert(!undone.log.some((line) => line.includes("runs as edited")), undone.log.join("\n"));
    });

    await t.step(
      "an output added inside a group is a socket of its node at once; Save keeps it",
      async () => {
        deepEqual(await sockets(page, "rig", "out"), ["scene", "report"]);
        await page.click('g.node[data-node="rig"] .title');
        await page.keyboard.press("Tab");
        await page.waitForFunction(() => document.getElementById("crumbs")!.textContent!.includes("›"));
        await drag(page, socket("parts", "scene", "out"), socket("@outputs", "+", "in"));
        await page.waitForSelector(socket("@outputs", "scene_2", "in"));
        await tabOut();
        // Not saved: the node has the sockets of the group as it is open, which the check and a run use.
        await page.waitForSelector(socket("rig", "scene_2", "out"));
        deepEqual(await sockets(page, "rig", "out"), ["scene", "report", "scene_2"]);
        await page.click("#save");
        await page.waitForFunction(() => document.getElementById("status")!.textContent!.startsWith("Saved"));
        // rig.json alone lacks its scene input, which the rig node gives: no issue counted for it.
        assert(/^Saved .*rig\.json \(\d+ bytes\)$/.test((await status())!), (await status())!);
        deepEqual(await sockets(page, "rig", "out"), ["scene", "report", "scene_2"]);
        deepEqual(JSON.parse(await Deno.readTextFile(rig)).outputs.scene_2, "parts.scene");
      },
    );

    await t.step("a duplicate goes below its original, clear of its sockets", async () => {
      await page.click('g.node[data-node="fighter"] .title');
      await page.keyboard.press("Shift+D");
      await page.waitForSelector('g.node[data-node="fighter_2"]');
      const original = await boxOf(page, 'g.node[data-node="fighter"] rect.body');
      const copy = await boxOf(page, 'g.node[data-node="fighter_2"] rect.body');
      assert(
        copy.y > original.y + original.height,
        `copy ${JSON.stringify(copy)} over ${JSON.stringify(original)}`,
      );
      // The original's output socket can still be grabbed: nothing lies on it.
      const out = await boxOf(page, socket("fighter", "scene", "out"));
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.getAttribute("data-node"),
        [out.x + out.width / 2, out.y + out.height / 2],
      );
      equal(hit, "fighter");
    });

    await t.step("a group file that is missing is an issue of its node, not a failed request", async () => {
      const lost = join(dir, "graphs", "lost.json");
      await Deno.writeTextFile(
        lost,
        JSON.stringify({ version: 1, nodes: { g: { type: "graph", graph: "missing.json" } } }),
      );
      await page.fill("#graph-path", lost);
      await page.click("#open-path");
      await page.waitForFunction((p) => document.getElementById("crumbs")!.textContent === p, lost);
      await checked(page, "1 issue(s)");
      assert((await page.textContent("#issues li"))!.startsWith("unreadable_subgraph at /nodes/g/graph"));
      deepEqual(errors, [], "no request failed");
    });

    await t.step(
      "a graph in the address that cannot be opened is said so; the first graph opens",
      async () => {
        const bad = join(dir, "bad.json");
        await page.goto(`${studio.url}?graph=${encodeURIComponent(bad)}`);
        await page.waitForSelector("body[data-ready=true]");
        const first = (await page.$$eval("#graph-picker option", (os) =>
          os.map((o) => (o as HTMLOptionElement).value)))[0];
        equal(
          await status(),
          `cannot draw '${bad}' as a graph (fix it in a text editor): /nodes/a: expected a node object; ` +
            `opened ${first} instead`,
        );
        equal(await page.locator("#status.refused").count(), 1);
        equal(await page.textContent("#crumbs"), first);
        errors.splice(errors.indexOf(UNPROCESSABLE), 1);
      },
    );

    deepEqual(errors, []);
  } finally {
    await close();
  }
});
