/** A custom node module: a graph loads it with `"modules": ["./report_bounds.ts"]`. */
import { defineNode, type Plugin } from "../runtime/mod.ts";

export const reportBounds = defineNode({
  type: "mesh.report_bounds", // category.name
  version: 1, // bump whenever the output may change: cached results then miss
  doc: "Reports each mesh's bounding box, in the mesh's own space.",
  inputs: { scene: { type: "scene", doc: "Any scene." } },
  outputs: { bounds: { type: "json", doc: "Mesh name → { min, max }." } },
  params: { digits: { type: "number", default: 4, min: 0, max: 9, integer: true, doc: "Decimals kept." } },
  run({ inputs, params }) {
    const round = (v: number) => Number(v.toFixed(params.digits));
    const bounds: Record<string, { min: number[]; max: number[] }> = {};
    for (const mesh of inputs.scene.getRoot().listMeshes()) {
      const positions = mesh.listPrimitives().flatMap((p) => p.getAttribute("POSITION") ?? []);
      if (!positions.length) continue;
      const min = [0, 1, 2].map((i) => Math.min(...positions.map((a) => a.getMin([])[i])));
      const max = [0, 1, 2].map((i) => Math.max(...positions.map((a) => a.getMax([])[i])));
      bounds[mesh.getName()] = { min: min.map(round), max: max.map(round) };
    }
    return { bounds };
  },
});

export default { nodes: [reportBounds] } satisfies Plugin;
