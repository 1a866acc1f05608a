/**
 * Fixtures for the fast output check, made by code: one valid scene that uses every rule the check
 * tests on data (indices, unit normals and tangents, float colours, a skin with inverse bind
 * matrices and influences, animation times and rotations, a sparse morph target, a PNG texture),
 * and an editor of its written GLB that changes one accessor element or one JSON value — what
 * `repair.ts` would otherwise fix before writing, so each rule can be broken on purpose.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import { encode } from "fast-png";
import { exportBytes } from "../../support/output_check.ts";

/** A valid skinned, animated, textured quad using every data rule of the check. */
export function richScene(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (
    name: string,
    type: "SCALAR" | "VEC2" | "VEC3" | "VEC4" | "MAT4",
    array: ArrayLike<number>,
  ) => doc.createAccessor(name, buffer).setType(type).setArray(array as Float32Array<ArrayBuffer>);
  const position = accessor("position", "VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]));
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", position)
    .setAttribute(
      "NORMAL",
      accessor("normal", "VEC3", new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])),
    )
    .setAttribute(
      "TANGENT",
      accessor("tangent", "VEC4", new Float32Array([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1])),
    )
    .setAttribute("TEXCOORD_0", accessor("uv", "VEC2", new Float32Array([0, 0, 1, 0, 1, 1, 0, 1])))
    .setAttribute("COLOR_0", accessor("colour", "VEC4", new Float32Array(16).fill(0.5)))
    .setAttribute(
      "JOINTS_0",
      accessor("joints", "VEC4", new Uint8Array([0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
    )
    .setAttribute(
      "WEIGHTS_0",
      accessor(
        "weights",
        "VEC4",
        new Float32Array([0.5, 0.5, 0, 0, 0.25, 0.75, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]),
      ),
    )
    .setIndices(accessor("indices", "SCALAR", new Uint16Array([0, 1, 2, 0, 2, 3])));
  const target = doc.createPrimitiveTarget("bulge").setAttribute(
    "POSITION",
    accessor("bulge", "VEC3", new Float32Array([0, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0])).setSparse(true),
  );
  primitive.addTarget(target);
  const png = encode({ width: 2, height: 2, data: new Uint8Array(16).fill(200), channels: 4 });
  const texture = doc.createTexture("checker").setImage(png).setMimeType("image/png");
  primitive.setMaterial(doc.createMaterial("paint").setBaseColorTexture(texture));
  const mesh = doc.createMesh("quad").addPrimitive(primitive).setWeights([0]);

  const root = doc.createNode("root");
  const arm = doc.createNode("arm").setTranslation([0, 1, 0]);
  root.addChild(arm);
  const inverseBinds = new Float32Array(32);
  inverseBinds.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  inverseBinds.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1], 16);
  const skin = doc.createSkin("skin").addJoint(root).addJoint(arm)
    .setInverseBindMatrices(accessor("inverse binds", "MAT4", inverseBinds));
  const body = doc.createNode("body").setMesh(mesh).setSkin(skin);
  doc.createScene("scene").addChild(root).addChild(body);

  const times = accessor("times", "SCALAR", new Float32Array([0, 0.5, 1]));
  const sampler = (name: string, output: Float32Array, type: "VEC3" | "VEC4" | "SCALAR") =>
    doc.createAnimationSampler().setInput(times).setOutput(accessor(name, type, output));
  const turn = sampler(
    "turn",
    new Float32Array([0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068, 0, 1, 0, 0]),
    "VEC4",
  );
  const move = sampler("move", new Float32Array([0, 1, 0, 0, 2, 0, 0, 1, 0]), "VEC3");
  const swell = sampler("swell", new Float32Array([0, 1, 0]), "SCALAR");
  const channel = (node: typeof arm, path: "rotation" | "translation" | "weights", s: typeof turn) =>
    doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(s);
  doc.createAnimation("wave")
    .addSampler(turn).addSampler(move).addSampler(swell)
    .addChannel(channel(arm, "rotation", turn))
    .addChannel(channel(arm, "translation", move))
    .addChannel(channel(body, "weights", swell));
  return doc;
}

/** The JSON and BIN chunk of a GLB, editable; {@link GlbEditor.bytes} packs them again. */
export class GlbEditor {
  // deno-lint-ignore no-explicit-any -- an editor of arbitrary glTF JSON
  json: Record<string, any>;
  readonly bin: Uint8Array;

  /** Splits `glb` (as glTF-Transform writes it: JSON chunk, then BIN chunk). */
  constructor(glb: Uint8Array) {
    const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
    const jsonLength = view.getUint32(12, true);
    this.json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
    this.bin = glb.slice(20 + jsonLength + 8);
  }

  /** The accessor index named `name`. */
  accessor(name: string): number {
    const index = this.json.accessors.findIndex((a: { name?: string }) => a.name === name);
    if (index < 0) throw new Error(`no accessor '${name}'`);
    return index;
  }

  /** Sets component `c` of element `i` of accessor `name` (a dense one, in its buffer view). */
  set(name: string, i: number, c: number, value: number): this {
    const accessor = this.json.accessors[this.accessor(name)];
    const view = this.json.bufferViews[accessor.bufferView];
    const size = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 }[accessor.componentType as 5126]!;
    const components = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[accessor.type as "VEC3"]!;
    const at = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0) +
      i * (view.byteStride ?? size * components) +
      c * size;
    const data = new DataView(this.bin.buffer, this.bin.byteOffset);
    if (accessor.componentType === 5126) data.setFloat32(at, value, true);
    else if (size === 4) data.setUint32(at, value, true);
    else if (size === 2) data.setUint16(at, value, true);
    else data.setUint8(at, value);
    return this;
  }

  /** The edited GLB. */
  bytes(): Uint8Array {
    const text = new TextEncoder().encode(JSON.stringify(this.json));
    const jsonLength = Math.ceil(text.byteLength / 4) * 4;
    const out = new Uint8Array(28 + jsonLength + this.bin.byteLength).fill(0x20, 20, 20 + jsonLength);
    const view = new DataView(out.buffer);
    view.setUint32(0, 0x46546c67, true);
    view.setUint32(4, 2, true);
    view.setUint32(8, out.byteLength, true);
    view.setUint32(12, jsonLength, true);
    view.setUint32(16, 0x4e4f534a, true);
    out.set(text, 20);
    view.setUint32(20 + jsonLength, this.bin.byteLength, true);
    view.setUint32(24 + jsonLength, 0x004e4942, true);
    out.set(this.bin, 28 + jsonLength);
    return out;
  }
}

/** An editor over the written GLB of {@link richScene}. */
export async function richGlb(): Promise<GlbEditor> {
  return new GlbEditor(await exportBytes(richScene()));
}
