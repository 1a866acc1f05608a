/**
 * Nodes a file puts wholly under others (`messy_layouts.ts`: every node at `[0, 0]`, a pasted `ui`
 * block, a row with repeats, a grid snap, half laid out) are laid out below the rest on open, so the
 * mouse reaches every node; the file counts as unchanged (no `*`, nothing to undo). Measured on the
 * generator's seeds 1001–1040 and 2001–2040 before the change: 178 of 280 files each, 2,460 and
 * 2,490 of 7,280 nodes wholly covered; after: none. These are held-out seeds 3001–3040.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { registryCatalogue } from "./registry_catalogue.ts";
import { layoutMissing, positionOf } from "../../studio/web/layout.ts";
import { GraphModel } from "../../studio/web/model.ts";
import { hiddenNodes } from "../../studio/web/stacks.ts";
import type { Catalogue, Graph } from "../../studio/web/types.ts";
import { LAYOUT_STYLES, messyLayout } from "./messy_layouts.ts";

const catalogue: Catalogue = registryCatalogue;

/** The nodes of `model` wholly under others where `graph` places them. */
const hiddenIn = (model: GraphModel, graph: Graph) =>
  hiddenNodes(model.ids().map((id) => ({ id, at: positionOf(graph, id), height: model.height(id) })));

Deno.test("stacks: every node of a messy file is in reach of the mouse once opened, the file unchanged", () => {
  let before = 0, files = 0, stackedFiles = 0;
  for (let seed = 3001; seed <= 3040; seed++) {
    for (const style of LAYOUT_STYLES) {
      const { graph } = messyLayout(style, 6 + (seed % 5) * 9, seed);
      // As the editor drew the file before: its positions, and the layout of the nodes without one.
      const asFiled = structuredClone(graph);
      layoutMissing(asFiled);
      const model = new GraphModel("graphs/g.json", graph, catalogue, new Map());
      const was = hiddenIn(model, asFiled);
      before += was.length;
      if (was.length) stackedFiles++;
      deepEqual([...model.unstacked].sort(), [...was].sort(), `${style} seed ${seed}: the covered ones move`);
      deepEqual(hiddenIn(model, model.graph), [], `${style} seed ${seed}: none covered now`);
      const moved = new Set(model.unstacked);
      for (const id of model.ids().filter((id) => !moved.has(id))) {
        deepEqual(positionOf(model.graph, id), positionOf(asFiled, id), `${style} seed ${seed}: ${id} stays`);
      }
      equal(model.dirty, false, `${style} seed ${seed}: not an unsaved edit`);
      equal(model.steps("undo"), 0, `${style} seed ${seed}: nothing to undo`);
      files++;
    }
  }
  equal(files, 280);
  // The generator's stacks are there to be found (the test fails if it stops making them).
  assert(stackedFiles > 150 && before > 2000, `${stackedFiles} files, ${before} nodes`);
});

Deno.test("stacks: a node is hidden only when later nodes cover all of it, together or alone", () => {
  const box = (id: string, x: number, y: number, height: number) => ({ id, at: [x, y] as const, height });
  // Two later nodes, one over its top and one over its bottom, meet at y = 50: together they cover it.
  deepEqual(hiddenNodes([box("a", 0, 0, 100), box("b", 0, -10, 60), box("c", 0, 50, 80)]), ["a"]);
  // A gap between them (y 50–60): a strip of it can be clicked.
  deepEqual(hiddenNodes([box("a", 0, 0, 100), box("b", 0, -10, 60), box("c", 0, 60, 80)]), []);
  // Same spot and size: the later one hides it; one unit of it shows below: not hidden.
  deepEqual(hiddenNodes([box("a", 0, 0, 100), box("b", 0, 0, 100)]), ["a"]);
  deepEqual(hiddenNodes([box("a", 0, 0, 101), box("b", 0, 0, 100)]), []);
  // Under a heap of more than 24, judged at points spread over it: a heap of 40 over it hides it, the
  // same heap with a gap down the middle does not.
  const heap = (gap: number) =>
    Array.from({ length: 40 }, (_, i) => box(`h${i}`, i % 2 ? 100 + gap : -100, (i >> 1) * 5 - 50, 200));
  deepEqual(hiddenNodes([box("a", 0, 0, 100), ...heap(0)]), ["a"]);
  deepEqual(hiddenNodes([box("a", 0, 0, 100), ...heap(30)]), []);
  // Far apart (a scatter of 1e6 coordinates): no neighbours.
  deepEqual(hiddenNodes([box("a", 1e6, -1e6, 100), box("b", -1e6, 1e6, 100)]), []);
});

Deno.test("stacks: Revert to a file that stacks its nodes lays them out again, unchanged as reverted", () => {
  const { graph } = messyLayout("zeros", 12, 5);
  const model = new GraphModel("graphs/g.json", structuredClone(graph), catalogue, new Map());
  model.move([Object.keys(graph.nodes)[0]], 500, 0);
  equal(model.dirty, true);
  model.revertTo(structuredClone(graph));
  equal(model.dirty, false);
  deepEqual(hiddenIn(model, model.graph), []);
  assert(model.unstacked.length >= 12, `${model.unstacked.length} laid out`);
});
