/// <reference lib="dom" />
/**
 * The node editor with the keyboard only, in chromium (before, the keyboard could not select a node
 * on the canvas nor draw a wire): the arrows move the selection to the nearest node that way by
 * position, PageDown and PageUp through every node in reading order, Shift+arrows move it, Shift+PageDown adds to the selection (A all, Alt+A none), the status
 * bar says which node
 * and its sockets, Enter goes to its parameters, and C opens
 * a dialog whose two lists choose an output and an input; Connect makes the wire (Undo takes it back)
 * and Disconnect removes it. No mouse event is sent.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing } from "../../studio/chromium.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";

const missing = browserMissing();
if (missing) console.warn(missing);

type Studio = { studio: { editor: { selection: string[]; model: { graph: Record<string, unknown> } } } };

const selection = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Studio).studio.editor.selection.join(","));
const graphOf = (page: Page) =>
  page.evaluate(() => structuredClone((globalThis as unknown as Studio).studio.editor.model.graph));
const focused = (page: Page) =>
  page.evaluate(() => {
    const at = document.activeElement;
    return at ? `${at.tagName.toLowerCase()}#${at.id}` : "";
  });

/** The wire the test makes (a straight line here: "attached", as Playwright calls it hidden). */
const WIRE = 'path.wire[data-wire="fighter.scene->panels.scene"]';

/** Presses `key` and returns the node selected after it. */
async function press(page: Page, key: string): Promise<string> {
  await page.keyboard.press(key);
  return await selection(page);
}

Deno.test({
  name:
    "studio page: keyboard only — arrows select nodes by position, Enter edits, C connects and disconnects",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-keynodes-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "wing.json");
  // Laid out on a grid, as a user leaves a graph: a row, and one node under the second.
  const graph = {
    version: 1,
    nodes: {
      fighter: { type: "demo.fighter" },
      panels: { type: "rig.detect_panels" },
      below: { type: "rig.detect_panels" },
    },
    outputs: {},
    ui: {
      inputs: [0, 0],
      outputs: [900, 0],
      nodes: { fighter: [300, 0], panels: [600, 0], below: [300, 300] },
    },
  };
  await Deno.writeTextFile(file, JSON.stringify(graph));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    // To the editor with Tab, as a keyboard user gets there.
    for (let i = 0; i < 60 && await focused(page) !== "svg#editor"; i++) await page.keyboard.press("Tab");
    equal(await focused(page), "svg#editor");
    equal(await page.getAttribute("#editor", "role"), "application");
    assert((await page.getAttribute("#editor", "aria-label"))!.includes("arrow keys"));
    // Nothing selected: the first node in reading order (top row, leftmost): Group Input.
    equal(await press(page, "ArrowRight"), "@inputs");
    equal(await press(page, "ArrowRight"), "fighter");
    equal(await press(page, "ArrowDown"), "below");
    equal(await press(page, "ArrowUp"), "fighter");
    equal(await press(page, "ArrowRight"), "panels");
    equal(await press(page, "ArrowRight"), "@outputs");
    equal(await press(page, "ArrowRight"), "@outputs"); // nothing further right
    assert((await page.textContent("#status"))!.includes("No node that way"));
    equal(await press(page, "ArrowLeft"), "panels");
    equal(await press(page, "ArrowLeft"), "fighter");
    const said = (await page.textContent("#status"))!;
    assert(said.includes("Selected fighter (demo.fighter)") && said.includes("scene (scene)"), said);
    assert(await page.$eval('g.node[data-node="fighter"]', (n) => n.classList.contains("selected")));

    // Enter: the parameters of the node, and back with Shift+Tab.
    await page.keyboard.press("Enter");
    assert(await page.evaluate(() => document.getElementById("params")!.contains(document.activeElement)));
    for (let i = 0; i < 30 && await focused(page) !== "svg#editor"; i++) {
      await page.keyboard.press("Shift+Tab");
    }
    equal(await focused(page), "svg#editor");

    // C: connect fighter.scene → panels.scene, chosen in the lists.
    await page.keyboard.press("c");
    await page.waitForSelector("dialog#connect-dialog[open]");
    equal(await focused(page), "select#connect-from");
    deepEqual(JSON.parse(await page.$eval("#connect-from", (s) => (s as HTMLSelectElement).value)), [
      "fighter",
      "scene",
    ]);
    await page.keyboard.press("Tab");
    equal(await focused(page), "select#connect-to");
    const inputs = await page.$$eval("#connect-to option", (os) => os.map((o) => o.textContent ?? ""));
    assert(inputs.some((o) => o.startsWith("panels: scene (scene), free")), inputs.join(" | "));
    assert(!inputs.some((o) => o.startsWith("fighter")), "a node is not offered its own inputs");
    const toValue = () => page.$eval("#connect-to", (s) => (s as HTMLSelectElement).value);
    for (let i = 0; i < inputs.length && await toValue() !== '["panels","scene"]'; i++) {
      await page.keyboard.press("ArrowDown");
    }
    equal(await toValue(), '["panels","scene"]');
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter"); // Connect
    await page.waitForSelector("dialog#connect-dialog", { state: "detached" });
    await page.waitForSelector(WIRE, { state: "attached" });
    const wired = await graphOf(page) as { nodes: { panels: { inputs?: Record<string, string> } } };
    deepEqual(wired.nodes.panels.inputs, { scene: "fighter.scene" });
    equal(await focused(page), "svg#editor");
    assert((await page.textContent("#status"))!.includes("Connected fighter.scene → panels.scene"));
    // Undo takes it back, Redo brings it again.
    await page.keyboard.press("Control+z");
    await page.waitForSelector(WIRE, { state: "detached" });
    await page.keyboard.press("Control+Shift+z");
    await page.waitForSelector(WIRE, { state: "attached" });

    // C again: the input now says where it is wired from, and Disconnect removes the wire.
    await page.keyboard.press("c");
    await page.waitForSelector("dialog#connect-dialog[open]");
    await page.keyboard.press("Tab");
    for (let i = 0; i < inputs.length && await toValue() !== '["panels","scene"]'; i++) {
      await page.keyboard.press("ArrowDown");
    }
    const option = await page.$eval(
      "#connect-to",
      (s) => (s as HTMLSelectElement).selectedOptions[0].textContent,
    );
    assert(option!.includes("now from fighter.scene"), option!);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab"); // past Connect, to Disconnect input
    await page.keyboard.press("Enter");
    await page.waitForSelector(WIRE, { state: "detached" });
    const unwired = await graphOf(page) as { nodes: { panels: { inputs?: Record<string, string> } } };
    equal(unwired.nodes.panels.inputs?.scene, undefined);
    // Escape closes the dialog with nothing changed.
    await page.keyboard.press("c");
    await page.waitForSelector("dialog#connect-dialog[open]");
    await page.keyboard.press("Escape");
    await page.waitForSelector("dialog#connect-dialog", { state: "detached" });
    equal(await focused(page), "svg#editor");
    deepEqual(await graphOf(page), unwired);
    // PageDown and PageUp: every node in reading order (the top row, then the node below), round.
    equal(await selection(page), "fighter");
    equal(await press(page, "PageDown"), "panels");
    equal(await press(page, "PageDown"), "@outputs");
    equal(await press(page, "PageDown"), "below");
    equal(await press(page, "PageDown"), "@inputs");
    equal(await press(page, "PageUp"), "below");
    // Shift+arrows move it (one undo step a press); Undo puts it back.
    const at = () => page.evaluate(() => (globalThis as unknown as Studio).studio.editor.model.graph.ui);
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Shift+ArrowUp");
    const moved = (await at() as { nodes: Record<string, number[]> }).nodes.below;
    deepEqual(moved, [340, 280]);
    await page.keyboard.press("Control+z");
    deepEqual((await at() as { nodes: Record<string, number[]> }).nodes.below, [340, 300]);
    equal(await selection(page), "below");
    // Several by keyboard: Shift+PageDown adds the next node, A selects all, Alt+A none.
    equal(await press(page, "Shift+PageDown"), "below,@inputs");
    equal(await press(page, "Shift+PageDown"), "below,@inputs,fighter");
    assert((await page.textContent("#status"))!.includes("(3 selected)"));
    equal((await press(page, "a")).split(",").length, 5, "the three nodes, Group Input and Group Output");
    equal(await press(page, "Alt+a"), "");
    deepEqual(errors, []);
  } finally {
    await close();
  }
});

