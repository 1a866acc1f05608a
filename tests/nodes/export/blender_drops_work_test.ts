/**
 * Issue #12: what `blenderDrops` costs on a real-shaped file is counted, not timed. A Freelancer ship
 * writes about a thousand accessors, a few hundred buffer views and primitives, and a hundred rigid
 * mesh nodes, nearly none of them with extras Blender drops: the warning names only the properties
 * it shows, so a property without extras has its name read by no one, and a node drawing a mesh
 * without skin or morph targets needs no text of its own to tell Blender's copies apart.
 */
import assert from "node:assert/strict";
import { blenderDrops } from "../../../nodes/export/blender_drops.ts";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { writtenJson } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The written JSON of a realistic compound of `parts` parts (seeded), as export.gltf wrote it. */
async function shipJson(seed: number, parts: number): Promise<Json> {
  const ctx = testContext();
  const bytes = realisticCmp(seed, { parts });
  const decoded = await runNode(decodeCmp, { bytes: { bytes, name: `ship${seed}.cmp` } }, {
    libraries: "none",
  }, ctx);
  const out = await runNode(exportGltf, { scene: decoded.scene }, {}, ctx);
  // A structured copy: the writer's own value is shared with its memo.
  return structuredClone(writtenJson((out.bytes as { bytes: Uint8Array }).bytes)) as Json;
}

/** Reads of each key on the objects of `list`, counted in `reads` (the list's items become proxies). */
function counted(list: Json[] | undefined, reads: Map<string, number>): Json[] | undefined {
  return list?.map((item) =>
    new Proxy(item, {
      get(target, key, receiver) {
        if (typeof key === "string") reads.set(key, (reads.get(key) ?? 0) + 1);
        return Reflect.get(target, key, receiver);
      },
    })
  );
}

Deno.test("blenderDrops reads no name of a property without extras, and stringifies no rigid node", async () => {
  for (const seed of [41, 42]) {
    const json = await shipJson(seed, 14);
    const expected = blenderDrops(structuredClone(json));
    const accessorReads = new Map<string, number>(), viewReads = new Map<string, number>();
    const watched = {
      ...json,
      accessors: counted(json.accessors, accessorReads),
      bufferViews: counted(json.bufferViews, viewReads),
    };
    const stringify = JSON.stringify;
    let stringified = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      stringified++;
      return stringify(...args);
    }) as typeof stringify;
    let found: string[];
    try {
      found = blenderDrops(watched);
    } finally {
      JSON.stringify = stringify;
    }
    assert.deepEqual(found, expected, "the same warnings");
    const accessors = json.accessors.length, views = json.bufferViews.length;
    const meshNodes = json.nodes.filter((node: Json) => Number.isInteger(node.mesh)).length;
    assert.ok(
      accessors > 300 && meshNodes >= 10,
      `a real-shaped file (${accessors} accessors, ${meshNodes} mesh nodes)`,
    );
    // Written without extras: each accessor and view is asked for its extras once, its name never.
    assert.equal(accessorReads.get("name") ?? 0, 0, `accessor names read (of ${accessors})`);
    assert.equal(viewReads.get("name") ?? 0, 0, `buffer view names read (of ${views})`);
    assert.equal(accessorReads.get("extras"), accessors, "accessor extras read once each");
    // The ship's mesh nodes are rigid (no skin, no morph targets): no text is made per node.
    assert.equal(stringified, 0, `JSON.stringify calls for ${meshNodes} mesh nodes`);
  }
});
