/** Draco- and meshopt-compressed glTF, as real aircraft exports often are, decode to plain scenes. */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { MeshoptEncoder } from "meshoptimizer";
import { decodeGltf } from "../../nodes/decode/gltf/decode_gltf.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { runNode, testContext } from "../support/context.ts";
import { validateGltf } from "../support/validator.ts";
import { glbOf } from "../support/shapes.ts";
import { writeCompressedGlb } from "../support/compressed.ts";

/** A 12×12 vertex grid panel: enough for the compressors to work on. */
function panel(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const n = 12;
  const positions = new Float32Array(n * n * 3);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) positions.set([i * 0.1, Math.sin(i + j) * 0.01, j * 0.05], (i * n + j) * 3);
  }
  for (let i = 0; i < n - 1; i++) {
    for (let j = 0; j < n - 1; j++) {
      const a = i * n + j;
      indices.push(a, a + 1, a + n, a + 1, a + n + 1, a + n);
    }
  }
  const prim = doc.createPrimitive()
    .setAttribute("POSITION", doc.createAccessor("p", buffer).setType("VEC3").setArray(positions))
    .setIndices(doc.createAccessor("i", buffer).setType("SCALAR").setArray(new Uint16Array(indices)));
  doc.createScene("s").addChild(doc.createNode("Aileron_L").setMesh(doc.createMesh("m").addPrimitive(prim)));
  return doc;
}

function compressed(kind: "draco" | "meshopt"): Promise<Uint8Array> {
  return writeCompressedGlb(panel(), kind);
}

for (const kind of ["draco", "meshopt"] as const) {
  Deno.test(`a ${kind}-compressed GLB decodes to an ordinary scene and exports uncompressed`, async () => {
    const bytes = await compressed(kind);
    const json = JSON.parse(
      new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(12, true))),
    );
    assert(json.extensionsRequired.length === 1, "the fixture really is compressed");
    const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: `panel.${kind}.glb` } });
    const position = scene.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!;
    assertEquals(position.getCount(), 144);
    const original = panel().getRoot().listAccessors()[0].getArray()!;
    const decoded = new Float32Array(144 * 3);
    for (let i = 0; i < 144; i++) decoded.set(position.getElement(i, [0, 0, 0]), i * 3);
    // Both codecs quantise; the grid spans 1.1 m, so 1 mm is a generous bound. Draco may reorder
    // vertices, so compare the sets of points.
    const key = (a: ArrayLike<number>, i: number) =>
      `${Math.round(a[i] * 100)},${Math.round(a[i + 2] * 100)}`;
    const want = new Set(Array.from({ length: 144 }, (_, i) => key(original, i * 3)));
    for (let i = 0; i < 144; i++) assert(want.has(key(decoded, i * 3)), `vertex ${i} is off the grid`);
    const glb = await writeGlb(scene, { generator: GENERATOR });
    const report = await validateGltf(glb);
    assertEquals(report.errors, 0, report.messages.join("\n"));
    assert(
      !new TextDecoder().decode(glb.subarray(0, 2000)).includes(
        kind === "draco" ? "KHR_draco" : "EXT_meshopt",
      ),
    );
  });
}

/** The GLB's JSON text with every `EXT_meshopt_compression` named `KHR_meshopt_compression`. */
function asKhrMeshopt(glb: Uint8Array): Uint8Array {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(
    new TextDecoder().decode(glb.subarray(20, 20 + length)).replaceAll("EXT_meshopt", "KHR_meshopt"),
  );
  return glbOf(json, glb.subarray(28 + length));
}

Deno.test("a KHR_meshopt_compression GLB decodes as its EXT_ twin does", async () => {
  const ext = await compressed("meshopt");
  const khr = asKhrMeshopt(ext);
  const decode = async (bytes: Uint8Array) =>
    (await runNode(decodeGltf, { bytes: { bytes, name: "panel.glb" } })).scene;
  const [a, b] = [await decode(ext), await decode(khr)];
  const arrays = (doc: Document) => doc.getRoot().listAccessors().map((x) => Array.from(x.getArray()!));
  assertEquals(arrays(b), arrays(a));
  assertEquals(await writeGlb(b, { generator: GENERATOR }), await writeGlb(a, { generator: GENERATOR }));
});

