/** Draco- and meshopt-compressed glTF, as real aircraft exports often are, decode to plain scenes. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS, EXTMeshoptCompression, KHRDracoMeshCompression } from "@gltf-transform/extensions";
import draco3d from "draco3dgltf";
import { MeshoptEncoder } from "meshoptimizer";
import { decodeGltf } from "../../nodes/decode/gltf/decode_gltf.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { runNode } from "../support/context.ts";
import { validateGltf } from "../support/validator.ts";

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

async function compressed(kind: "draco" | "meshopt"): Promise<Uint8Array> {
  const doc = panel();
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  if (kind === "draco") {
    doc.createExtension(KHRDracoMeshCompression).setRequired(true);
    io.registerDependencies({ "draco3d.encoder": await draco3d.createEncoderModule() });
  } else {
    await MeshoptEncoder.ready;
    doc.createExtension(EXTMeshoptCompression).setRequired(true)
      .setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
    io.registerDependencies({ "meshopt.encoder": MeshoptEncoder });
  }
  return await io.writeBinary(doc);
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
