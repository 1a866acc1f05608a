/**
 * A small skinned, textured, animated glTF whose JSON and binary chunk tests edit the way real
 * exporters get things wrong (a misspelt attribute, a PNG declared JPEG, a rotation rounded off
 * unit length, a key time written twice) before packing it as GLB: the input is exactly the messy
 * file, not what glTF-Transform would tidy on writing it.
 *
 * @module
 */
import { Document, NodeIO } from "@gltf-transform/core";
import { encode } from "fast-png";
import { glbOf } from "./shapes.ts";

/** A glTF JSON object, loosely typed for editing. */
// deno-lint-ignore no-explicit-any
export type MessyJson = Record<string, any>;

/** An edit of the JSON and binary chunk (typed-array views into it write through). */
export type MessyEdit = (json: MessyJson, bin: Uint8Array) => void;

/**
 * The base file: a skinned wing (POSITION, NORMAL, TANGENT, TEXCOORD_0, JOINTS_0, WEIGHTS_0,
 * indices) with a PNG base-colour texture, two joints (`root_bone`, `Aileron_L`), a static `Flap_R`
 * mesh, and a LINEAR rotation animation of three keys on `Aileron_L`.
 */
async function messyBase(): Promise<{ json: MessyJson; bin: Uint8Array }> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (
    type: "SCALAR" | "VEC2" | "VEC3" | "VEC4" | "MAT4",
    array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
  ) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const png = encode({ width: 2, height: 2, data: new Uint8Array(16).fill(200), channels: 4 });
  const texture = doc.createTexture("paint").setImage(png).setMimeType("image/png");
  const material = doc.createMaterial("painted").setBaseColorTexture(texture);
  const wing = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0])))
    .setAttribute("NORMAL", accessor("VEC3", new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])))
    .setAttribute(
      "TANGENT",
      accessor("VEC4", new Float32Array([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1])),
    )
    .setAttribute("TEXCOORD_0", accessor("VEC2", new Float32Array([0, 0, 1, 0, 0, 1, 1, 1])))
    .setAttribute(
      "JOINTS_0",
      accessor("VEC4", new Uint16Array([0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
    )
    .setAttribute(
      "WEIGHTS_0",
      accessor("VEC4", new Float32Array([0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
    )
    .setIndices(accessor("SCALAR", new Uint16Array([0, 1, 2, 2, 1, 3])))
    .setMaterial(material);
  const rootBone = doc.createNode("root_bone");
  const aileron = doc.createNode("Aileron_L").setTranslation([1, 0, 0]);
  rootBone.addChild(aileron);
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const skin = doc.createSkin("wing_skin").addJoint(rootBone).addJoint(aileron)
    .setInverseBindMatrices(
      accessor("MAT4", new Float32Array([...identity, ...identity.slice(0, 12), -1, 0, 0, 1])),
    );
  const flapMesh = doc.createMesh("flap").addPrimitive(
    doc.createPrimitive()
      .setAttribute(
        "POSITION",
        accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, -1, 0, 1, -1, 0, 0, 0, 0.1, 1, 0, 0.1])),
      )
      .setIndices(accessor("SCALAR", new Uint16Array([0, 1, 2, 2, 1, 3, 0, 1, 4, 4, 1, 5]))),
  );
  doc.createScene("aircraft")
    .addChild(doc.createNode("Wing").setMesh(doc.createMesh("wing").addPrimitive(wing)).setSkin(skin))
    .addChild(rootBone)
    .addChild(doc.createNode("Flap_R").setMesh(flapMesh));
  const sampler = doc.createAnimationSampler().setInterpolation("LINEAR")
    .setInput(accessor("SCALAR", new Float32Array([0, 1, 2])))
    .setOutput(accessor("VEC4", new Float32Array([0, 0, 0, 1, 0, 0, 0.3826834, 0.9238795, 0, 0, 0, 1])));
  doc.createAnimation("deflect").addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(aileron).setTargetPath("rotation").setSampler(sampler),
  );
  const glb = await new NodeIO().writeBinary(doc);
  const jsonLength = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return {
    json: JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))),
    bin: glb.slice(28 + jsonLength),
  };
}

/**
 * Edits the values of accessor `index` in place in `bin`: `edit` gets them as one flat array
 * (element after element, floats or unsigned shorts as stored) and changes it; they are written back
 * through the view's stride (glTF-Transform interleaves vertex attributes).
 */
export function editAccessor(
  json: MessyJson,
  bin: Uint8Array,
  index: number,
  edit: (values: number[]) => void,
): void {
  const accessor = json.accessors[index];
  const view = json.bufferViews[accessor.bufferView];
  const size = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[accessor.type as string]!;
  const float = accessor.componentType === 5126;
  const bytes = float ? 4 : 2;
  const stride = view.byteStride ?? size * bytes;
  const data = new DataView(bin.buffer, bin.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0));
  const at = (i: number, c: number) => i * stride + c * bytes;
  const values: number[] = [];
  for (let i = 0; i < accessor.count; i++) {
    for (let c = 0; c < size; c++) {
      values.push(float ? data.getFloat32(at(i, c), true) : data.getUint16(at(i, c), true));
    }
  }
  edit(values);
  values.forEach((value, k) => {
    const i = Math.floor(k / size), c = k % size;
    if (float) data.setFloat32(at(i, c), value, true);
    else data.setUint16(at(i, c), value, true);
  });
}

/** A buffer view over `data` in a buffer of its own, embedded as a data URI; returns the view's index. */
export function embeddedView(json: MessyJson, data: ArrayBufferView): number {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const uri = `data:application/octet-stream;base64,${bytes.toBase64()}`;
  const buffer = json.buffers.push({ uri, byteLength: bytes.length }) - 1;
  return json.bufferViews.push({ buffer, byteLength: bytes.length }) - 1;
}

/** The wing primitive's JSON (its `attributes` object edits the file). */
export function wingPrimitive(json: MessyJson): MessyJson {
  return json.meshes.find((mesh: { name?: string }) => mesh.name === "wing").primitives[0];
}

/** Renames the wing primitive's attribute `from` to `to` (a misspelling, as some exporters write it). */
export function renameWingAttribute(json: MessyJson, from: string, to: string): void {
  const attributes = wingPrimitive(json).attributes;
  attributes[to] = attributes[from];
  delete attributes[from];
}

/** The accessor index of the wing primitive's attribute `semantic`. */
export function wingAttribute(json: MessyJson, semantic: string): number {
  return wingPrimitive(json).attributes[semantic];
}

/**
 * The base file with `edit` applied, as GLB.
 *
 * @example
 * ```ts
 * const glb = await messyGlb((json) => json.images[0].mimeType = "image/jpeg");
 * ```
 */
export async function messyGlb(edit: MessyEdit): Promise<Uint8Array> {
  const { json, bin } = await messyBase();
  edit(json, bin);
  return glbOf(json, bin);
}
