/**
 * Vertex normals with hard edges, the way modelling tools export them: faces meeting at more than a
 * crease angle get their own copies of the shared vertex. Real exports look like this (a flat-shaded
 * box has 24 vertices, not 8), so a hinge fit on the demo sees duplicated positions along every hard
 * edge, as it would on a real model.
 *
 * @module
 */

/** Indexed geometry with per-vertex normals. */
export interface ShadedMesh {
  /** xyz per vertex. */
  readonly positions: Float32Array<ArrayBuffer>;
  /** Unit normal per vertex. */
  readonly normals: Float32Array<ArrayBuffer>;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  readonly indices: Uint32Array<ArrayBuffer>;
}

/** Faces whose normals differ by more than this share no vertex (degrees). */
export const DEFAULT_CREASE_DEGREES = 40;

/**
 * Splits vertices along hard edges and gives every vertex the normal of its smooth group, its faces'
 * unit normals weighted by their corner angles (so tessellation does not tilt it). Vertex order follows the input; split copies are appended in first-use order (deterministic).
 *
 * @example
 * ```ts
 * const shaded = withCreaseNormals(positions, indices); // a box comes back with 24 vertices
 * ```
 */
export function withCreaseNormals(
  positions: Float32Array,
  indices: Uint32Array,
  creaseDegrees: number = DEFAULT_CREASE_DEGREES,
): ShadedMesh {
  const vertexCount = positions.length / 3;
  const faceCount = indices.length / 3;
  const faceNormals = new Float64Array(faceCount * 3); // unit
  for (let f = 0; f < faceCount; f++) {
    const a = indices[f * 3] * 3, b = indices[f * 3 + 1] * 3, c = indices[f * 3 + 2] * 3;
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1];
    const uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1];
    const vz = positions[c + 2] - positions[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const length = Math.hypot(nx, ny, nz) || 1;
    faceNormals[f * 3] = nx / length;
    faceNormals[f * 3 + 1] = ny / length;
    faceNormals[f * 3 + 2] = nz / length;
  }
  // Faces around each vertex, as a CSR list in face order.
  const start = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < indices.length; i++) start[indices[i] + 1]++;
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const fill = start.slice(0, vertexCount);
  const cornerFaces = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) cornerFaces[fill[indices[i]]++] = Math.floor(i / 3);

  const cosCrease = Math.cos((creaseDegrees * Math.PI) / 180);
  const outPositions: number[] = [];
  const outNormals: number[] = [];
  const outIndices = new Uint32Array(indices.length);
  for (let v = 0; v < vertexCount; v++) {
    // The smooth groups around this vertex: the face that opened each, its output vertex, summed normal.
    const groups: { lead: number; out: number; sum: [number, number, number] }[] = [];
    for (let k = start[v]; k < start[v + 1]; k++) {
      const face = cornerFaces[k];
      let group = groups.find((g) => cosine(faceNormals, g.lead, face) >= cosCrease);
      if (!group) {
        group = { lead: face, out: outPositions.length / 3, sum: [0, 0, 0] };
        outPositions.push(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]);
        groups.push(group);
      }
      const corner = cornerOfFace(indices, face, v);
      const weight = cornerAngle(positions, indices, corner);
      for (let i = 0; i < 3; i++) group.sum[i] += weight * faceNormals[face * 3 + i];
      outIndices[corner] = group.out;
    }
    for (const group of groups) {
      const length = Math.hypot(...group.sum) || 1;
      for (let i = 0; i < 3; i++) outNormals[group.out * 3 + i] = group.sum[i] / length;
    }
  }
  return {
    positions: Float32Array.from(outPositions),
    normals: Float32Array.from(outNormals),
    indices: outIndices,
  };
}

function cosine(normals: Float64Array, f: number, g: number): number {
  const a = f * 3, b = g * 3;
  return normals[a] * normals[b] + normals[a + 1] * normals[b + 1] + normals[a + 2] * normals[b + 2];
}

/** The interior angle of a triangle at one of its corners (radians). */
function cornerAngle(positions: Float32Array, indices: Uint32Array, corner: number): number {
  const face = corner - (corner % 3);
  const at = indices[corner] * 3;
  const next = indices[face + ((corner - face + 1) % 3)] * 3;
  const prev = indices[face + ((corner - face + 2) % 3)] * 3;
  const ux = positions[next] - positions[at], uy = positions[next + 1] - positions[at + 1];
  const uz = positions[next + 2] - positions[at + 2];
  const vx = positions[prev] - positions[at], vy = positions[prev + 1] - positions[at + 1];
  const vz = positions[prev + 2] - positions[at + 2];
  const cross = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  return Math.atan2(cross, ux * vx + uy * vy + uz * vz);
}

/** The corner (index-buffer position) of `face` that refers to vertex `v`. */
function cornerOfFace(indices: Uint32Array, face: number, v: number): number {
  for (let i = face * 3; i < face * 3 + 3; i++) if (indices[i] === v) return i;
  throw new Error("crease normals: face does not use its vertex");
}
