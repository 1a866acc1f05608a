/**
 * Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations: robust for repeated
 * eigenvalues (near-square panels), where power iteration from a fixed start vector is not.
 *
 * @module
 */

/** Eigenvalues (ascending) with their unit eigenvectors. */
export interface Eigen3 {
  /** `values[0] ≤ values[1] ≤ values[2]`. */
  readonly values: [number, number, number];
  /** `vectors[i]` belongs to `values[i]`. */
  readonly vectors: [[number, number, number], [number, number, number], [number, number, number]];
}

/**
 * Decomposes the symmetric matrix with entries `xx, xy, xz, yy, yz, zz`.
 *
 * @example
 * ```ts
 * const { values, vectors } = symmetricEigen3(1, 0, 0, 2, 0, 3);
 * values;     // [1, 2, 3]
 * vectors[0]; // [1, 0, 0] (up to sign)
 * ```
 */
export function symmetricEigen3(
  xx: number,
  xy: number,
  xz: number,
  yy: number,
  yz: number,
  zz: number,
): Eigen3 {
  const a = [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]];
  const v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const scale = Math.abs(xx) + Math.abs(yy) + Math.abs(zz) + Math.abs(xy) + Math.abs(xz) + Math.abs(yz);
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = Math.abs(a[0][1]) + Math.abs(a[0][2]) + Math.abs(a[1][2]);
    if (off <= scale * 1e-15 || off === 0) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = a[p][q];
        if (apq === 0) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 3; k++) {
          const akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[i][i] - a[j][j] || i - j);
  const column = (i: number): [number, number, number] => [v[0][i], v[1][i], v[2][i]];
  return {
    values: [a[order[0]][order[0]], a[order[1]][order[1]], a[order[2]][order[2]]],
    vectors: [column(order[0]), column(order[1]), column(order[2])],
  };
}
