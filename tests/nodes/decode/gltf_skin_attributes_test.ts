/**
 * Skin attributes outside glTF's formats, as exporters write them (glTFast: `VEC2` joints and weights
 * for a two-bone skin, `UNSIGNED_INT` joints; three.js's exporter before r92: float joints), read as
 * meant: VEC4 unsigned-short joints and VEC4 weights padded with zeros, so every vertex keeps its
 * influences (three.js fed a `VEC2` to its `vec4` input as `(w0, w1, 0, 1)`: a last weight of 1).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document, NodeIO, type TypedArray } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";

type AccessorType = "VEC2" | "VEC3" | "VEC4";

/** A four-vertex quad skinned to three joints, its joints and weights written as given. */
async function skinnedQuad(
  joints: { type: AccessorType; array: TypedArray },
  weights: { type: AccessorType; array: TypedArray },
): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: AccessorType | "VEC3" | "MAT4", array: TypedArray) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const bones = ["root", "a", "b"].map((name, i) => doc.createNode(name).setTranslation([i, 0, 0]));
  bones[0].addChild(bones[1]);
  bones[1].addChild(bones[2]);
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];
  const skin = doc.createSkin("skin").setInverseBindMatrices(
    accessor("MAT4", new Float32Array([0, 1, 2].flatMap((i) => [...identity, -i, 0, 0, 1]))),
  );
  bones.forEach((bone) => skin.addJoint(bone));
  const quad = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0])))
    .setAttribute("JOINTS_0", accessor(joints.type, joints.array))
    .setAttribute("WEIGHTS_0", accessor(weights.type, weights.array))
    .setIndices(accessor("VEC3", new Uint16Array([0, 1, 2, 2, 1, 3])).setType("SCALAR"));
  doc.createScene().addChild(bones[0])
    .addChild(doc.createNode("quad").setMesh(doc.createMesh("quad").addPrimitive(quad)).setSkin(skin));
  return await new NodeIO().writeBinary(doc);
}

async function decodeAndExport(bytes: Uint8Array) {
  // The Khronos validator refuses the input, or throws on it (a TypeError of its own on VEC2 float joints).
  const codes = await validateGltf(bytes).then((report) => report.codes, () => ["its own TypeError"]);
  assert(
    codes.some((code) => /MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT|TypeError/.test(code)),
    String(codes),
  );
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "skin.glb" } }, {}, ctx);
  const out = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  const report = await validateGltf(out);
  assertEquals(report.errors, 0, report.messages.join("\n"));
  const primitive = (await readGltf(out)).getRoot().listMeshes()[0].listPrimitives()[0];
  const read = (semantic: string) => {
    const accessor = primitive.getAttribute(semantic)!;
    return { type: accessor.getType(), array: [...accessor.getArray()!] };
  };
  return {
    joints: read("JOINTS_0"),
    weights: read("WEIGHTS_0"),
    warnings: ctx.warnings.map((w) => w.message),
  };
}

Deno.test("glTF skin attributes of two influences in floats (glTFast) are read as four, padded with zeros", async () => {
  const out = await decodeAndExport(
    await skinnedQuad(
      { type: "VEC2", array: new Float32Array([0, 1, 1, 2, 2, 0, 1, 0]) },
      { type: "VEC2", array: new Float32Array([0.5, 0.5, 0.25, 0.75, 1, 0, 0.5, 0.5]) },
    ),
  );
  assertEquals(out.joints, { type: "VEC4", array: [0, 1, 0, 0, 1, 2, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0] });
  assertEquals(out.weights, {
    type: "VEC4",
    array: [0.5, 0.5, 0, 0, 0.25, 0.75, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0],
  });
  for (
    const pattern of [
      /attributes\/JOINTS_0: accessor \d+ holds joint indices as VEC2 of FLOAT: read as unsigned shorts padded to VEC4 with joint 0/,
      /attributes\/WEIGHTS_0: accessor \d+ holds weights as VEC2: padded to VEC4 with zero weights/,
    ]
  ) assert(out.warnings.some((w) => pattern.test(w)), `${pattern} in\n${out.warnings.join("\n")}`);
});

Deno.test("glTF joint indices in 32-bit integers (glTFast) are read as unsigned shorts", async () => {
  const joints = [0, 1, 2, 0, 1, 2, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0];
  const weights = [0.5, 0.25, 0.25, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
  const out = await decodeAndExport(
    await skinnedQuad(
      { type: "VEC4", array: new Uint32Array(joints) },
      { type: "VEC4", array: new Float32Array(weights) },
    ),
  );
  assertEquals(out.joints, { type: "VEC4", array: joints });
  assert(out.warnings.some((w) => /joint indices as VEC4 of UNSIGNED_INT: read as unsigned shorts$/.test(w)));
});

Deno.test("glTF joint indices in floats that are not whole numbers are refused at their attribute", async () => {
  const bytes = await skinnedQuad(
    { type: "VEC4", array: new Float32Array([0, 1, 0, 0, 1, 2.5, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]) },
    { type: "VEC4", array: new Float32Array([0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]) },
  );
  try {
    await runNode(decodeGltf, { bytes: { bytes, name: "skin.glb" } });
    throw new Error("decoded");
  } catch (error) {
    assert(error instanceof DecodeError, String(error));
    assertEquals([error.at, error.expected, error.found], [
      { jsonPath: "/meshes/0/primitives/0/attributes/JOINTS_0" },
      "joint indices that are whole numbers in 0..65535",
      "2.5 at element 1",
    ]);
  }
});
