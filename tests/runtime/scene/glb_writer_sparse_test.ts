/**
 * The direct writer's sparse views (runtime/scene/glb_writer/sparse.ts) against glTF-Transform's:
 * the same bytes on odd values and index widths, on a long Carnivores clip's weights track, and
 * without testing elements one by one through `Accessor.getElement` (the writer's quadratic cost
 * on a `.car` of thousands of frames).
 */
import assert from "node:assert/strict";
import { Accessor, type Document, type TypedArray } from "@gltf-transform/core";
import { writeGlbVia, type WriteOptions } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { sceneWithBuffer } from "../../support/random_scene.ts";
import { prng } from "../../support/prng.ts";
import { runNode } from "../../support/context.ts";
import { decodeCar } from "../../../nodes/decode/carnivores/decode_car.ts";
import { encodeCar } from "../../support/carnivores/encode.ts";
import { gridCar } from "../../nodes/decode/carnivores/fixtures.ts";

const OPTIONS: WriteOptions = { generator: GENERATOR };

async function assertSameBytes(doc: Document, label: string): Promise<void> {
  for (const uniqueNames of [false, true]) {
    const options = { ...OPTIONS, uniqueNames };
    const reference = await writeGlbVia(doc, options, "gltf-transform");
    const direct = await writeGlbVia(doc, options, "direct-only");
    assert.equal(direct.byteLength, reference.byteLength, `${label}: length`);
    const at = direct.findIndex((byte, i) => byte !== reference[i]);
    assert.equal(at, -1, `${label}: first different byte at ${at}`);
  }
}

/** Calls of `Accessor.prototype.getElement` while `run` runs. */
async function getElementCalls(run: () => Promise<unknown>): Promise<number> {
  const original = Accessor.prototype.getElement;
  let calls = 0;
  Accessor.prototype.getElement = function <T extends number[]>(this: Accessor, index: number, target: T): T {
    calls++;
    return original.call(this, index, target) as T;
  };
  try {
    await run();
  } finally {
    Accessor.prototype.getElement = original;
  }
  return calls;
}

/** A float with the given bits. */
const bits = (word: number) => new Float32Array(new Uint32Array([word]).buffer)[0];

Deno.test("sparse views: NaN, −0 and ±Infinity elements, VEC3 and integer arrays, bounds, every index width", async () => {
  const random = prng(4242);
  for (const count of [10, 254, 255, 256, 65_534, 65_535, 65_536, 70_000]) {
    const { doc, accessor } = sceneWithBuffer();
    const make = (type: "SCALAR" | "VEC3", array: TypedArray) => accessor(type, array).setSparse(true);
    const floats = new Float32Array(count * 3);
    // A NaN element alone is "zero" to the writer (|NaN| > 0 is false); beside a value it is kept.
    floats.set([bits(0x7fc00123), 0, 0, bits(0x80000000), 0, 0, Infinity, 0, bits(0x7fc00001)]);
    floats[3 * (count - 1) + 1] = -Infinity;
    for (let k = 0; k < 5; k++) floats[Math.floor(random() * floats.length)] = random() - 0.5;
    const shorts = new Int16Array(count);
    shorts[Math.floor(count / 2)] = -3;
    const bytes = new Uint8Array(count * 3);
    bytes[bytes.length - 2] = 9;
    const times = Float32Array.from({ length: count }, (_, i) => (i % 3 ? i : 0));
    const primitive = doc.createPrimitive().setAttribute("POSITION", make("VEC3", floats))
      .setAttribute("NORMAL", accessor("VEC3", new Float32Array(count * 3)))
      .setAttribute("_SHORTS", make("SCALAR", shorts)).setAttribute("_BYTES", make("VEC3", bytes))
      .setAttribute("_ZEROS", make("SCALAR", new Float32Array(count)));
    const node = doc.createNode("n").setMesh(doc.createMesh().addPrimitive(primitive));
    const sampler = doc.createAnimationSampler().setInput(make("SCALAR", times))
      .setOutput(make("VEC3", floats.slice()));
    doc.createAnimation("a").addSampler(sampler).addChannel(
      doc.createAnimationChannel().setTargetNode(node).setTargetPath("translation").setSampler(sampler),
    );
    doc.createTexture("after").setMimeType("image/png").setImage(new Uint8Array([1, 2, 3]));
    doc.createScene().addChild(node);
    await assertSameBytes(doc, `${count} elements`);
  }
});

Deno.test("sparse views: a normalised sparse accessor still goes through the writer's own pass, same bytes", async () => {
  const { doc, accessor } = sceneWithBuffer();
  const colors = accessor("VEC4", new Uint8Array([0, 0, 0, 0, 255, 128, 0, 1])).setNormalized(true).setSparse(
    true,
  );
  doc.createMesh().addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", accessor("VEC3", new Float32Array(6)))
      .setAttribute("COLOR_0", colors),
  );
  await assertSameBytes(doc, "normalised");
});

Deno.test("sparse views: a 2,000-frame .car's weights track writes the same bytes without testing element by element", async () => {
  const bytes = encodeCar(gridCar(8, 8, 2_000));
  const { scene } = await runNode(decodeCar, { bytes: { bytes, name: "long.car" } });
  const weights = scene.getRoot().listAccessors().filter((a: Accessor) => a.getSparse());
  assert.equal(weights.reduce((sum: number, a: Accessor) => sum + a.getCount(), 0), 2_000 * 2_000);
  await assertSameBytes(scene, "2,000 frames");
  // Before: the writer tested each of the 4 M weights through getElement.
  const calls = await getElementCalls(() => writeGlbVia(scene, OPTIONS, "direct-only"));
  assert.ok(calls < 1_000, `${calls} getElement calls`);
});
