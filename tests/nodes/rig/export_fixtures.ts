/**
 * What real aircraft exports put around a panel, made by code on top of {@link addPanel}'s panels:
 * quantized positions (KHR_mesh_quantization), skins, GPU instancing, morph targets, and loose
 * primitives (lines, points) — so the rig tests can try it on files shaped like a user's.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { EXTMeshGPUInstancing, KHRMeshQuantization } from "@gltf-transform/extensions";

/**
 * Stores a panel's positions as KHR_mesh_quantization integers with the dequantization on the node,
 * as gltfpack and meshoptimizer do: normalized `int16`/`int8` about the mesh's centre, or unsigned
 * `uint16` grid steps from its corner, scaled (uniformly) and offset by the node. Only for a panel
 * whose own transform is the identity (the node transform is replaced).
 */
export function quantizePositions(doc: Document, node: Node, type: "int16" | "int8" | "uint16"): void {
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  const accessor = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  const floats = accessor.getArray() as Float32Array;
  const min = [0, 1, 2].map((k) => Math.min(...floats.filter((_, i) => i % 3 === k)));
  const max = [0, 1, 2].map((k) => Math.max(...floats.filter((_, i) => i % 3 === k)));
  if (type === "uint16") {
    const step = Math.max(...max.map((m, k) => m - min[k])) / 65535;
    accessor.setArray(Uint16Array.from(floats, (v, i) => Math.round((v - min[i % 3]) / step)));
    node.setTranslation([min[0], min[1], min[2]]).setScale([step, step, step]);
    return;
  }
  const centre = min.map((m, k) => (m + max[k]) / 2);
  const half = Math.max(...max.map((m, k) => m - min[k])) / 2;
  const top = type === "int16" ? 32767 : 127;
  const steps = Array.from(floats, (v, i) => Math.round(((v - centre[i % 3]) / half) * top));
  accessor.setArray(type === "int16" ? Int16Array.from(steps) : Int8Array.from(steps)).setNormalized(true);
  node.setTranslation([centre[0], centre[1], centre[2]]).setScale([half, half, half]);
}

/** A new node named `name` under `parent` showing `node`'s first primitive as lines or points. */
export function looseCopy(doc: Document, node: Node, name: string, mode: "lines" | "points"): Node {
  const source = node.getMesh()!.listPrimitives()[0];
  const primitive = doc.createPrimitive()
    .setMode(mode === "lines" ? 1 : 0)
    .setAttribute("POSITION", source.getAttribute("POSITION"));
  return doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive));
}

/** A mesh node `name` with one primitive of `mode` (0 points, 1 lines, 4 triangles) through `points`. */
export function rawMeshNode(doc: Document, name: string, points: number[], mode: 0 | 1 | 4): Node {
  const buffer = doc.getRoot().listBuffers()[0];
  const position = doc.createAccessor(`${name}.position`, buffer).setType("VEC3")
    .setArray(new Float32Array(points));
  return doc.createNode(name).setMesh(
    doc.createMesh(name).addPrimitive(doc.createPrimitive().setMode(mode).setAttribute("POSITION", position)),
  );
}

/**
 * Skins `node`'s mesh to `joints` (a bone chain), every vertex fully weighted to the first, with
 * inverse bind matrices that keep the bind pose where the mesh is drawn now.
 */
export function skinToJoints(doc: Document, node: Node, joints: Node[]): void {
  const buffer = doc.getRoot().listBuffers()[0];
  const primitive = node.getMesh()!.listPrimitives()[0];
  const count = primitive.getAttribute("POSITION")!.getCount();
  const weights = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) weights[i * 4] = 1;
  primitive
    .setAttribute(
      "JOINTS_0",
      doc.createAccessor("joints", buffer).setType("VEC4").setArray(new Uint8Array(count * 4)),
    )
    .setAttribute("WEIGHTS_0", doc.createAccessor("weights", buffer).setType("VEC4").setArray(weights));
  const inverseBind = new Float32Array(joints.flatMap((joint) => {
    const t = joint.getWorldTranslation();
    return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -t[0], -t[1], -t[2], 1];
  }));
  const skin = doc.createSkin("skin").setInverseBindMatrices(
    doc.createAccessor("inverse_bind", buffer).setType("MAT4").setArray(inverseBind),
  );
  for (const joint of joints) skin.addJoint(joint);
  node.setSkin(skin);
}

/** Draws `node`'s mesh once per translation with EXT_mesh_gpu_instancing. */
export function instanceAt(doc: Document, node: Node, translations: number[][]): void {
  const buffer = doc.getRoot().listBuffers()[0];
  const extension = doc.createExtension(EXTMeshGPUInstancing);
  const translation = doc.createAccessor("instances", buffer).setType("VEC3")
    .setArray(new Float32Array(translations.flat()));
  node.setExtension(
    "EXT_mesh_gpu_instancing",
    extension.createInstancedMesh().setAttribute("TRANSLATION", translation),
  );
}

/** Adds a morph target moving every vertex by `delta`, at default weight `weight` on the mesh. */
export function addMorphTarget(
  doc: Document,
  node: Node,
  delta: [number, number, number],
  weight: number,
): void {
  const buffer = doc.getRoot().listBuffers()[0];
  const mesh = node.getMesh()!;
  const primitive = mesh.listPrimitives()[0];
  const count = primitive.getAttribute("POSITION")!.getCount();
  const deltas = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) deltas.set(delta, i * 3);
  primitive.addTarget(
    doc.createPrimitiveTarget("moved").setAttribute(
      "POSITION",
      doc.createAccessor("target", buffer).setType("VEC3").setArray(deltas),
    ),
  );
  mesh.setWeights([weight]);
}
