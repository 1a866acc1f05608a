/**
 * Float64 matrix arithmetic on glTF-Transform's `mat4` (plain arrays, column-major), for the nodes that
 * re-derive a local transform from world matrices (conforming items, rigid followers, presets):
 * gl-matrix's `Float32Array`s would round poses a chain of them compounds.
 *
 * @module
 */
import type { mat4 } from "@gltf-transform/core";
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { mat4 as m4 } from "gl-matrix/esm/index.js";

/** The identity matrix. */
export const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] as unknown as mat4;

/** A new float64 matrix of zeros, to write a result into. */
export function matrix(): mat4 {
  return new Array(16).fill(0) as unknown as mat4;
}

/** The inverse of `m` in float64, or undefined when it has none. */
export function invert(m: mat4): mat4 | undefined {
  return (m4.invert(matrix() as unknown as m4, m as unknown as m4) ?? undefined) as mat4 | undefined;
}

/** `a · b` in float64. */
export function multiply(a: mat4, b: mat4): mat4 {
  return m4.multiply(matrix() as unknown as m4, a as unknown as m4, b as unknown as m4) as unknown as mat4;
}

/** A scale within rounding of 1 is 1, so an unscaled node writes no scale. */
export function snapToOne(v: number): number {
  return Math.abs(v - 1) < 1e-12 ? 1 : v;
}
