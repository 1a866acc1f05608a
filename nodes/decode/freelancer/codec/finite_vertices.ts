/**
 * Vertices a converter left at NaN or infinity (a division by zero in its normal or UV code, an
 * unfilled buffer). A triangle through a vertex whose position is not finite is no triangle: the game
 * draws nothing there (Direct3D clips it away), while glTF forbids such a value in an accessor and
 * `export.gltf` would put it at 0, drawing a spike to the origin. Such triangles are left out; a UV value
 * that is not finite becomes 0 (what the texture shows there is undefined in the game too). Normals are
 * made unit by the gather already (those of no direction mended by zero_normals.ts), and vertex colours
 * are bytes.
 *
 * @module
 */
import type { SelectedPrimitive } from "./vmesh_select.ts";

/**
 * `prims` with the triangles (or, with `corners` 2, the wireframe's lines) through non-finite positions
 * left out (a primitive left with none is dropped) and non-finite UVs set to 0; `warn` hears what was
 * changed, once, when anything was.
 *
 * @example
 * ```ts
 * prims = withFiniteVertices(prims, (what) => console.warn(`mesh 'hull.vms': ${what}`));
 * ```
 */
export function withFiniteVertices(
  prims: SelectedPrimitive[],
  warn: (what: string) => void,
  corners: 2 | 3 = 3,
): SelectedPrimitive[] {
  // The gather has flagged every primitive that holds such a value: most references hold none.
  if (!prims.some((prim) => prim.nonFinite)) return prims;
  const shape = corners === 3 ? "triangle" : "line";
  let triangles = 0, points = 0, uvValues = 0;
  const out: SelectedPrimitive[] = [];
  for (const prim of prims) {
    // The gather has flagged every primitive that holds such a value; the rest cost nothing here.
    if (!prim.nonFinite) {
      out.push(prim);
      continue;
    }
    uvValues += zeroNonFinite(prim.uvs);
    const bad = nonFinitePoints(prim.positions);
    if (!bad) {
      out.push({ ...prim, nonFinite: undefined });
      continue;
    }
    points += bad.size;
    const kept: number[] = [];
    const { indices, positions } = prim;
    for (let i = 0; i + corners - 1 < indices.length; i += corners) {
      const each = indices.subarray(i, i + corners);
      if (each.some((v) => bad.has(v))) triangles++;
      else kept.push(...each);
    }
    // The vertex stays in the arrays (its index is no triangle's), at 0 so that the accessor is valid.
    for (const v of bad) positions.fill(0, 3 * v, 3 * v + 3);
    if (kept.length) out.push({ ...prim, indices: new Uint16Array(kept), nonFinite: undefined });
  }
  const said = [
    triangles || points
      ? `${triangles} ${shape}(s) through ${points} vertex position(s) that are not finite (NaN or ` +
        `infinity) left out, as the game draws no ${shape} there`
      : "",
    uvValues ? `${uvValues} UV value(s) that are not finite set to 0` : "",
  ].filter(Boolean);
  if (said.length) warn(said.join("; "));
  return out;
}

/** The vertices (by index) whose position holds a value that is not finite, or undefined. */
function nonFinitePoints(positions: Float32Array): Set<number> | undefined {
  let bad: Set<number> | undefined;
  for (let i = 0; i < positions.length; i++) {
    // x - x is 0 for finite x, NaN for NaN and ±infinity: one test for both.
    if (positions[i] - positions[i] !== 0) (bad ??= new Set()).add(Math.floor(i / 3));
  }
  return bad;
}

/** Sets every value of `arrays` that is not finite to 0; how many there were. */
function zeroNonFinite(arrays: readonly Float32Array[]): number {
  let count = 0;
  for (const array of arrays) {
    for (let i = 0; i < array.length; i++) {
      if (array[i] - array[i] !== 0) {
        array[i] = 0;
        count++;
      }
    }
  }
  return count;
}