Deno.test("KHR_meshopt_compression's own bitstreams decode: the version 1 attribute codec and the COLOR filter", async () => {
  await MeshoptEncoder.ready;
  const count = 144;
  const positions = new Float32Array(count * 3).map((_, i) => ((i * 7919) % 1000) / 100);
  const colors = new Float32Array(count * 4).map((_, i) => (i % 4 === 3 ? 1 : ((i * 37) % 101) / 100));
  const indices = new Uint16Array(count).map((_, i) => i); // 48 triangles
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const encodedPositions = MeshoptEncoder.encodeGltfBuffer(bytes(positions), count, 12, "ATTRIBUTES", 1);
  const filtered = MeshoptEncoder.encodeFilterColor(colors, count, 4, 8);
  const encodedColors = MeshoptEncoder.encodeGltfBuffer(filtered, count, 4, "ATTRIBUTES", 1);
  assertEquals([encodedPositions[0], encodedColors[0]], [0xa1, 0xa1], "version 1 of the attribute codec");
  const pad = (n: number) => Math.ceil(n / 4) * 4;
  const at = [0, pad(encodedPositions.length), pad(encodedPositions.length) + pad(encodedColors.length)];
  const bin = new Uint8Array(at[2] + indices.byteLength);
  bin.set(encodedPositions, at[0]);
  bin.set(encodedColors, at[1]);
  bin.set(bytes(indices), at[2]);
  const KHR = "KHR_meshopt_compression";
  const view = (offset: number, length: number, stride: number, encoded: Uint8Array, filter?: string) => ({
    buffer: 1,
    byteOffset: offset,
    byteLength: length,
    byteStride: stride,
    extensions: {
      [KHR]: {
        buffer: 0,
        byteOffset: at[stride === 12 ? 0 : 1],
        byteLength: encoded.length,
        byteStride: stride,
        count,
        mode: "ATTRIBUTES",
        ...(filter ? { filter } : {}),
      },
    },
  });
  const json = {
    asset: { version: "2.0" },
    extensionsUsed: [KHR],
    extensionsRequired: [KHR],
    buffers: [{ byteLength: bin.length }, {
      byteLength: count * 16,
      extensions: { [KHR]: { fallback: true } },
    }],
    bufferViews: [
      view(0, count * 12, 12, encodedPositions),
      view(count * 12, count * 4, 4, encodedColors, "COLOR"),
      { buffer: 0, byteOffset: at[2], byteLength: indices.byteLength },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count, type: "VEC3", min: [0, 0, 0], max: [9.99, 9.99, 9.99] },
      { bufferView: 1, componentType: 5121, normalized: true, count, type: "VEC4" },
      { bufferView: 2, componentType: 5123, count, type: "SCALAR" },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, COLOR_0: 1 }, indices: 2 }] }],
    nodes: [{ name: "Aileron_L", mesh: 0 }],
    scenes: [{ nodes: [0] }],
  };
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: glbOf(json, bin), name: "khr.glb" } });
  const primitive = scene.getRoot().listMeshes()[0].listPrimitives()[0];
  assertEquals(Array.from(primitive.getAttribute("POSITION")!.getArray()!), Array.from(positions));
  const decoded = primitive.getAttribute("COLOR_0")!.getArray()!;
  for (let i = 0; i < colors.length; i++) {
    assert(
      Math.abs(decoded[i] - colors[i] * 255) <= 2,
      `colour component ${i}: ${decoded[i]} vs ${colors[i] * 255}`,
    );
  }
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assertEquals(report.errors, 0, report.messages.join("\n"));
});

for (const kind of ["draco", "meshopt"] as const) {
  Deno.test(`a ${kind}-compressed GLB that does not list its extension as used decodes as when it does, with a warning`, async () => {
    const bytes = await compressed(kind);
    const length = new DataView(bytes.buffer).getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
    const name = json.extensionsUsed[0];
    delete json.extensionsUsed;
    delete json.extensionsRequired;
    const ctx = testContext();
    const undeclared = await runNode(
      decodeGltf,
      { bytes: { bytes: glbOf(json, bytes.subarray(28 + length)), name: "u.glb" } },
      {},
      ctx,
    );
    const declared = await runNode(decodeGltf, { bytes: { bytes, name: "d.glb" } });
    const positions = (scene: Document) =>
      scene.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!.getArray();
    assertEquals(positions(undeclared.scene), positions(declared.scene));
    assert(
      ctx.warnings.some((w) => w.message.startsWith(`u.glb at /extensionsUsed: '${name}' added: `)),
      ctx.warnings.map((w) => w.message).join("\n"),
    );
  });
}

Deno.test("a meshopt fallback buffer's flag: a non-boolean is refused at its path, a missing one on a buffer without data read as set, warned", async () => {
  const bytes = await compressed("meshopt");
  const length = new DataView(bytes.buffer).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
  const fallback = json.buffers.findIndex((b: { extensions?: unknown }) => b.extensions);
  const path = `/buffers/${fallback}/extensions/EXT_meshopt_compression`;
  const decode = (flag: unknown, ctx = testContext()) => {
    const variant = structuredClone(json);
    if (flag === undefined) delete variant.buffers[fallback].extensions.EXT_meshopt_compression.fallback;
    else variant.buffers[fallback].extensions.EXT_meshopt_compression.fallback = flag;
    return runNode(
      decodeGltf,
      { bytes: { bytes: glbOf(variant, bytes.subarray(28 + length)), name: "f.glb" } },
      {},
      ctx,
    );
  };
  for (const flag of ["true", 1, 0]) {
    await rejects(() => decode(flag), (e: Error) => {
      assert(e.message.includes(`at ${path}/fallback: expected a boolean (true or false)`), e.message);
      return true;
    });
  }
  const positions = (scene: Document) =>
    Array.from(scene.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!.getArray()!);
  const flagged = await decode(true);
  for (const flag of [undefined, false]) {
    const ctx = testContext();
    const { scene } = await decode(flag, ctx);
    assertEquals(positions(scene), positions(flagged.scene));
    assertEquals(ctx.warnings.map((w) => w.message), [
      `f.glb at ${path}/fallback: ${
        flag ?? "absent"
      } on a buffer without data: read as a fallback buffer, its views decoded`,
    ]);
  }
});
