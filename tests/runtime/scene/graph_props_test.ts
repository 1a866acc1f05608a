/**
 * The scans of every property's extras — `settleExtras` (the runtime's, as it hands a scene to its
 * owner) and the export's NaN pre-check (`nonFiniteExtras`) — visit each property of the document
 * once without listing the graph's edges (`graph_props.ts`): on a resolved retail-shaped compound each
 * listed 4,000–5,000 edges into an array and put their children into a set. They visit what the edges
 * name: a property whose last edge went (disposed, or detached from everything) is not visited, and
 * the NaN the scans look for is still found and named.
 */
import { deepStrictEqual as equal } from "node:assert/strict";
import type { Document, Property } from "@gltf-transform/core";
import { decodeModel } from "../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../nodes/decode/freelancer/resolver_run.ts";
import { nonFiniteExtras } from "../../../nodes/export/extras_numbers.ts";
import { settleExtras } from "../../../runtime/scene/copy.ts";
import { forEachProperty } from "../../../runtime/scene/graph_props.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

function compound(seed: number): Document {
  const warn = () => {};
  return buildScene(
    decodeModel({ bytes: realisticCmp(seed, { parts: 9 + seed % 5 }), name: "r.cmp" }, [], warn),
    warn,
  );
}

/** Counts the calls of the document's `listEdges` (each an array of every edge). */
function countListings(doc: Document): { count: number } {
  const graph = doc.getGraph();
  const listings = { count: 0 };
  const list = graph.listEdges.bind(graph);
  graph.listEdges = () => (listings.count++, list());
  return listings;
}

Deno.test("settleExtras and the NaN pre-check list no edges (seeds 41-44)", () => {
  for (let seed = 41; seed <= 44; seed++) {
    const doc = compound(seed);
    const listings = countListings(doc);
    settleExtras(doc);
    resolveFreelancerScene(doc, {}, () => {});
    equal(nonFiniteExtras(doc), [], `seed ${seed}`);
    equal(listings.count, 0, `seed ${seed}: edges listed ${listings.count} times`);
  }
});

Deno.test("forEachProperty visits what the edges name, each once; a NaN is still named (seeds 45-52)", () => {
  for (let seed = 45; seed <= 52; seed++) {
    const next = prng(seed);
    const doc = compound(seed);
    resolveFreelancerScene(doc, {}, () => {});
    // A script's edits: some nodes disposed, some accessors detached from their primitives.
    const root = doc.getRoot();
    for (const node of root.listNodes()) if (next() < 0.1) node.dispose();
    for (const mesh of root.listMeshes()) {
      for (const primitive of mesh.listPrimitives()) if (next() < 0.1) primitive.dispose();
    }
    const expected = [
      root,
      ...new Set(doc.getGraph().listEdges().map((edge) => edge.getChild() as Property)),
    ];
    const visited: Property[] = [];
    forEachProperty(doc, (prop) => void visited.push(prop));
    equal(new Set(visited).size, visited.length, `seed ${seed}: a property visited twice`);
    equal(new Set(visited), new Set(expected), `seed ${seed}`);
    const nodes = root.listNodes();
    const damaged = nodes[Math.floor(next() * nodes.length)];
    damaged.setExtras({ ...damaged.getExtras(), ratio: 0 / 0 });
    equal(nonFiniteExtras(doc).length, 1, `seed ${seed}`);
  }
});
