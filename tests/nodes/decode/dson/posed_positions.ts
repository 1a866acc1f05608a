/**
 * Where a viewer draws a decoded mesh's vertices: for tests that compare posed geometry.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";

/**
 * World positions (m) of a mesh node's first primitive's POSITION values: by its world matrix, or,
 * skinned, by its joints' world matrices and inverse binds, weighted (linear blend skinning, as a
 * viewer draws it).
 *
 * @example
 * ```ts
 * const [first] = worldPositions(meshNode); // [x, y, z] in metres
 * ```
 */
export function worldPositions(node: Node): number[][] {
  const primitive = node.getMesh()!.listPrimitives()[0];
  const array = primitive.getAttribute("POSITION")!.getArray()!;
  const skin = node.getSkin();
  const matrices = skin
    ? skin.listJoints().map((joint, j) => {
      const ibm = skin.getInverseBindMatrices()!.getElement(j, []);
      const m = joint.getWorldMatrix();
      return Array.from({ length: 16 }, (_, k) => {
        const [c, r] = [Math.floor(k / 4), k % 4];
        return [0, 1, 2, 3].reduce((sum, i) => sum + m[i * 4 + r] * ibm[c * 4 + i], 0);
      });
    })
    : [node.getWorldMatrix()];
  const out: number[][] = [];
  for (let i = 0; i < array.length; i += 3) {
    const [x, y, z] = [array[i], array[i + 1], array[i + 2]];
    const joints = skin ? primitive.getAttribute("JOINTS_0")!.getElement(i / 3, []) : [0];
    const weights = skin ? primitive.getAttribute("WEIGHTS_0")!.getElement(i / 3, []) : [1];
    out.push([0, 1, 2].map((r) =>
      joints.reduce((sum, j, s) => {
        const m = matrices[j];
        return sum + weights[s] * (m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
      }, 0)
    ));
  }
  return out;
}
