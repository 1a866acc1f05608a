/**
 * Matrices of the demo layout, in double precision: local transforms from TRS and world transforms
 * by walking parents. The truth and the scene builder share these so they cannot disagree.
 *
 * @module
 */
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { mat4 } from "gl-matrix/esm/index.js";
import type { LayoutNode, Trs } from "./fighter_layout.ts";
import type { Vec3 } from "./mesh_builder.ts";

/** A column-major 4×4 matrix in double precision. */
export type Matrix = Float64Array;

/** The local matrix T·R·S of a TRS. */
export function trsMatrix(trs: Trs): Matrix {
  return mat4.fromRotationTranslationScale(
    new Float64Array(16),
    trs.rotation,
    trs.translation,
    trs.scale,
  ) as Matrix;
}

/** World matrices of every layout node, by name (parents must precede children in `nodes`). */
export function worldMatrices(nodes: readonly LayoutNode[]): Map<string, Matrix> {
  const world = new Map<string, Matrix>();
  for (const node of nodes) {
    const local = trsMatrix(node.trs);
    const parent = node.parent === null ? undefined : world.get(node.parent);
    if (node.parent !== null && !parent) throw new Error(`layout: ${node.name} precedes its parent`);
    world.set(node.name, parent ? mat4.multiply(new Float64Array(16), parent, local) as Matrix : local);
  }
  return world;
}

/** The inverse of an (invertible) matrix. */
export function invert(matrix: Matrix): Matrix {
  const out = mat4.invert(new Float64Array(16), matrix);
  if (!out) throw new Error("layout: singular transform");
  return out as Matrix;
}

/** Applies a matrix to a point. */
export function transformPoint(m: Matrix, p: Vec3): Vec3 {
  return [
    m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
    m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
    m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
  ];
}

/** Applies a matrix's linear part to a direction (no translation, not normalised). */
export function transformDirection(m: Matrix, d: Vec3): Vec3 {
  return [
    m[0] * d[0] + m[4] * d[1] + m[8] * d[2],
    m[1] * d[0] + m[5] * d[1] + m[9] * d[2],
    m[2] * d[0] + m[6] * d[1] + m[10] * d[2],
  ];
}
