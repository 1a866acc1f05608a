/// <reference lib="dom" />
/**
 * Node groups made and taken apart in the editor, in chromium, on a copy of `graphs/aircraft.json`:
 * Alt+G replaces the `rig` group node by its nodes and Ctrl+G groups them again into a new file
 * (asked for, an existing file overwritten only when confirmed); each result validates and a run of it
 * writes the same bytes as the original graph's run; Undo restores the graph (the new file stays). A
 * group whose node gives a socket a literal value ungroups too (the value moves into a new graph
 * input), with the same output bytes.
 * Also: a parameter unbound from a graph input binds again from its panel (to an input of its type, or
 * a new one); badges of the last run dim once the graph is edited (not when a node only moves); the
 * status bar says what delete, duplicate and undo did instead of keeping the last message.
 */
import { deepEqual, equal, notEqual, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Dialog, Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { checkGraph, loadGraph } from "../../mod.ts";
import { tempDir } from "../support/temp.ts";
import { boxOf, checked, copyAircraftGraphs, openStudio, statusReads } from "./page_helpers.ts";
import type { Graph } from "../../studio/web/types.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

type Studio = { studio: { editor: { select(ids: string[]): void }; current(): { graph: Graph } } };

const graphOf = async (page: Page): Promise<Graph> =>
  JSON.parse(
    await page.evaluate(() => JSON.stringify((globalThis as unknown as Studio).studio.current().graph)),
  );

/** Selects nodes the way a box-drag would, and gives the editor the keyboard. */
async function select(page: Page, ids: string[]): Promise<void> {
  await page.evaluate((ids) => (globalThis as unknown as Studio).studio.editor.select(ids), ids);
  await page.focus("#editor");
}

Deno.test({
  name: "studio: group (Ctrl+G), ungroup (Alt+G), rebind a parameter, stale badges, status after edits",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const dir = await tempDir({ prefix: "studio-grouping-" });
  const { aircraft, rig: rigFile } = await copyAircraftGraphs(dir);
  const rigText = await Deno.readTextFile(rigFile);
  const out = join(dir, "out");
  // No cache: each run computes every node again, so equal bytes come from equal computations.
  const { studio, page, errors, close } = await openStudio(dir, false);
  // Each dialog the page opens, answered from this queue (a prompt's text, or false to dismiss).
  const dialogs: { type: string; message: string; value: string }[] = [];
  const answers: (string | boolean)[] = [];
  page.on("dialog", (dialog: Dialog) => {
    dialogs.push({ type: dialog.type(), message: dialog.message(), value: dialog.defaultValue() });
    const answer = answers.shift();
    void (answer === false
      ? dialog.dismiss()
      : dialog.accept(typeof answer === "string" ? answer : undefined));
  });
  const status = () => page.textContent("#status");
  const refused = () => page.locator("#status.refused").count();

  /** Runs the graph shown from the page and returns the two files it writes. */
  const runAndRead = async () => {
    for (const f of ["fighter.rigged.glb", "fighter.rig.json"]) {
      await Deno.remove(join(out, f)).catch(() => {});
    }
    await page.click("#run");
    await page.waitForFunction(() =>
      /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
    );
    assert(
      (await status())!.startsWith("Run finished"),
      `${await status()}\n${await page.textContent("#run-log")}`,
    );
    return {
      glb: await Deno.readFile(join(out, "fighter.rigged.glb")),
      report: await Deno.readTextFile(join(out, "fighter.rig.json")),
    };
  };
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(aircraft)}`);
    await page.waitForSelector("body[data-ready=true]");
    await checked(page, "valid");
    const original = await graphOf(page);
    const before = await runAndRead();
    assert(before.glb.length > 10_000, `a rigged fighter, not ${before.glb.length} bytes`);

    await t.step("badges of the last run dim once the graph is edited, and undim on undo", async () => {
      const badge = page.locator('g.node[data-node="fighter"] text.badge');
      equal(await badge.getAttribute("class"), "badge state-done");
      // Moving a node changes nothing a run computes: the badges stay current.
      const title = await boxOf(page, 'g.node[data-node="export"] .title');
      await page.mouse.move(title.x + 20, title.y + 5);
      await page.mouse.down();
      await page.mouse.move(title.x + 60, title.y + 45, { steps: 4 });
      await page.mouse.up();
      notEqual(JSON.stringify((await graphOf(page)).ui), JSON.stringify(original.ui), "the node moved");
      equal(await badge.getAttribute("class"), "badge state-done");
      await page.fill('#params [data-param="name"] input', "renamed");
      await page.press('#params [data-param="name"] input', "Enter");
      await page.waitForSelector('g.node[data-node="fighter"] text.badge.stale');
      equal(await badge.getAttribute("class"), "badge state-done stale");
      equal(await badge.locator("title").textContent(), "from the last run; the graph changed since");
      equal(await page.locator("text.badge:not(.stale)").count(), 0, "every badge of that run");
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await statusReads(page, "Undone: set export.name");
      equal(await badge.getAttribute("class"), "badge state-done", "the graph that ran: current again");
      await page.keyboard.press("Control+z");
      await statusReads(page, "Undone: move export");
      deepEqual(await graphOf(page), original);
    });

    await t.step("the status bar says what delete, duplicate and undo did", async () => {
      // A refused wire leaves its message; the next edits replace it.
      const from = await boxOf(page, 'circle[data-node="fighter"][data-side="out"]');
      const to = await boxOf(page, 'circle[data-node="write_glb"][data-socket="bytes"]');
      await page.mouse.move(from.x + 6, from.y + 6);
      await page.mouse.down();
      await page.mouse.move(to.x + 6, to.y + 6, { steps: 6 });
      await page.mouse.up();
      await page.waitForSelector("#status.refused");
      await select(page, ["report_json"]);
      await page.keyboard.press("x");
      await statusReads(page, "Deleted report_json");
      equal(await refused(), 0, "no longer marked refused");
      await select(page, ["fighter"]);
      await page.keyboard.press("Shift+D");
      await statusReads(page, "Duplicated as fighter_2");
      await page.keyboard.press("Control+z");
      await statusReads(page, "Undone: duplicate fighter");
      await page.keyboard.press("Control+Shift+z");
      await statusReads(page, "Redone: duplicate fighter");
      await page.click("#undo");
      await statusReads(page, "Undone: duplicate fighter");
      await page.click("#undo");
      await statusReads(page, "Undone: delete report_json");
      await page.click("#undo");
      await statusReads(page, "Nothing to undo");
      deepEqual(await graphOf(page), original);
    });

    await t.step("an unbound parameter binds again from its panel", async () => {
      await page.click('g.node[data-node="fighter"] .title');
      const row = '#params [data-param="detail"]';
      equal(await page.textContent(`${row} button`), "← graph input 'detail' (unbind)");
      await page.click(`${row} button`);
      equal(
        (await graphOf(page)).nodes.fighter.params,
        undefined,
        "unbound: the parameter's default applies",
      );
      // Only inputs of the parameter's type are offered (names and zero_rest are booleans).
      deepEqual(
        await page.$$eval(`${row} select.bind option`, (os) => os.map((o) => (o as HTMLOptionElement).value)),
        ["", "input:detail", "new"],
      );
      await page.selectOption(`${row} select.bind`, "input:detail");
      deepEqual((await graphOf(page)).nodes.fighter.params, { detail: { $input: "detail" } });
      equal(await page.textContent(`${row} button`), "← graph input 'detail' (unbind)");
      await checked(page, "valid");
      // A new input: named after the parameter, its default the value the parameter had.
      await page.click('g.node[data-node="export"] .title');
      await page.selectOption('#params [data-param="name"] select.bind', "new");
      const bound = await graphOf(page);
      deepEqual(bound.inputs!.name, { type: "string", default: "fighter.rigged" });
      deepEqual(bound.nodes.export.params, { name: { $input: "name" } });
      await checked(page, "valid");
      await page.focus("#editor");
      for (let i = 0; i < 3; i++) await page.keyboard.press("Control+z");
      deepEqual(await graphOf(page), original);
    });

    await t.step("a selection that would feed itself is refused before any file is asked for", async () => {
      await select(page, ["fighter", "export"]);
      await page.keyboard.press("Control+g");
      await page.waitForSelector("#status.refused");
      equal(
        await status(),
        "Cannot group: rig takes from the selection and feeds it: group it too, or leave it out",
      );
      equal(dialogs.length, 0);
    });

    let ungrouped: Graph;
    await t.step("Alt+G ungroups rig: same nodes, same output bytes", async () => {
      await select(page, ["rig"]);
      await page.keyboard.press("Alt+g");
      await page.waitForSelector('g.node[data-node="pivots"]');
      await checked(page, "valid");
      equal(await page.locator('g.node[data-node="rig"]').count(), 0);
      ungrouped = await graphOf(page);
      deepEqual(Object.keys(ungrouped.nodes).sort(), [
        "export",
        "fighter",
        "hinges",
        "panels",
        "parts",
        "pivots",
        "report",
        "report_json",
        "sides",
        "write_glb",
        "write_report",
      ]);
      deepEqual(ungrouped.nodes.parts.inputs, { scene: "fighter.scene" });
      // Bound by the group node to outer inputs: still bound; not given: the group input's default.
      deepEqual(ungrouped.nodes.panels.params, { names: { $input: "names" } });
      deepEqual(ungrouped.nodes.hinges.params, { forward: "auto", up: "auto", strict: false });
      deepEqual(ungrouped.nodes.pivots.params, { zero_rest: { $input: "zero_rest" } });
      equal(ungrouped.nodes.export.inputs!.scene, "pivots.scene");
      equal(ungrouped.nodes.report_json.inputs!.json, "report.report");
      deepEqual(ungrouped.outputs, { glb: "export.bytes", report: "report.report" });
      equal(await status(), "Ungrouped rig (rig.json) into parts, panels, hinges, sides, pivots, report");
      const after = await runAndRead();
      deepEqual(after.glb, before.glb);
      equal(after.report, before.report);
      await page.focus("#editor");
      await page.keyboard.press("Control+z");
      await statusReads(page, "Undone: ungroup rig");
      deepEqual(await graphOf(page), original);
      await page.keyboard.press("Control+Shift+z");
      await statusReads(page, "Redone: ungroup rig");
    });

    await t.step(
      "Ctrl+G groups them again into a new file: same output bytes; undo keeps the file",
      async () => {
        const inner = ["parts", "panels", "hinges", "sides", "pivots", "report"];
        await select(page, inner);
        // First a name that exists: the page asks, the answer is no, and it asks for another name.
        answers.push("rig.json", false, "rig_again");
        await page.keyboard.press("Control+g");
        await page.waitForSelector('g.node[data-node="rig_again"]');
        deepEqual(dialogs.map((d) => [d.type, d.value]), [["prompt", "group.json"], ["confirm", ""], [
          "prompt",
          "rig.json",
        ]]);
        equal(
          dialogs[0].message,
          `Group 6 node(s) into a new graph file (a path relative to ${dir}/graphs/):`,
        );
        equal(dialogs[1].message, `${rigFile} exists. Overwrite it with the new group?`);
        equal(await Deno.readTextFile(rigFile), rigText, "rig.json untouched");
        // The page asked whether the name was taken before saving: no HTTP 409 for the browser to log.
        deepEqual(errors, []);
        const file = join(dir, "graphs", "rig_again.json");
        equal(
          await status(),
          `Grouped 6 node(s) into ${file} as node rig_again. Undo restores the graph; the file stays.`,
        );
        await checked(page, "valid");
        const grouped = await graphOf(page);
        deepEqual(grouped.nodes.rig_again, {
          type: "graph",
          graph: "rig_again.json",
          inputs: { scene: "fighter.scene" },
          params: { names: { $input: "names" }, zero_rest: { $input: "zero_rest" } },
        });
        equal(grouped.nodes.export.inputs!.scene, "rig_again.scene");
        equal(grouped.nodes.report_json.inputs!.json, "rig_again.report");
        deepEqual(grouped.outputs, { glb: "export.bytes", report: "rig_again.report" });
        const saved: Graph = JSON.parse(await Deno.readTextFile(file));
        deepEqual(saved.inputs, {
          scene: { type: "scene" },
          names: original.inputs!.names,
          zero_rest: original.inputs!.zero_rest,
        });
        deepEqual(saved.outputs, { scene: "pivots.scene", report: "report.report" });
        deepEqual(Object.keys(saved.nodes), inner);
        equal(saved.$schema, "../schema/graph.schema.json", "the same folder: the same relative schema path");
        deepEqual(saved.nodes.parts.inputs, { scene: { $input: "scene" } });
        // The new file validates on its own too, but for its scene, which the group node gives.
        const alone = await checkGraph(await loadGraph(file));
        deepEqual(alone.map((i) => [i.kind, i.path]), [["missing_graph_input", "/inputs/scene"]]);
        // The group node draws with the file's sockets: scene in, scene and report out.
        deepEqual(
          await page.$$eval(
            'circle[data-node="rig_again"]',
            (cs) => cs.map((c) => `${c.getAttribute("data-side")}:${c.getAttribute("data-socket")}`),
          ),
          ["in:scene", "out:scene", "out:report"],
        );
        const after = await runAndRead();
        deepEqual(after.glb, before.glb);
        equal(after.report, before.report);
        await page.focus("#editor");
        await page.keyboard.press("Control+z");
        await statusReads(page, "Undone: group 6 node(s) into rig_again.json");
        deepEqual(await graphOf(page), ungrouped);
        assert((await Deno.stat(file)).isFile, "the new file stays");
      },
    );

    await t.step(
      "Alt+G moves a literal the group gave a socket into a new graph input: same bytes",
      async () => {
        // notes.json writes the JSON it is given; the graph gives it a literal (escaped: it reads as a
        // reference) and leaves `extra` at the group's default.
        const notes = {
          version: 1,
          inputs: {
            notes: { type: "json", description: "What to write." },
            extra: { type: "json", default: [1, 2] },
          },
          nodes: {
            notes_json: {
              type: "export.json",
              inputs: { json: { $input: "notes" } },
              params: { name: "notes" },
            },
            extra_json: {
              type: "export.json",
              inputs: { json: { $input: "extra" } },
              params: { name: "extra" },
            },
          },
          outputs: { notes: "notes_json.bytes", extra: "extra_json.bytes" },
        };
        const top = {
          version: 1,
          nodes: {
            group: {
              type: "graph",
              graph: "notes.json",
              params: { notes: { $literal: { $input: "x", n: 1 } } },
            },
            write_notes: {
              type: "io.write",
              inputs: { bytes: "group.notes" },
              params: { path: "notes.out.json" },
            },
            write_extra: {
              type: "io.write",
              inputs: { bytes: "group.extra" },
              params: { path: "extra.out.json" },
            },
          },
        };
        await Deno.writeTextFile(join(dir, "graphs", "notes.json"), JSON.stringify(notes));
        const topFile = join(dir, "graphs", "notes_top.json");
        await Deno.writeTextFile(topFile, JSON.stringify(top));
        await page.fill("#graph-path", topFile);
        await page.click("#open-path");
        await page.waitForFunction((p) => document.getElementById("crumbs")!.textContent === p, topFile);
        await checked(page, "valid");
        const written = async () => {
          for (const f of ["notes.out.json", "extra.out.json"]) {
            await Deno.remove(join(out, f)).catch(() => {});
          }
          await page.click("#run");
          await page.waitForFunction(() =>
            /^Run (finished|failed)/.test(document.getElementById("status")!.textContent!)
          );
          assert((await status())!.startsWith("Run finished"), `${await status()}`);
          return [
            await Deno.readTextFile(join(out, "notes.out.json")),
            await Deno.readTextFile(join(out, "extra.out.json")),
          ];
        };
        const before = await written();
        deepEqual(before.map((text) => JSON.parse(text)), [{ $input: "x", n: 1 }, [1, 2]]);
        await select(page, ["group"]);
        await page.keyboard.press("Alt+g");
        await page.waitForSelector('g.node[data-node="notes_json"]');
        await checked(page, "valid");
        equal(
          await status(),
          "Ungrouped group (notes.json) into notes_json, extra_json; the values it gave sockets now in new graph inputs notes, extra",
        );
        const ungrouped = await graphOf(page);
        deepEqual(ungrouped.inputs, {
          notes: { type: "json", default: { $input: "x", n: 1 }, description: "What to write." },
          extra: { type: "json", default: [1, 2], description: "The value group gave its input 'extra'." },
        });
        deepEqual(ungrouped.nodes.notes_json.inputs, { json: { $input: "notes" } });
        deepEqual(await written(), before);
      },
    );

    deepEqual(errors, []);
  } finally {
    await close();
  }
});
