/**
 * Wired graphs as users' files have them, for Arrange (`studio/web/arrange.ts`): a few model
 * pipelines (read → decode → rig steps → export → write), reads shared between pipelines, a preset
 * applied from another pipeline's scene, graph inputs and outputs, a report branching off, and nodes
 * added later at the end of the file — placed as tools leave them: none at all (a script), every
 * node at `[0, 0]`, scattered over a small square, in file order along one row, or laid out once
 * and then edited (half the nodes dragged somewhere else). Seeded: each seed a new file.
 *
 * @module
 */
import { prng } from "../support/prng.ts";
import type { Graph } from "../../studio/web/types.ts";

/** The ways of placing nodes the generator knows. */
export const WIRED_STYLES = ["script", "zeros", "scatter", "row", "edited"] as const;

/** A wired graph of a few pipelines, its nodes placed as `style` says. */
export function wiredLayout(style: typeof WIRED_STYLES[number], seed: number): Graph {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const nodes: Graph["nodes"] = {};
  const scenes: string[] = [];
  const reads: string[] = [];
  const pipelines = 2 + Math.floor(random() * 5);
  const outputs: Record<string, string> = {};
  for (let p = 0; p < pipelines; p++) {
    const read = reads.length && random() < 0.3 ? pick(reads) : `read_${p}`;
    if (!reads.includes(read)) {
      nodes[read] = { type: "io.read", params: { path: `models/m${p}.glb` } };
      reads.push(read);
    }
    let scene = `decode_${p}.scene`;
    nodes[`decode_${p}`] = { type: "decode.auto", inputs: { bytes: `${read}.bytes` } };
    const steps = ["rig.detect_panels", "rig.fit_hinge", "rig.assign_side", "rig.insert_pivot"]
      .filter(() => random() < 0.7);
    for (const [i, type] of steps.entries()) {
      const id = `${type.split(".")[1]}_${p}_${i}`;
      nodes[id] = { type, inputs: { scene } };
      scene = `${id}.scene`;
    }
    if (scenes.length && random() < 0.4) {
      // A preset from another pipeline's scene: a wire across the graph.
      nodes[`preset_${p}`] = { type: "dson.apply_preset", inputs: { scene, preset: pick(scenes) } };
      scene = `preset_${p}.scene`;
    }
    scenes.push(scene);
    nodes[`export_${p}`] = { type: "export.gltf", inputs: { scene } };
    nodes[`write_${p}`] = { type: "io.write", inputs: { bytes: `export_${p}.bytes` } };
    if (random() < 0.5) outputs[`glb_${p}`] = `export_${p}.bytes`;
    if (random() < 0.3) nodes[`report_${p}`] = { type: "rig.report", inputs: { scene } };
  }
  const graph: Graph = { version: 1, nodes, outputs };
  // Nodes added later go at the end of the file whatever they feed (a script's second pass).
  const ids = Object.keys(nodes);
  for (let i = ids.length - 1; i > 0; i--) {
    if (random() < 0.15) {
      const [node] = [nodes[ids[i]]];
      delete nodes[ids[i]];
      nodes[ids[i]] = node;
    }
  }
  if (style === "script") return graph;
  const order = Object.keys(nodes);
  const at = (i: number): [number, number] => {
    switch (style) {
      case "zeros":
        return [0, 0];
      case "scatter":
        return [Math.round(random() * 600), Math.round(random() * 400)];
      case "row":
        return [i * 220, 0];
      case "edited":
        // Laid out in columns once, then half the nodes dragged about.
        return random() < 0.5
          ? [(i % 4) * 260, Math.floor(i / 4) * 170]
          : [Math.round(random() * 1200 - 200), Math.round(random() * 900 - 100)];
    }
  };
  graph.ui = {
    nodes: Object.fromEntries(order.map((id, i) => [id, at(i)])),
    inputs: style === "zeros" ? [0, 0] : [-300, 0],
    outputs: style === "zeros" ? [0, 0] : at(order.length),
  };
  return graph;
}