Deno.test({
  name:
    "studio page: the connect dialog shows names from the file as text — bidi controls named, long names inside",
  ignore: !!missing,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const dir = await tempDir({ prefix: "studio-keynames-" });
  await Deno.mkdir(join(dir, "graphs"));
  const file = join(dir, "graphs", "names.json");
  // As files arrive: an id with a right-to-left override (it reads "…exe.png"), an emoji id, a
  // 200-character id a script made from a path.
  const spoof = "abc\u202Egnp.exe", long = `part_${"x".repeat(195)}`;
  const graph = {
    version: 1,
    nodes: {
      [spoof]: { type: "demo.fighter" },
      "🛩️": { type: "rig.detect_panels" },
      [long]: { type: "rig.detect_panels" },
    },
    ui: {
      inputs: [0, 0],
      outputs: [900, 0],
      nodes: { [spoof]: [300, 0], "🛩️": [600, 0], [long]: [300, 300] },
    },
  };
  await Deno.writeTextFile(file, JSON.stringify(graph));
  const { studio, page, errors, close } = await openStudio(dir, false);
  try {
    await page.goto(`${studio.url}?graph=${encodeURIComponent(file)}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.focus("#editor");
    equal(await press(page, "ArrowRight"), "@inputs");
    equal(await press(page, "ArrowRight"), spoof);
    await page.keyboard.press("c");
    await page.waitForSelector("dialog#connect-dialog[open]");
    const texts = await page.$$eval("#connect-dialog option", (os) => os.map((o) => o.textContent ?? ""));
    assert(texts.some((t) => t.startsWith("abc[U+202E]gnp.exe.scene (scene)")), texts.join(" | "));
    assert(!texts.some((t) => t.includes("\u202E")), "no raw override in the lists");
    assert(texts.some((t) => t.startsWith("🛩️: scene (scene), free")), texts.join(" | "));
    assert(texts.some((t) => t.startsWith(`${long}: scene`)), "the long id in full");
    const box = (await page.locator("#connect-dialog").boundingBox())!;
    const width = page.viewportSize()!.width;
    assert(box.x >= 0 && box.x + box.width <= width, `dialog ${JSON.stringify(box)} in a ${width} px window`);
    // Connected to the 200-character node, by keyboard.
    await page.keyboard.press("Tab");
    const toValue = () => page.$eval("#connect-to", (s) => (s as HTMLSelectElement).value);
    for (let i = 0; i < texts.length && await toValue() !== JSON.stringify([long, "scene"]); i++) {
      await page.keyboard.press("ArrowDown");
    }
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForSelector("dialog#connect-dialog", { state: "detached" });
    const wired = await graphOf(page) as { nodes: Record<string, { inputs?: Record<string, string> }> };
    deepEqual(wired.nodes[long].inputs, { scene: `${spoof}.scene` });
    deepEqual(errors, []);
  } finally {
    await close();
  }
});
