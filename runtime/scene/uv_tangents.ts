/**
 * Per-vertex tangents from a primitive's normals and a UV set, by Lengyel's method as three.js's
 * `computeTangents` makes them: each triangle's UV directions summed at its corners, made orthogonal
 * to the normal, with the UVs' handedness in w. Shared by `decode.gltf` (tangents for a clear coat or
 * anisotropy map, signs of 0 mended) and `export.gltf`'s repair (signs of 0 from any decoder's scene),
 * so a sign of 0 is mended by the same rule wherever the scene came from.
 *
 * @module
 */
import type { Primitive } from "@gltf-transform/core";

/**
 * Per-vertex tangents of `primitive` from its normals and UV set `set` (w the UVs' handedness), or why none
 * can be made.
 */
export function tangentsOf(primitive: Primitive, set: string): Float32Array<ArrayBuffer> | string {
  const position = primitive.getAttribute("POSITION"), normal = primitive.getAttribute("NORMAL");
  const uv = primitive.getAttribute(set);
  if (!position || !normal) return "no normals";
  if (!uv) return `no ${set}`;
  const count = position.getCount();
  const indices = primitive.getIndices();
  const index = (i: number) => indices ? indices.getScalar(i) : i;
  const triangles = Math.floor((indices?.getCount() ?? count) / 3);
  const tan = new Float64Array(3 * count), bit = new Float64Array(3 * count);
  const p = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], t = [[0, 0], [0, 0], [0, 0]];
  for (let f = 0; f < triangles; f++) {
    const corners = [index(3 * f), index(3 * f + 1), index(3 * f + 2)];
    corners.forEach((v, k) => (position.getElement(v, p[k]), uv.getElement(v, t[k])));
    const e1 = [0, 1, 2].map((c) => p[1][c] - p[0][c]), e2 = [0, 1, 2].map((c) => p[2][c] - p[0][c]);
    const [s1, t1, s2, t2] = [t[1][0] - t[0][0], t[1][1] - t[0][1], t[2][0] - t[0][0], t[2][1] - t[0][1]];
    const det = s1 * t2 - s2 * t1;
    if (!Number.isFinite(det) || Math.abs(det) < 1e-20) continue;
    const r = 1 / det;
    for (const v of corners) {
      for (let c = 0; c < 3; c++) {
        tan[3 * v + c] += (e1[c] * t2 - e2[c] * t1) * r;
        bit[3 * v + c] += (e2[c] * s1 - e1[c] * s2) * r;
      }
    }
  }
  const out = new Float32Array(4 * count);
  const n = [0, 0, 0];
  for (let v = 0; v < count; v++) {
    normal.getElement(v, n);
    const d = n[0] * tan[3 * v] + n[1] * tan[3 * v + 1] + n[2] * tan[3 * v + 2];
    let x = tan[3 * v] - n[0] * d, y = tan[3 * v + 1] - n[1] * d, z = tan[3 * v + 2] - n[2] * d;
    let length = Math.hypot(x, y, z);
    if (!(length > 1e-12)) {
      // No UV direction here (an undrawn vertex, degenerate UVs): any unit vector across the normal.
      const a = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      const along = n[0] * a[0] + n[1] * a[1] + n[2] * a[2];
      [x, y, z] = [a[0] - n[0] * along, a[1] - n[1] * along, a[2] - n[2] * along];
      length = Math.hypot(x, y, z) || 1;
    }
    const cx = n[1] * z - n[2] * y, cy = n[2] * x - n[0] * z, cz = n[0] * y - n[1] * x;
    const w = cx * bit[3 * v] + cy * bit[3 * v + 1] + cz * bit[3 * v + 2] < 0 ? -1 : 1;
    out.set([x / length, y / length, z / length, w], 4 * v);
  }
  return out;
}
