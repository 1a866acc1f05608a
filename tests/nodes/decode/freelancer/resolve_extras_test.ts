/**
 * The Freelancer resolver writes the extras it makes (a pivot's, a part's `constraint`) with their
 * keys in the written file's sorted order, so the GLB writer writes those very objects and copies
 * none of them (it copied three objects per pivot and the constraint of every joined part).
 * Retail-shaped compounds made by code (`realistic_cmp.ts`: every joint kind), seeds 21-26.
 */
import { decodeModel } from "../../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../../nodes/decode/freelancer/resolver_run.ts";
import { writeGlb, writtenJson } from "../../../../runtime/scene/gltf_io.ts";
import { realisticCmp } from "../../../support/realistic_cmp.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

type Json = Record<string, unknown>;

/** Objects and arrays of `written` that are not the very objects of `own` at the same place. */
function copiesIn(written: unknown, own: unknown): number {
  if (typeof written !== "object" || written === null || written === own) return 0;
  const children = Array.isArray(written) ? written.map((v, i) => [i, v] as const) : Object.entries(written);
  const source = own as Record<string | number, unknown>;
  return 1 + children.reduce((sum, [key, item]) => sum + copiesIn(item, source?.[key]), 0);
}

Deno.test("resolved pivots' and constraints' extras are written as the scene's own objects (seeds 21-26)", async () => {
  let pivots = 0, joined = 0, copies = 0;
  for (let seed = 21; seed <= 26; seed++) {
    const warn = () => {};
    const doc = buildScene(
      decodeModel({ bytes: realisticCmp(seed, { parts: 10 + seed % 7 }), name: "r.cmp" }, [], warn),
      warn,
    );
    resolveFreelancerScene(doc, {}, warn);
    const json = writtenJson(await writeGlb(doc, { generator: "t" })) as { nodes: { extras?: Json }[] };
    doc.getRoot().listNodes().forEach((node, i) => {
      const own = node.getExtras() as Json;
      const written = json.nodes[i].extras as Json;
      const partgraph = own.partgraph as Json | undefined;
      if ((partgraph?.part as Json | undefined)?.found_by === "constraint") {
        pivots++;
        copies += copiesIn(written, own);
      } else if (partgraph?.constraint) {
        joined++;
        copies += copiesIn((written.partgraph as Json).constraint, partgraph.constraint);
      }
    });
  }
  if (pivots < 50 || joined < 50) throw new Error(`only ${pivots} pivots and ${joined} joined parts`);
  if (copies !== 0) throw new Error(`${copies} objects of ${pivots} pivots and ${joined} constraints copied`);
});
