/**
 * The keyboard reaches every node of graphs laid out as tools and users leave them (`messy_layouts.ts`:
 * no positions, every node at `[0, 0]`, half laid out, a pasted `ui` block, a row with repeats, a
 * scatter of huge numbers, a grid snap): from the first node, the arrows alone reach every node, and
 * PageDown visits each node once before coming round. Before the stack rule, 157 of 280 such files
 * (seeds 1001–1040) had nodes no arrow reached — 2,346 of 7,280 nodes, every one in a stack.
 */
import { deepEqual, equal } from "node:assert/strict";
import { registryCatalogue } from "./registry_catalogue.ts";
import { nextNode, pageNode } from "../../studio/web/editor_nav.ts";
import { GraphModel } from "../../studio/web/model.ts";
import type { Catalogue } from "../../studio/web/types.ts";
import { LAYOUT_STYLES, messyLayout } from "./messy_layouts.ts";

const catalogue: Catalogue = registryCatalogue;

const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];

/** The nodes the arrows reach from the first one (nothing selected, any arrow). */
function reached(model: GraphModel): Set<string> {
  const start = nextNode(model, undefined, "ArrowRight")!;
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const id = queue.shift()!;
    for (const key of ARROWS) {
      const next = nextNode(model, id, key);
      if (next !== undefined && !seen.has(next)) seen.add(next), queue.push(next);
    }
  }
  return seen;
}

Deno.test("keyboard: the arrows reach every node, and PageDown each once, however the file lays them out", () => {
  const missed: string[] = [];
  let files = 0;
  for (let seed = 1001; seed <= 1040; seed++) {
    for (const style of LAYOUT_STYLES) {
      const { graph } = messyLayout(style, 6 + (seed % 5) * 9, seed);
      const model = new GraphModel("graphs/g.json", graph, catalogue, new Map());
      const ids = model.ids();
      const seen = reached(model);
      if (seen.size !== ids.length) {
        missed.push(`${style} seed ${seed}: ${ids.length - seen.size} of ${ids.length}`);
      }
      const visits: string[] = [];
      let at: string | undefined;
      for (let i = 0; i < ids.length; i++) visits.push(at = pageNode(model, at, "PageDown"));
      deepEqual([...visits].sort(), [...ids].sort(), `${style} seed ${seed}: PageDown visits each node once`);
      equal(pageNode(model, at, "PageDown"), visits[0], "and comes round");
      equal(pageNode(model, visits[0], "PageUp"), at, "PageUp goes back");
      files++;
    }
  }
  equal(files, 280);
  deepEqual(missed, [], `${missed.length} files with nodes the arrows never reach`);
});

Deno.test("keyboard: nodes on one spot are walked in file order, Right forward and Left back", () => {
  const { graph } = messyLayout("zeros", 4, 7);
  const model = new GraphModel("graphs/g.json", graph, catalogue, new Map());
  // Opening lays out nodes the file stacks (`stacks.ts`); nodes dragged onto one spot stack again.
  model.graph.ui = {
    inputs: [0, 0],
    outputs: [0, 0],
    nodes: Object.fromEntries(Object.keys(graph.nodes).map((id) => [id, [0, 0]])),
  };
  // Group Input, the four nodes and Group Output: all at [0, 0], in the file's order.
  const ids = model.ids();
  let at = nextNode(model, undefined, "ArrowRight")!;
  equal(at, ids[0]);
  for (const id of ids.slice(1)) equal(at = nextNode(model, at, "ArrowRight")!, id);
  equal(nextNode(model, at, "ArrowRight"), undefined, "past the last: nothing that way");
  equal(nextNode(model, at, "ArrowLeft"), ids[ids.length - 2]);
});
