/**
 * decode.gltf and export.gltf on files of very many nodes do a constant amount of work per node, counted
 * (not timed): the elements glTF-Transform's graph hands back (`listRefs`: children, a root's node list;
 * `listParentEdges`: a node's parents) per node stay the same from 2,000 to 20,000 nodes, so no pass is
 * nested in another, and stay within a budget, so no extra pass over every node creeps in. A million-node
 * file pays each pass a million times (a decode and export of one took about a minute, CPU).
 *
 * Measured on seed 5 before the change: export 23.0 (flat), 30.0 (one parent), 30.5 (CAD) reads per
 * node — the export worked out every written name twice (an unnamed mesh's name asked for a message
 * never written) and walked every node for armatures in files without a skin; after: 10.0, 11.0, 11.3.
 * Decode: 5.0, 6.0, 6.0 both.
 */
import assert from "node:assert/strict";
import { Graph, Property } from "@gltf-transform/core";
import { decodeGltf } from "../../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { runNode } from "../../../support/context.ts";
import { manyNodesGlb, type ManyNodesShape } from "./many_nodes.ts";

/**
 * Reads per node above which a pass over every node was added (after the change: 6 decode, 11.3 export;
 * decode 7 since the read scene's empty collections are shared, `leanDocument`'s one list of the nodes).
 */
const DECODE_BUDGET = 9, EXPORT_BUDGET = 15;

/** Graph reads per node of decoding `bytes`, and of exporting the scene. */
async function readsPerNode(bytes: Uint8Array, nodes: number): Promise<{ decode: number; export: number }> {
  const graphNode = Object.getPrototypeOf(Property.prototype);
  const { listRefs } = graphNode, { listParentEdges } = Graph.prototype;
  let reads = 0;
  graphNode.listRefs = function (this: unknown, attribute: string) {
    const refs = listRefs.call(this, attribute);
    reads += refs.length;
    return refs;
  };
  Graph.prototype.listParentEdges = function (this: Graph<Property>, node) {
    const edges = listParentEdges.call(this, node);
    reads += edges.length;
    return edges;
  };
  try {
    const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "many.glb" } });
    const decode = reads / nodes;
    reads = 0;
    await runNode(exportGltf, { scene }, {});
    return { decode, export: reads / nodes };
  } finally {
    graphNode.listRefs = listRefs;
    Graph.prototype.listParentEdges = listParentEdges;
  }
}

for (const shape of ["flat", "one-parent", "cad"] as ManyNodesShape[]) {
  Deno.test(`decode.gltf → export.gltf on many nodes (${shape}): constant graph reads per node`, async () => {
    const small = await readsPerNode(manyNodesGlb(shape, 2_000, 5), 2_000);
    const large = await readsPerNode(manyNodesGlb(shape, 20_000, 5), 20_000);
    for (const step of ["decode", "export"] as const) {
      // The file's few fixed parts (its root, one mesh) weigh 10 times less at 20,000: within 0.1.
      assert.ok(
        Math.abs(large[step] - small[step]) < 0.1,
        `${step}: ${small[step].toFixed(2)} reads per node at 2,000 nodes, ${
          large[step].toFixed(2)
        } at 20,000`,
      );
    }
    assert.ok(large.decode <= DECODE_BUDGET, `decode: ${large.decode.toFixed(2)} reads per node`);
    assert.ok(large.export <= EXPORT_BUDGET, `export: ${large.export.toFixed(2)} reads per node`);
  });
}
