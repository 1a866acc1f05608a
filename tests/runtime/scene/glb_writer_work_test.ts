/**
 * The GLB writer's work per accessor: which group of the binary chunk an accessor joins and whether it
 * needs bounds are read from the graph's own set of the accessor's edges, not a new array of them each
 * time (`listParentEdges`, twice per accessor: 26,000 arrays for the 16 bench compounds). Retail-shaped
 * Freelancer compounds made by code (`realistic_cmp.ts`, seeds 61-64), decoded and resolved; the bytes
 * are those of glTF-Transform's own writer (`writeGlbVia`), as `glb_writer_test.ts` holds on its scenes.
 * Nor does it ask each accessor for its buffer through glTF-Transform's getter (to find one without).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Accessor, type Document } from "@gltf-transform/core";
import { decodeModel } from "../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../nodes/decode/freelancer/resolver_run.ts";
import { writeGlbVia } from "../../../runtime/scene/gltf_io.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

/** Counts the calls of the document's `listParentEdges` (each a new array of an accessor's edges). */
function countListings(doc: Document): { count: number } {
  const graph = doc.getGraph();
  const listings = { count: 0 };
  const list = graph.listParentEdges.bind(graph);
  graph.listParentEdges = (node) => (listings.count++, list(node));
  return listings;
}

Deno.test("the GLB writer lists no accessor's edges into a new array, nor asks each for its buffer (seeds 61-64)", async () => {
  for (let seed = 61; seed <= 64; seed++) {
    const warn = () => {};
    const doc = buildScene(
      decodeModel({ bytes: realisticCmp(seed, { parts: 10 }), name: "r.cmp" }, [], warn),
      warn,
    );
    resolveFreelancerScene(doc, {}, warn);
    const options = { generator: "t" };
    const expected = await writeGlbVia(doc, options, "gltf-transform");
    const listings = countListings(doc);
    const getBuffer = Accessor.prototype.getBuffer;
    let asked = 0;
    Accessor.prototype.getBuffer = function () {
      asked++;
      return getBuffer.call(this);
    };
    const glb = await writeGlbVia(doc, options, "direct-only").finally(() => {
      Accessor.prototype.getBuffer = getBuffer;
    });
    const accessors = doc.getRoot().listAccessors().length;
    assertEquals(glb, expected, `seed ${seed}`);
    if (asked >= accessors) throw new Error(`seed ${seed}: ${asked} buffers asked of ${accessors} accessors`);
    if (listings.count >= accessors) {
      throw new Error(`seed ${seed}: edges listed ${listings.count} times for ${accessors} accessors`);
    }
  }
});
