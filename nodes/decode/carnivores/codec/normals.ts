/**
 * Smooth vertex normals as the game lights its models. `CalcLights` (C1, C2 and Ice Age) gives each
 * point the normalised sum of the unit normals of the faces that use it, sfOpacity faces left out,
 * and shades with it per vertex (Gouraud): a model is smooth across every edge its faces share, UV
 * seams and material changes included. Without a NORMAL attribute glTF viewers must shade flat
 * (Blender 3.4 and three.js do), so every Carnivores model looked faceted.
 *
 * @module
 */
import { FaceFlag, type FaceTable } from "./model.ts";

/**
 * Unit normals per point in scene space, from the faces' scene-space corners in glTF winding
 * (`v1, v3, v2`). A point that only sfOpacity faces use (the game leaves it unshaded) takes the sum
 * of those faces instead, and one with no face of any area (unused, or on degenerate faces only)
 * gets +Y, so that every normal is a unit vector as glTF requires.
 *
 * @example
 * ```ts
 * import { parse3df } from "./parse_3df.ts";
 * const model = parse3df(await Deno.readFile("palm.3df"), "palm.3df", console.warn);
 * // Scene space is (x, y, −z) times the scale.
 * const scene = Float64Array.from(model.points.positions, (v, i) => (i % 3 === 2 ? -v : v));
 * const normals = pointNormals(model.faces, scene); // 3 per point, unit length
 * ```
 */
export function pointNormals(faces: FaceTable, scenePositions: Float64Array): Float32Array {
  const pointCount = scenePositions.length / 3;
  // Sums over plain faces first, then over sfOpacity faces for points no plain face uses.
  const plain = new Float64Array(pointCount * 3);
  const keyed = new Float64Array(pointCount * 3);
  for (let f = 0; f < faces.count; f++) {
    if (faces.broken?.[f]) continue;
    const [a, c, b] = [faces.indices[f * 3], faces.indices[f * 3 + 1], faces.indices[f * 3 + 2]];
    const e1 = [0, 1, 2].map((k) => scenePositions[b * 3 + k] - scenePositions[a * 3 + k]);
    const e2 = [0, 1, 2].map((k) => scenePositions[c * 3 + k] - scenePositions[a * 3 + k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const length = Math.hypot(n[0], n[1], n[2]);
    // A degenerate face has no direction; the game's NormVector would spread NaN instead.
    if (!(length > 0 && Number.isFinite(length))) continue;
    const sums = faces.flags[f] & FaceFlag.opacity ? keyed : plain;
    for (const p of [a, b, c]) for (let k = 0; k < 3; k++) sums[p * 3 + k] += n[k] / length;
  }
  const out = new Float32Array(pointCount * 3);
  for (let p = 0; p < pointCount; p++) {
    const n = unit(plain, p) ?? unit(keyed, p) ?? [0, 1, 0];
    out.set(n, p * 3);
  }
  return out;
}

/** The sum at point `p` normalised, or undefined when it has no direction. */
function unit(sums: Float64Array, p: number): number[] | undefined {
  const v = [sums[p * 3], sums[p * 3 + 1], sums[p * 3 + 2]];
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 1e-9 ? v.map((x) => x / length) : undefined;
}
