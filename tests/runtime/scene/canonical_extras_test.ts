/**
 * `sortExtras` (`runtime/scene/canonical_extras.ts`) against the copy it replaces: on generated extras
 * as scripts, converters and rips leave them (keys in any order, integer-like keys, nesting, wide
 * integers, typed arrays, Dates, class instances, holes, undefined), the text `writtenText` makes of
 * its result, told whether a wide integer is there, is the text of `sortKeysDeep` of the same extras
 * walked in full; sorted extras are kept, not copied; and a GLB's JSON holds the document's own sorted
 * extras while the text keeps their sorted order.
 */
import { Document } from "@gltf-transform/core";
import { sortExtras } from "../../../runtime/scene/canonical_extras.ts";
import { sortKeysDeep } from "../../../runtime/canonical.ts";
import { writtenText } from "../../../runtime/scene/written_json.ts";
import { writeGlb, writtenJson } from "../../../runtime/scene/gltf_io.ts";
import { prng as random } from "../../support/prng.ts";

class Part {
  constructor(readonly zeta = 2, readonly alpha = 1) {}
}

function leaf(next: () => number): unknown {
  const kinds = [
    () => Math.floor(next() * 2 ** 40), // an id past 32 bits
    () => Math.floor(next() * 100),
    () => next() * 1000 - 500,
    () => ["x", "Ä", "a b", ""][Math.floor(next() * 4)],
    () => null,
    () => next() < 0.5,
    () => undefined,
    () => new Float32Array([1, 2.5, -0]),
    () => new Date(Math.floor(next() * 1e12)),
    () => new Part(),
    () => NaN,
  ];
  return kinds[Math.floor(next() * kinds.length)]();
}

const KEYS = ["b", "a", "Z", "10", "2", "id", "crc", "zeta", "ä", "name", "_x", "toJSON"];

function value(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.35) return leaf(next);
  if (pick < 0.55) {
    const list = Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    if (next() < 0.1) list[list.length + 1] = 1; // a hole
    return list;
  }
  const keys = Array.from({ length: Math.floor(next() * 5) }, () => KEYS[Math.floor(next() * KEYS.length)]);
  const record: Record<string, unknown> = {};
  for (const key of next() < 0.5 ? [...keys].sort() : keys) record[key] = value(next, depth + 1);
  return record;
}

Deno.test("sortExtras: the same text as sortKeysDeep's copy, wide integers found, on 400 generated files", () => {
  let kept = 0, copied = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const next = random(seed);
    const extras = Array.from({ length: 6 }, () => value(next, 0));
    const file = () => ({
      nodes: extras.map((item) => ({ name: "n", extras: item, mesh: 0 })),
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, extras: extras[0] }] }],
    });
    const found = { wide: false };
    const sorted = sortExtras(file(), found);
    const expected = writtenText({
      ...file(),
      nodes: file().nodes.map((n) => ({ ...n, extras: sortKeysDeep(n.extras) })),
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, extras: sortKeysDeep(extras[0]) }] }],
    });
    const text = writtenText(sorted, undefined, found.wide);
    if (text !== expected) throw new Error(`seed ${seed}: ${text} ≠ ${expected}`);
    // Told "no wide integer" only when a full walk finds none.
    if (!found.wide && writtenText(sorted) !== text) throw new Error(`seed ${seed}: a wide integer missed`);
    sorted.nodes.forEach((node, i) => node.extras === extras[i] ? kept++ : copied++);
  }
  // Both paths ran: extras kept as they are and extras copied sorted.
  if (kept < 200 || copied < 200) throw new Error(`kept ${kept}, copied ${copied}`);
});

Deno.test("writeGlb: sorted extras are the document's own objects in the written JSON, unsorted ones copied", async () => {
  const doc = new Document();
  const sorted = { a: 1, b: { c: [1, { d: 2, e: 3 }] } }, unsorted = { b: 1, a: 2 };
  const scene = doc.createScene("s");
  scene.addChild(doc.createNode("one").setExtras(sorted));
  scene.addChild(doc.createNode("two").setExtras(unsorted));
  const glb = await writeGlb(doc, { generator: "partgraph test" });
  const json = writtenJson(glb) as { nodes: { extras: unknown }[] };
  if (json.nodes[0].extras !== sorted) throw new Error("sorted extras were copied");
  if (json.nodes[1].extras === unsorted) throw new Error("unsorted extras were kept");
  const view = new DataView(glb.buffer, glb.byteOffset);
  const text = new TextDecoder().decode(glb.subarray(20, 20 + view.getUint32(12, true)));
  if (
    !text.includes('"extras":{"a":1,"b":{"c":[1,{"d":2,"e":3}]}}') || !text.includes('"extras":{"a":2,"b":1}')
  ) {
    throw new Error(`extras not written sorted: ${text}`);
  }
});

Deno.test("writeGlb: a mesh whose extras hold a targetNames that is not a list is written", async () => {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor("p", buffer).setType("VEC3").setArray(new Float32Array(9));
  const mesh = doc.createMesh("m").addPrimitive(doc.createPrimitive().setAttribute("POSITION", position));
  mesh.setExtras({ targetNames: 5 });
  doc.createScene("s").addChild(doc.createNode("n").setMesh(mesh));
  const json = writtenJson(await writeGlb(doc, { generator: "partgraph test" })) as {
    meshes: { extras: unknown }[];
  };
  if ((json.meshes[0].extras as { targetNames: unknown }).targetNames !== 5) {
    throw new Error(`extras changed: ${JSON.stringify(json.meshes[0].extras)}`);
  }
});
