/// <reference lib="dom" />
/**
 * The add-node search box: the node types of the graph shown (the same catalogue as
 * `partgraph nodes`, plus the graph's own modules' types), filtered by type or doc as typed, types named
 * by it first; a click or Enter adds the first.
 *
 * @module
 */
import type { Catalogue } from "./types.ts";
import { clickable } from "./keyboard.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** Wires the search box: `catalogue` gives the types the graph shown can use, `add` adds one. */
export function setUpSearch(catalogue: () => Catalogue, add: (type: string) => void): void {
  const input = $<HTMLInputElement>("node-search");
  const results = $("node-results");
  const list = () => {
    const q = input.value.trim().toLowerCase();
    // Types named by what was typed come first (the exact one, then those containing it), then types
    // whose doc mentions it: typing `export.gltf` must add that node, not one whose doc names it.
    const rank = (n: { type: string; doc: string }) =>
      !q ? 0 : n.type === q ? 0 : n.type.includes(q) ? 1 : n.doc.toLowerCase().includes(q) ? 2 : 3;
    const hits = catalogue().nodes.filter((n) => rank(n) < 3).sort((a, b) => rank(a) - rank(b));
    results.replaceChildren(
      ...hits.slice(0, 30).map((n) => {
        const li = document.createElement("li");
        li.textContent = n.type;
        li.title = n.doc;
        li.dataset.type = n.type;
        clickable(li, () => add(n.type));
        return li;
      }),
    );
  };
  input.oninput = list;
  input.onkeydown = (e) => {
    const first = results.querySelector("li");
    if (e.key === "Enter" && first) add(first.dataset.type!);
  };
  list();
}
