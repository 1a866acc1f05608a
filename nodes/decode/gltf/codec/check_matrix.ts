/**
 * A node's `matrix` as glTF's transforms can hold it. glTF-Transform (as every scene of partgraph)
 * keeps a node's transform as translation, rotation and scale, so a matrix is decomposed — which
 * holds only a matrix made of them. A matrix with a projective bottom row or a shear was read into
 * something else without a word: a bottom row of `[0.5, 0, 0, 1]` turned the node's determinant
 * negative and mirrored it; a shear left a rotation that was not one. Each is read as the nearest
 * transform glTF holds, saying what was left out; and a matrix given beside translation, rotation or
 * scale (invalid) is read as three.js and Blender read it: the matrix alone.
 *
 * @module
 */
import { type mat3, quat } from "gl-matrix";
import type { Checker, Json } from "./checker.ts";

/** How far the bottom row may be from `[0, 0, 0, 1]` (float noise), relative to its last element. */
const PROJECTIVE_TOLERANCE = 1e-6;
/** Axes whose directions' cosine is past this (about 0.06° off square) are sheared. */
const SHEAR_COSINE = 1e-3;

/** Checks and settles node `node`'s matrix (already checked to be 16 finite numbers) at `path`. */
export function checkMatrix(c: Checker, node: Json, path: string): void {
  const m = node.matrix as number[] | undefined;
  if (!m) return;
  const beside = ["translation", "rotation", "scale"].filter((key) => node[key] !== undefined);
  if (beside.length) {
    for (const key of beside) delete node[key];
    c.repaired(
      path,
      `matrix and ${beside.join(", ")} both given: the matrix is read, as three.js and Blender read it`,
    );
  }
  const w = m[15];
  // A translation in the bottom row and none in the last column: the matrix was written row by row (by
  // hand, or from a row-major engine). Read as a projection, as three.js and Blender read it, the part
  // lost its place and turned the other way; transposed, it is the transform meant.
  const bottom = Math.max(Math.abs(m[3]), Math.abs(m[7]), Math.abs(m[11]));
  if (bottom > PROJECTIVE_TOLERANCE && m[12] === 0 && m[13] === 0 && m[14] === 0 && w === 1) {
    node.matrix = m.map((_, i) => m[(i % 4) * 4 + Math.floor(i / 4)]);
    c.repaired(
      `${path}/matrix`,
      `translation [${m[3]}, ${m[7]}, ${m[11]}] in the bottom row and none in the last column: written row ` +
        "by row; read transposed (three.js and Blender drop that row: the part at the origin, turned back)",
    );
    return settleAxes(c, node, path);
  }
  if (
    Math.max(Math.abs(m[3]), Math.abs(m[7]), Math.abs(m[11]), Math.abs(w - 1)) >
      PROJECTIVE_TOLERANCE * Math.abs(w)
  ) {
    const row = `[${m[3]}, ${m[7]}, ${m[11]}, ${w}]`;
    // A bottom row [0, 0, 0, w] is the affine matrix scaled by w; any other is a projection.
    const scale = w !== 0 ? 1 / w : 1;
    node.matrix = m.map((v, i) => i === 15 ? 1 : i % 4 === 3 ? 0 : v * scale);
    c.repaired(
      `${path}/matrix`,
      `bottom row ${row} is not [0, 0, 0, 1]: ${
        m[3] || m[7] || m[11] || !w ? "its projective part is left out" : `read divided by ${w}`
      } (glTF's transforms hold none)`,
    );
  }
  settleAxes(c, node, path);
}

/**
 * A sheared matrix (axes not square to each other) or one that flattens an axis (a scale of 0, which
 * Assimp writes as a matrix: decomposed, the zero was divided by and the rotation lost) as translation,
 * rotation and scale: the first axis with a length kept, the next made square to it, the others
 * square to both; each axis keeps its length, and a mirrored matrix its handedness.
 */
function settleAxes(c: Checker, node: Json, path: string): void {
  const m = node.matrix as number[];
  const columns = [0, 1, 2].map((i) => [m[i * 4], m[i * 4 + 1], m[i * 4 + 2]]);
  const lengths = columns.map(length);
  const flat = lengths.flatMap((l, i) => l > 0 ? [] : ["XYZ"[i]]);
  const worst = flat.length ? 0 : [[0, 1], [0, 2], [1, 2]]
    .map(([a, b]) => dot(columns[a], columns[b]) / (lengths[a] * lengths[b]))
    .reduce((a, b) => Math.abs(b) > Math.abs(a) ? b : a);
  if (!flat.length && Math.abs(worst) <= SHEAR_COSINE) return;
  const axes = squareAxes(columns);
  const scale = [...lengths];
  // A mirrored matrix stays mirrored: its Z axis is scaled by −1 about the right-handed frame.
  if (!flat.length && dot(axes[2], columns[2]) < 0) scale[2] = -scale[2];
  const rotation = quat.normalize(
    quat.create(),
    quat.fromMat3(quat.create(), axes.flat() as unknown as mat3),
  );
  delete node.matrix;
  node.translation = [m[12], m[13], m[14]];
  node.rotation = [...rotation];
  node.scale = scale;
  const degrees = (Math.acos(Math.max(-1, Math.min(1, worst))) * 180) / Math.PI;
  c.repaired(
    `${path}/matrix`,
    flat.length
      ? `it flattens ${flat.join(", ")} (a scale of 0): read as translation, rotation and scale`
      : `a shear (two axes ${Number(degrees.toFixed(2))}° apart) glTF's translation, rotation and scale ` +
        "cannot hold: read with its first axis kept and the others made square to it",
  );
}

/** A right-handed orthonormal frame near `columns`: each axis with a length in order, square to those before it. */
function squareAxes(columns: number[][]): number[][] {
  const axes: (number[] | undefined)[] = [undefined, undefined, undefined];
  for (let i = 0; i < 3; i++) {
    let v = columns[i];
    for (const known of axes) if (known) v = v.map((x, k) => x - dot(v, known) * known[k]);
    const l = length(v);
    // Past two axes the third is their cross product (below); a direction the others already span is none.
    if (l > 1e-9 * (length(columns[i]) || 1) && axes.filter(Boolean).length < 2) {
      axes[i] = v.map((x) => x / l);
    }
  }
  const known = axes.flatMap((axis, i) => axis ? [i] : []);
  if (!known.length) return [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  if (known.length === 1) {
    // Any direction square to the one axis: across the base axis it is least aligned with.
    const a = axes[known[0]]!;
    const base = [0, 1, 2].reduce((best, k) => Math.abs(a[k]) < Math.abs(a[best]) ? k : best);
    const p = cross(a, [0, 1, 2].map((k) => k === base ? 1 : 0));
    axes[(known[0] + 1) % 3] = p.map((x) => x / length(p));
  }
  // Cyclically, each axis is the cross product of the next two: X = Y × Z, Y = Z × X, Z = X × Y.
  for (let i = 0; i < 3; i++) axes[i] ??= cross(axes[(i + 1) % 3]!, axes[(i + 2) % 3]!);
  return axes as number[][];
}

function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function length(v: number[]): number {
  return Math.hypot(v[0], v[1], v[2]);
}
