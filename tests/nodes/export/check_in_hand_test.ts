/**
 * The fast check reads the JSON value the writer serialised instead of parsing the text again only
 * where that value is sure to read the same: plain JSON values. Here: what the walk accepts and
 * refuses, that `writtenJson` of a real export is exactly the text of its JSON chunk and is taken
 * (else the speed-up would be lost silently), and that both routes give the same verdict, also on
 * an invalid output. (Every cross-check with the Khronos validator compares both routes too.)
 */
import assert from "node:assert/strict";
import { jsonInHand } from "../../../nodes/export/check/in_hand.ts";
import { checkOutput } from "../../../nodes/export/check/mod.ts";
import { splitGlb } from "../../../nodes/export/check/glb.ts";
import { writtenJson } from "../../../runtime/scene/gltf_io.ts";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../nodes/constraints/resolve.ts";
import { runNode, testContext } from "../../support/context.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { exportBytes } from "../../support/output_check.ts";

const base = () => ({ asset: { version: "2.0" }, nodes: [{ name: "a", translation: [-0, 1.5, 3] }] });

Deno.test("in hand: plain JSON values are taken as they are, -0 included", () => {
  const value = base();
  assert.equal(jsonInHand(value), value);
  const withExtras = { ...base(), extras: { when: new Date(0), list: [1, , 3], f: () => 1 } };
  assert.equal(jsonInHand(withExtras), withExtras, "an extras object is only read as an object");
});

Deno.test("in hand: anything JSON text would not give back as it is means the text is parsed", () => {
  const cases: [string, unknown][] = [
    ["undefined value", { ...base(), scene: undefined }],
    ["NaN", { ...base(), nodes: [{ translation: [NaN, 0, 0] }] }],
    ["Infinity", { ...base(), accessors: [{ max: [Infinity] }] }],
    ["sparse array", { ...base(), nodes: [{ children: [1, , 2] }] }],
    ["typed array", { ...base(), nodes: [{ translation: new Float32Array(3) }] }],
    ["toJSON", { ...base(), asset: { version: "2.0", toJSON: () => ({}) } }],
    ["class instance", { ...base(), asset: new (class Asset {})() }],
    ["function", { ...base(), scene: () => 0 }],
    ["bigint", { ...base(), scene: 1n }],
    ["extras not plain", { ...base(), extras: new Map() }],
    ["root array", [base()]],
  ];
  for (const [label, value] of cases) assert.equal(jsonInHand(value), undefined, label);
  let deep: unknown = 1;
  for (let i = 0; i < 40; i++) deep = [deep];
  assert.equal(jsonInHand({ ...base(), extensions: { deep } }), undefined, "too deep to walk");
});

Deno.test("in hand: a realistic export's JSON value is its JSON chunk's text, taken, same verdict", async () => {
  const ctx = testContext();
  const { scene } = await runNode(decodeCmp, { bytes: { bytes: realisticCmp(3), name: "r.cmp" } }, {
    libraries: "none",
  }, ctx);
  const resolved = (await runNode(constraintsResolve, { scene }, {}, ctx)).scene;
  const glb = await exportBytes(resolved);
  const written = writtenJson(glb);
  const text = new TextDecoder().decode(splitGlb(glb).json).trimEnd();
  assert.equal(JSON.stringify(written), text);
  assert.ok(jsonInHand(written), "the walk accepts the writer's JSON");
  assert.deepEqual(checkOutput(glb, "glb", written), { kind: "valid" });
  assert.deepEqual(checkOutput(glb, "glb"), { kind: "valid" });
  const gltf = await exportBytes(resolved, "gltf");
  assert.equal(JSON.stringify(writtenJson(gltf), null, 2) + "\n", new TextDecoder().decode(gltf));
  assert.deepEqual(checkOutput(gltf, "gltf", writtenJson(gltf)), checkOutput(gltf, "gltf"));

  // An invalid output: an index past the last vertex, written into the binary chunk after the fact.
  const broken = glb.slice();
  const json = written as { accessors: { bufferView: number; count: number; componentType: number }[] };
  const views = (written as { bufferViews: { byteOffset?: number }[] }).bufferViews;
  const index = json.accessors.findIndex((a) => a.componentType === 5123 && a.count > 0);
  const at = 20 + splitGlb(glb).json.byteLength + 8 +
    (views[json.accessors[index].bufferView].byteOffset ?? 0);
  new DataView(broken.buffer).setUint16(at, 0xfffe, true);
  const verdict = checkOutput(broken, "glb");
  assert.equal(verdict.kind, "invalid");
  assert.deepEqual(checkOutput(broken, "glb", written), verdict);
});
