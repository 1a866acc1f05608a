/**
 * Arrange of a selection (`GraphModel.arrange(ids)`) on messy wired graphs as users' files have them
 * (`wired_layouts.ts`), the selection as a user makes one: a chain of wired nodes around one they
 * picked. The laid-out selection covers none of the nodes around it (before, it was laid out from its
 * corner whatever lay there), nor do its own nodes cover each other, and only the selection moves.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { registryCatalogue } from "./registry_catalogue.ts";
import { GraphModel } from "../../studio/web/model.ts";
import { WIDTH } from "../../studio/web/svg.ts";
import type { Graph } from "../../studio/web/types.ts";
import { prng } from "../support/prng.ts";
import { WIRED_STYLES, wiredLayout } from "./wired_layouts.ts";

const open = (graph: Graph) =>
  new GraphModel("graphs/g.json", structuredClone(graph), registryCatalogue, new Map());

/** A chain of 3-10 nodes wired to one picked at random (breadth-first along wires either way). */
function chainSelection(model: GraphModel, seed: number): string[] {
  const random = prng(seed);
  const ids = model.ids();
  const want = 3 + Math.floor(random() * 8);
  const chosen = [ids[Math.floor(random() * ids.length)]];
  const wires = model.wires();
  for (let i = 0; i < chosen.length && chosen.length < want; i++) {
    for (const w of wires) {
      const next = w.from === chosen[i] ? w.to : w.to === chosen[i] ? w.from : undefined;
      if (next && !chosen.includes(next) && chosen.length < want) chosen.push(next);
    }
  }
  return chosen;
}

/** Pairs of one node of `some` and one node of `rest` (or two of `some`) whose drawn boxes overlap. */
function overlaps(model: GraphModel, some: readonly string[]): { outside: number; inside: number } {
  const box = (id: string) => {
    const [x, y] = model.position(id);
    return [x, y, x + WIDTH, y + model.height(id)];
  };
  const meet = (a: number[], b: number[]) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const rest = model.ids().filter((id) => !some.includes(id));
  let outside = 0, inside = 0;
  for (const [i, id] of some.entries()) {
    for (const other of rest) if (meet(box(id), box(other))) outside++;
    for (const other of some.slice(i + 1)) if (meet(box(id), box(other))) inside++;
  }
  return { outside, inside };
}

Deno.test("arrange a selection: clear of the nodes around it, on messy wired graphs (held-out seeds)", () => {
  let files = 0, covering = 0;
  for (const style of WIRED_STYLES) {
    for (let seed = 301; seed <= 360; seed++) {
      const model = open(wiredLayout(style, seed));
      const some = chainSelection(model, seed);
      const rest = model.ids().filter((id) => !some.includes(id));
      const was = new Map(rest.map((id) => [id, model.position(id)]));
      model.arrange(some);
      for (const id of rest) deepEqual(model.position(id), was.get(id), `${style} ${seed}: ${id} stays`);
      const now = overlaps(model, some);
      equal(now.inside, 0, `${style} ${seed}: the selection's own nodes apart`);
      if (now.outside) covering++;
      files++;
    }
  }
  console.log(`arrange a selection, ${files} files: ${covering} with an arranged node over another`);
  equal(files, 300);
  equal(covering, 0, `${covering} of ${files} selections landed on other nodes`);
});

Deno.test("arrange a selection that is clear where it is stays there", () => {
  // Two wired nodes far below the rest: laid out from their corner, nothing moves them further.
  const model = open(wiredLayout("row", 11));
  const some = chainSelection(model, 11).slice(0, 2);
  const far = Math.max(...model.ids().map((id) => model.position(id)[1] + model.height(id))) + 500;
  model.move(some, 0, far - Math.min(...some.map((id) => model.position(id)[1])));
  const corner = [Math.min(...some.map((id) => model.position(id)[0])), far];
  model.arrange(some);
  deepEqual([
    Math.min(...some.map((id) => model.position(id)[0])),
    Math.min(...some.map((id) => model.position(id)[1])),
  ], corner);
  assert(overlaps(model, some).outside === 0);
});
