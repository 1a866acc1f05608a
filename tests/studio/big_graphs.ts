/**
 * Large graph files as scripts and batch tools write them, for the studio's speed on big graphs
 * (`big_graph_bench.ts`): thousands of model pipelines (read → decode → rig steps → export → write),
 * some reads feeding several pipelines, placed as their tools leave them — no positions at all
 * (`script`), scattered at random over a small square so they heap on each other (`scatter`), or
 * laid out one pipeline a row over a huge canvas (`spread`). Seeded: each seed a new file.
 *
 * @module
 */
import { prng } from "../support/prng.ts";
import type { Graph } from "../../studio/web/types.ts";

/** The ways of placing nodes the generator knows. */
export const BIG_STYLES = ["script", "scatter", "spread"] as const;

/** One pipeline's node types, in order; each feeds the next through its first socket. */
const PIPELINE = [
  ["read", "io.read", "", "bytes"],
  ["decode", "decode.auto", "bytes", "scene"],
  ["panels", "rig.detect_panels", "scene", "scene"],
  ["fit", "rig.fit_hinge", "scene", "scene"],
  ["side", "rig.assign_side", "scene", "scene"],
  ["pivot", "rig.insert_pivot", "scene", "scene"],
  ["export", "export.gltf", "scene", "bytes"],
  ["write", "io.write", "bytes", "path"],
] as const;

/** A graph of about `count` nodes, pipelines of {@link PIPELINE}, placed as `style` says. */
export function bigGraph(style: typeof BIG_STYLES[number], count: number, seed: number): Graph {
  const random = prng(seed);
  const nodes: Graph["nodes"] = {};
  const at: Record<string, [number, number]> = {};
  const pipelines = Math.ceil(count / PIPELINE.length);
  const reads: string[] = [];
  for (let p = 0; p < pipelines; p++) {
    // One in five pipelines reads another's file (a batch sharing its sources): no read of its own.
    const shared = reads.length && random() < 0.2 ? reads[Math.floor(random() * reads.length)] : undefined;
    if (!shared) reads.push(`read_${p}`);
    let previous = shared;
    PIPELINE.forEach(([name, type, input, output], step) => {
      if (step === 0 && shared) return;
      const id = `${name}_${p}`;
      nodes[id] = { type };
      if (type === "io.read") nodes[id].params = { path: `models/part_${p}.glb` };
      if (type === "io.write") nodes[id].params = { path: `rigged/part_${p}.glb` };
      if (previous) nodes[id].inputs = { [input]: `${previous}.${PIPELINE[step - 1][3]}` };
      previous = id;
      void output;
      if (style === "scatter") at[id] = [Math.round(random() * 1000), Math.round(random() * 1000)];
      if (style === "spread") {
        at[id] = [step * 260 + Math.round(random() * 30), p * 190 + Math.round(random() * 20)];
      }
    });
  }
  const graph: Graph = { version: 1, nodes };
  if (style !== "script") graph.ui = { nodes: at, inputs: [-300, 0], outputs: [PIPELINE.length * 260, 0] };
  return graph;
}
