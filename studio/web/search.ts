/// <reference lib="dom" />
/**
 * The add-node search box: the node types of the graph shown (the same catalogue as
 * `partgraph nodes`, plus the graph's own modules' types), filtered by type or doc as typed; a click
 * or Enter adds the first.
 *
 * @module
 */
import type { Catalogue } from "./types.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** Wires the search box: `catalogue` gives the types the graph shown can use, `add` adds one. */
export function setUpSearch(catalogue: () => Catalogue, add: (type: string) => void): void {
  const input = $<HTMLInputElement>("node-search");
  const results = $("node-results");
  const list = () => {
    const q = input.value.trim().toLowerCase();
    const hits = catalogue().nodes.filter((n) => !q || n.type.includes(q) || n.doc.toLowerCase().includes(q));
    results.replaceChildren(
      ...hits.slice(0, 30).map((n) => {
        const li = document.createElement("li");
        li.textContent = n.type;
        li.title = n.doc;
        li.dataset.type = n.type;
        li.onclick = () => add(n.type);
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
