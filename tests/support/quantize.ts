/**
 * Quantization as web optimisers (gltfpack, glTF-Transform's `quantize`) leave a model, made by code
 * for tests: `KHR_mesh_quantization` positions as normalized int16 about each mesh's centre, with the
 * dequantization (a uniform scale and an offset) on the node drawing it, normals as normalized int8 and
 * texture coordinates in [0, 1] as normalized uint16.
 *
 * @module
 */
import type { Accessor, Document, Node } from "@gltf-transform/core";
import { KHRMeshQuantization } from "@gltf-transform/extensions";
import { type Quat, quatRotate } from "../../nodes/rig/transform.ts";

/**
 * Quantizes every mesh drawn by exactly one node, in place. A node with children keeps its place
 * and hands its mesh to a new child holding the dequantization (as gltfpack does), so the children
 * are not scaled.
 */
export function quantizeLikeGltfpack(doc: Document): void {
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh || mesh.listParents().filter((p) => p.propertyType === "Node").length !== 1) continue;
    const positions = mesh.listPrimitives().map((p) => p.getAttribute("POSITION")!);
    const { centre, half } = boundsOf(positions);
    if (!(half > 0)) continue;
    for (const primitive of mesh.listPrimitives()) {
      for (const semantic of primitive.listSemantics()) {
        const accessor = primitive.getAttribute(semantic)!;
        if (semantic === "POSITION") quantize(accessor, (v, k) => (v - centre[k]) / half, Int16Array);
        if (semantic === "NORMAL") quantize(accessor, (v) => v, Int8Array);
        if (semantic.startsWith("TEXCOORD_") && inUnitRange(accessor)) {
          quantize(accessor, (v) => v, Uint16Array);
        }
      }
    }
    dequantizeOn(doc, node, centre, half);
  }
}

/** The box of the positions: its centre, and half its largest side (the uniform scale). */
function boundsOf(positions: Accessor[]): { centre: number[]; half: number } {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const accessor of positions) {
    const array = accessor.getArray()!;
    for (let i = 0; i < array.length; i++) {
      lo[i % 3] = Math.min(lo[i % 3], array[i]);
      hi[i % 3] = Math.max(hi[i % 3], array[i]);
    }
  }
  return {
    centre: lo.map((l, k) => (l + hi[k]) / 2),
    half: Math.max(...lo.map((l, k) => hi[k] - l)) / 2,
  };
}

function inUnitRange(accessor: Accessor): boolean {
  return Array.from(accessor.getArray()!).every((v) => v >= 0 && v <= 1);
}

/** Stores `map`ped values (in [−1, 1], or [0, 1] for unsigned) as normalized integers of `Type`. */
function quantize(
  accessor: Accessor,
  map: (value: number, component: number) => number,
  Type: Int16ArrayConstructor | Int8ArrayConstructor | Uint16ArrayConstructor,
): void {
  const top = Type === Int16Array ? 32767 : Type === Int8Array ? 127 : 65535;
  const size = accessor.getElementSize();
  const array = accessor.getArray()!;
  const out = new Type(array.length);
  for (let i = 0; i < array.length; i++) out[i] = Math.round(map(array[i], i % size) * top);
  accessor.setArray(out).setNormalized(true);
}

/**
 * Puts `T(centre) · S(half)` after the node's own transform: on the node when it has no children,
 * else on a new child that takes the mesh.
 */
function dequantizeOn(doc: Document, node: Node, centre: number[], half: number): void {
  let target = node;
  if (node.listChildren().length) {
    target = doc.createNode(`${node.getName()}.mesh`).setMesh(node.getMesh());
    node.setMesh(null).addChild(target);
  }
  const [t, r, s] = [target.getTranslation(), target.getRotation(), target.getScale()];
  // T·R·S·T(c)·S(h) = T(t + R(s∘c)) · R · S(s·h): the rotation is kept and the scale stays per axis.
  const offset = quatRotate(r as Quat, [s[0] * centre[0], s[1] * centre[1], s[2] * centre[2]]);
  target.setTranslation([t[0] + offset[0], t[1] + offset[1], t[2] + offset[2]])
    .setScale([s[0] * half, s[1] * half, s[2] * half]);
}
