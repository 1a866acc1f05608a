/**
 * Arrange (`studio/web/arrange.ts`, Shift+L) on wired graphs as users' files place them
 * (`wired_layouts.ts`): wires crossing and nodes overlapping as the editor draws the file once opened,
 * counted before and after; the layout changes positions only, is one undo step and is the same
 * every time. Developed on seeds 1–20; these are held-out seeds 101–140.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { registryCatalogue } from "./registry_catalogue.ts";
import { GraphModel } from "../../studio/web/model.ts";
import { HEADER, ROW, WIDTH } from "../../studio/web/svg.ts";
import type { Graph } from "../../studio/web/types.ts";
import { WIRED_STYLES, wiredLayout } from "./wired_layouts.ts";

const open = (graph: Graph) =>
  new GraphModel("graphs/g.json", structuredClone(graph), registryCatalogue, new Map());

/** Pairs of wires that cross (drawn straight from socket to socket), and pairs of nodes that overlap. */
function tangles(model: GraphModel): { crossings: number; overlaps: number } {
  const socket = (id: string, name: string, side: "in" | "out"): [number, number] => {
    const shape = model.shape(id);
    const i = (side === "in" ? shape.inputs : shape.outputs).findIndex((s) => s.name === name);
    const [x, y] = model.position(id);
    return [x + (side === "in" ? 0 : WIDTH), y + (i < 0 ? HEADER / 2 : HEADER + 14 + i * ROW)];
  };
  const lines = model.wires().map((
    w,
  ) => [socket(w.from, w.fromSocket, "out"), socket(w.to, w.toSocket, "in")]);
  const side = (a: number[], b: number[], c: number[]) =>
    Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  let crossings = 0;
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const [[a, b], [c, d]] = [lines[i], lines[j]];
      // Wires sharing an end (one output feeding two inputs) do not cross there.
      if ([a, b].some((p) => [c, d].some((q) => p[0] === q[0] && p[1] === q[1]))) continue;
      if (side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0) crossings++;
    }
  }
  const boxes = model.ids().map((id) => {
    const [x, y] = model.position(id);
    return [x, y, x + WIDTH, y + model.height(id)];
  });
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]) overlaps++;
    }
  }
  return { crossings, overlaps };
}

Deno.test("arrange: messy wired graphs cross fewer wires and no node covers another", () => {
  const before = { crossings: 0, overlaps: 0 }, after = { crossings: 0, overlaps: 0 };
  let files = 0, worse = 0;
  const byStyle: string[] = [];
  for (const style of WIRED_STYLES) {
    const styleBefore = { crossings: 0, overlaps: 0 }, styleAfter = { crossings: 0, overlaps: 0 };
    for (let seed = 101; seed <= 140; seed++) {
      const model = open(wiredLayout(style, seed));
      const was = tangles(model);
      assert(model.arrange([]) > 0, `${style} seed ${seed}: nodes moved`);
      const now = tangles(model);
      equal(now.overlaps, 0, `${style} seed ${seed}: no node over another`);
      if (now.crossings > was.crossings) worse++;
      for (
        const [total, t] of [[before, was], [after, now], [styleBefore, was], [styleAfter, now]] as const
      ) {
        total.crossings += t.crossings;
        total.overlaps += t.overlaps;
      }
      files++;
    }
    byStyle.push(
      `${style} ${styleBefore.crossings}→${styleAfter.crossings} crossings, ` +
        `${styleBefore.overlaps}→${styleAfter.overlaps} overlaps`,
    );
  }
  console.log(
    `arrange, ${files} files: ${before.crossings} → ${after.crossings} crossings, ${before.overlaps} → ` +
      `${after.overlaps} overlapping pairs; ${worse} files cross more (${byStyle.join("; ")})`,
  );
  equal(files, 200);
  assert(before.crossings > 100 && before.overlaps > 100, "the generator makes tangles to undo");
  assert(after.crossings * 4 < before.crossings, `${before.crossings} → ${after.crossings} crossings`);
});

Deno.test("arrange: positions only, one undo step, the same every time; the selection alone", () => {
  const graph = wiredLayout("edited", 7);
  const model = open(graph);
  const opened = structuredClone(model.graph);
  const steps = model.steps("undo");
  model.arrange([]);
  equal(model.steps("undo"), steps + 1, "one undo step");
  const { ui: _arranged, ...rest } = model.graph;
  const { ui: _opened, ...was } = opened;
  deepEqual(rest, was, "only positions change");
  // A second page opening the same file arranges it the same way.
  const again = open(graph);
  again.arrange([]);
  deepEqual(again.graph.ui, model.graph.ui);
  model.step("undo");
  deepEqual(model.graph, opened, "undo restores the positions");
  // Arranging some nodes moves only them.
  const some = Object.keys(model.graph.nodes).slice(0, 6);
  model.arrange(some);
  for (const id of model.ids().filter((id) => !some.includes(id))) {
    deepEqual(model.position(id), open(opened).position(id), `${id} stays`);
  }
});
