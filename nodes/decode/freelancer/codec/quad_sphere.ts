/**
 * The sphere a planet or sun (`.sph`) is drawn on: a file holds only a radius and side materials, so
 * the mesh is generated, as Librelancer's `QuadSphere` does it — a cube of six faces, each a grid of
 * `slices × slices` quads, every point pushed onto the unit sphere by the cube-to-sphere map
 * `x' = x·√(1 − y²/2 − z²/2 + y²z²/3)` (and the same for y, z), which spreads the points more evenly
 * than normalising. Each face has its own vertices (the texture coordinates of neighbouring faces
 * do not meet), and its own texture-coordinate orientation, as Librelancer lays them out (below).
 *
 * @module
 */

/** A cube face: the axis it faces and the sign along it. */
export type CubeFace = "+X" | "-X" | "+Y" | "-Y" | "+Z" | "-Z";

/** One face of the generated sphere: unit-sphere positions (= normals), UVs and outward triangles. */
export interface SphereFace {
  readonly face: CubeFace;
  /** `(slices + 1)²` points on the unit sphere, xyz. */
  readonly positions: Float32Array;
  /** `(slices + 1)²` texture coordinates. */
  readonly uvs: Float32Array;
  /** `slices² × 6` indices into this face's points, counter-clockwise seen from outside. */
  readonly indices: Uint16Array;
}

/** The subdivision Librelancer draws `.sph` files with (`GetQuadSphere(26)`). */
export const SPHERE_SLICES = 26;

/**
 * Where grid point `(i, j)` of a face (each in `[-1, 1]`) sits on the cube, and its texture
 * coordinate from `(s, t)` = `(i, j)` mapped to `[0, 1]`. The layouts are Librelancer's.
 */
const FACES: Record<CubeFace, (p: number, q: number, s: number, t: number) => [number[], number, number]> = {
  "+Y": (p, q, s, t) => [[p, 1, q], s, 1 - t],
  "-Y": (p, q, s, t) => [[p, -1, q], s, t],
  "-Z": (p, q, s, t) => [[p, q, -1], 1 - s, t],
  "+Z": (p, q, s, t) => [[p, q, 1], s, t],
  "-X": (p, q, s, t) => [[-1, p, q], t, s],
  "+X": (p, q, s, t) => [[1, p, q], 1 - t, s],
};

/**
 * The six faces of a unit quad sphere with `slices × slices` quads per face, in the order asked.
 *
 * @example
 * ```ts
 * const [front] = quadSphere(["+Z"], 2); // 9 points, 8 triangles
 * ```
 */
export function quadSphere(faces: readonly CubeFace[], slices = SPHERE_SLICES): SphereFace[] {
  return faces.map((face) => buildFace(face, slices));
}

function buildFace(face: CubeFace, slices: number): SphereFace {
  const width = slices + 1;
  const positions = new Float32Array(width * width * 3);
  const uvs = new Float32Array(width * width * 2);
  const place = FACES[face];
  for (let j = 0; j < width; j++) {
    for (let i = 0; i < width; i++) {
      const k = j * width + i;
      const [[x, y, z], u, v] = place(-1 + 2 * i / slices, -1 + 2 * j / slices, i / slices, j / slices);
      positions[3 * k] = x * Math.sqrt(1 - y * y / 2 - z * z / 2 + y * y * z * z / 3);
      positions[3 * k + 1] = y * Math.sqrt(1 - z * z / 2 - x * x / 2 + z * z * x * x / 3);
      positions[3 * k + 2] = z * Math.sqrt(1 - x * x / 2 - y * y / 2 + x * x * y * y / 3);
      uvs[2 * k] = u;
      uvs[2 * k + 1] = v;
    }
  }
  // Grid steps along i and j on the cube; their cross product faces out or in depending on the
  // face, and glTF wants counter-clockwise seen from outside.
  const [a] = place(-1, -1, 0, 0), [b] = place(1, -1, 0, 0), [c] = place(-1, 1, 0, 0);
  const du = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], dv = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const cross = [du[1] * dv[2] - du[2] * dv[1], du[2] * dv[0] - du[0] * dv[2], du[0] * dv[1] - du[1] * dv[0]];
  const outward = cross[0] * a[0] + cross[1] * a[1] + cross[2] * a[2] > 0;
  const indices = new Uint16Array(slices * slices * 6);
  let n = 0;
  for (let j = 0; j < slices; j++) {
    for (let i = 0; i < slices; i++) {
      const p00 = j * width + i, p10 = p00 + 1, p01 = p00 + width, p11 = p01 + 1;
      if (outward) indices.set([p00, p10, p01, p10, p11, p01], n);
      else indices.set([p00, p01, p10, p10, p01, p11], n);
      n += 6;
    }
  }
  return { face, positions, uvs, indices };
}
