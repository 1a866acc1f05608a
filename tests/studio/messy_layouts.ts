/**
 * Node positions as tools and users leave them in graph files, for the keyboard's arrow navigation
 * (`editor_nav.ts`): none at all (a script), every node at `[0, 0]` (an exporter's default), some laid
 * out and some not (nodes a script added to a hand-laid graph), a laid-out part pasted twice at the same
 * spots (a merge, a copy of the `ui` block), one long row with repeats, a scatter of huge, negative and
 * fractional numbers, and a grid snap that lands nodes on each other. Seeded: each seed a new file.
 *
 * @module
 */
import { prng } from "../support/prng.ts";
import type { Graph } from "../../studio/web/types.ts";

/** The ways of positioning nodes the generator knows. */
export const LAYOUT_STYLES = ["script", "zeros", "partial", "merged", "row", "scatter", "snapped"] as const;

/** One generated file: how its positions were written, and the graph. */
export interface MessyLayout {
  readonly style: typeof LAYOUT_STYLES[number];
  readonly graph: Graph;
}

/** A chain of `count` nodes (a read, decodes and rig steps, wired) with positions written as `style`. */
export function messyLayout(style: MessyLayout["style"], count: number, seed: number): MessyLayout {
  const random = prng(seed);
  const nodes: Graph["nodes"] = {};
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${["read", "decode", "panels", "fit", "export"][i % 5]}_${Math.floor(random() * 1e4)}_${i}`;
    const type = ["io.read", "decode.auto", "rig.detect_panels", "rig.fit_hinge", "export.gltf"][i % 5];
    nodes[id] = { type };
    ids.push(id);
  }
  const at = (i: number): [number, number] => {
    switch (style) {
      case "zeros":
        return [0, 0];
      case "partial":
      case "script":
        return [(i % 6) * 240, Math.floor(i / 6) * 180];
      case "merged":
        // The second half sits on the first's spots, as a pasted copy of its ui block leaves it.
        return [(i % Math.ceil(count / 2) % 5) * 240, Math.floor((i % Math.ceil(count / 2)) / 5) * 200];
      case "row":
        return [Math.floor(random() * count * 0.7) * 220, 100];
      case "scatter": {
        const big = random() < 0.3 ? 1e6 : 1e3;
        return [(random() - 0.5) * big, Math.round((random() - 0.5) * big * 100) / 100];
      }
      case "snapped":
        return [Math.round(random() * 2000 / 500) * 500, Math.round(random() * 1500 / 500) * 500];
    }
  };
  const graph: Graph = { version: 1, nodes };
  if (style !== "script") {
    const positioned = ids.filter(() => style !== "partial" || random() < 0.5);
    graph.ui = { nodes: Object.fromEntries(positioned.map((id) => [id, at(ids.indexOf(id))])) };
    if (style === "zeros") Object.assign(graph.ui, { inputs: [0, 0], outputs: [0, 0] });
  }
  return { style, graph };
}
