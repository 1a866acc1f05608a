/**
 * Normals NaN or of zero length (a division by a zero length in the source, a modding tool's zeroed
 * VMesh normals) given a direction that shades as their neighbours do: the normals of their sound copies
 * at the same place (the same corner written once per triangle, or split at a UV seam) on their
 * triangles' side, else the triangles at that place on that side, smoothed; else their own triangles'.
 * Shared by `decode.gltf` (normal_facing.ts) and `export.gltf`'s repair, which would otherwise make
 * them +Z, so a scene from any decoder is mended by the same rule. Works on plain arrays: each caller
 * gives the array to write into its own way (a primitive's own accessor, a copy on write).
 *
 * @module
 */

/** Place keys made by {@link mendDirectionless} (a count for tests: the work grows with the mended). */
export const placeKeys = { count: 0 };

/** Normals within this angle of a mended vertex's triangles are taken as its copies' (cos 45°). */
const SAME_SIDE = Math.SQRT1_2;

/** Twice a triangle's area vector (its winding's normal), written into `out`. */
export function faceVector(p: ArrayLike<number>, a: number, b: number, c: number, out: number[]): number[] {
  const ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2];
  const vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2];
  out[0] = uy * vz - uz * vy, out[1] = uz * vx - ux * vz, out[2] = ux * vy - uy * vx;
  return out;
}

/**
 * The share of the triangles' area whose corners' normals face against its winding (0 without any):
 * near 1 where a tool flipped the normals or mirrored the vertices without reversing the triangles.
 */
export function againstShare(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  triangles: ArrayLike<number>,
): number {
  let against = 0, along = 0;
  const g = [0, 0, 0];
  for (let f = 0; f + 2 < triangles.length; f += 3) {
    const a = triangles[f], b = triangles[f + 1], c = triangles[f + 2];
    faceVector(positions, a, b, c, g);
    let dot = 0;
    for (let k = 0; k < 3; k++) {
      const v = triangles[f + k];
      const d = g[0] * normals[3 * v] + g[1] * normals[3 * v + 1] + g[2] * normals[3 * v + 2];
      if (Number.isFinite(d)) dot += d;
    }
    const area = Math.hypot(g[0], g[1], g[2]);
    if (!Number.isFinite(area) || dot === 0) continue;
    if (dot < 0) against += area;
    else along += area;
  }
  return against + along > 0 ? against / (against + along) : 0;
}

/**
 * Gives the normals NaN or of zero length that some triangle draws a direction (see the module doc):
 * `orientation` 1 takes the triangles' winding as the front, −1 the other side (a primitive whose other
 * normals face against it). `writable` is asked once, when there is one to mend, for the array to write
 * (holding the same normals as `normals`). Returns how many were mended; those of no triangle are left.
 */
export function mendDirectionless(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  triangles: ArrayLike<number>,
  orientation: 1 | -1,
  writable: () => { [index: number]: number; subarray(start: number, end: number): ArrayLike<number> },
): number {
  const bad = new Set<number>();
  for (let v = 0; 3 * v + 2 < normals.length; v++) {
    const x = normals[3 * v], y = normals[3 * v + 1], z = normals[3 * v + 2];
    const length = Math.hypot(x, y, z);
    if (!Number.isFinite(length) || length < 1e-6) bad.add(v);
  }
  if (!bad.size) return 0;
  // Positions exactly equal, as one corner's copies are (written once per triangle, split at a seam).
  const place = (v: number) => (
    placeKeys.count++, `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`
  );
  const places = new Map<string, { sound: number[]; faces: number[][] }>();
  for (const v of bad) places.set(place(v), { sound: [], faces: [] });
  // The mended places' x: a vertex elsewhere is passed over without making its key (a few zero normals
  // in a million-vertex mesh cost a pass of number compares, not a million strings).
  const xs = new Set<number>();
  for (const v of bad) xs.add(positions[3 * v]);
  const atMendedX = (v: number) => xs.has(positions[3 * v]);
  for (let v = 0; 3 * v + 2 < normals.length; v++) {
    if (!bad.has(v) && atMendedX(v)) places.get(place(v))?.sound.push(v);
  }
  // Each mended vertex's own triangles' direction, and every triangle's direction at its place.
  const own = new Map<number, number[]>();
  const g = [0, 0, 0];
  const t = triangles;
  for (let f = 0; f + 2 < t.length; f += 3) {
    if (!atMendedX(t[f]) && !atMendedX(t[f + 1]) && !atMendedX(t[f + 2])) continue;
    const corners = [t[f], t[f + 1], t[f + 2]];
    const at = corners.map((v) => places.get(place(v)));
    if (!at.some(Boolean)) continue;
    faceVector(positions, corners[0], corners[1], corners[2], g);
    if (!g.every(Number.isFinite)) continue;
    const direction = g.map((c) => orientation * c);
    corners.forEach((v, k) => {
      at[k]?.faces.push(direction);
      if (!bad.has(v)) return;
      const s = own.get(v) ?? [0, 0, 0];
      for (let c = 0; c < 3; c++) s[c] += direction[c];
      own.set(v, s);
    });
  }
  if (![...own.values()].some((s) => Math.hypot(s[0], s[1], s[2]) > 0)) return 0;
  const normal = writable();
  let mended = 0;
  for (const [v, s] of own) {
    const length = Math.hypot(s[0], s[1], s[2]);
    if (!(length > 0)) continue;
    const face = s.map((c) => c / length);
    const { sound, faces } = places.get(place(v))!;
    const side = (n: ArrayLike<number>) =>
      n[0] * face[0] + n[1] * face[1] + n[2] * face[2] >= SAME_SIDE * Math.hypot(n[0], n[1], n[2]);
    // Its sound copies' normals on its side; else the triangles at its place on its side, smoothed.
    const near = [0, 0, 0];
    for (const c of sound) {
      const n = normal.subarray(3 * c, 3 * c + 3), unit = Math.hypot(n[0], n[1], n[2]);
      if (side(n)) { for (let k = 0; k < 3; k++) near[k] += n[k] / unit; }
    }
    if (!Math.hypot(near[0], near[1], near[2])) {
      for (const n of faces) if (side(n)) { for (let k = 0; k < 3; k++) near[k] += n[k]; }
    }
    const nearLength = Math.hypot(near[0], near[1], near[2]);
    const out = nearLength > 0 ? near.map((c) => c / nearLength) : face;
    for (let k = 0; k < 3; k++) normal[3 * v + k] = out[k];
    mended++;
  }
  return mended;
}
