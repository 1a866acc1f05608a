import assert from "node:assert/strict";
import { fitRigidTransform, type RigidityGroup } from "../../../../nodes/decode/dson/codec/rigidity.ts";
import {
  bestFitRotation,
  principalAxes,
  quatToMatrix,
  symmetricEigen,
} from "../../../../nodes/decode/dson/codec/rigid_fit.ts";

/** A non-planar reference cloud (a skewed tetrahedron plus extras) and a rigid motion of it. */
const POINTS = [[0, 0, 0], [4, 0, 0], [0, 2, 0], [0, 0, 1], [1, 1, 1], [3, 0.5, -0.5]];

function transform(points: number[][], m: Float64Array, t: number[], scale = [1, 1, 1]): Float64Array {
  const out = new Float64Array(points.length * 3);
  points.forEach((p, i) => {
    const s = [p[0] * scale[0], p[1] * scale[1], p[2] * scale[2]];
    for (let r = 0; r < 3; r++) {
      out[i * 3 + r] = m[r * 3] * s[0] + m[r * 3 + 1] * s[1] + m[r * 3 + 2] * s[2] + t[r];
    }
  });
  return out;
}

const BEFORE = Float64Array.from(POINTS.flat());
const ALL = Int32Array.from(POINTS.keys());

function group(
  rotationMode: RigidityGroup["rotationMode"],
  scaleModes: RigidityGroup["scaleModes"] = ["none", "none", "none"],
): RigidityGroup {
  return { id: "g", rotationMode, scaleModes, referenceVertices: ALL, maskVertices: ALL, transformNodes: [] };
}

/** Applies a fitted transform to the `before` points. */
function apply(fit: NonNullable<ReturnType<typeof fitRigidTransform>>): number[][] {
  return POINTS.map((p) => {
    const d = [0, 1, 2].map((k) => p[k] - fit.before[k]);
    return [0, 1, 2].map((r) =>
      fit.after[r] + fit.linear[r * 3] * d[0] + fit.linear[r * 3 + 1] * d[1] + fit.linear[r * 3 + 2] * d[2]
    );
  });
}

function close(a: ArrayLike<number>, b: ArrayLike<number>, tolerance = 1e-9): boolean {
  return Array.from(a).every((x, i) => Math.abs(x - b[i]) < tolerance);
}

Deno.test("rigid fit: the Jacobi solver finds eigenvalues in decreasing order", () => {
  const { values, vectors } = symmetricEigen(new Float64Array([2, 1, 0, 1, 2, 0, 0, 0, 5]), 3);
  assert.ok(close(values, [5, 3, 1]));
  assert.ok(close(vectors[1], [Math.SQRT1_2, Math.SQRT1_2, 0]));
});

Deno.test("rigid fit: Horn's method recovers a known rotation; 'full' reproduces a rigid motion exactly", () => {
  const half = 0.4;
  const rotation = quatToMatrix(
    Math.cos(half),
    0.3 * Math.sin(half),
    -0.5 * Math.sin(half),
    Math.sqrt(1 - 0.34) * Math.sin(half),
  );
  const after = transform(POINTS, rotation, [5, -2, 7]);
  const c0 = [0, 1, 2].map((k) => POINTS.reduce((s, p) => s + p[k], 0) / POINTS.length) as [
    number,
    number,
    number,
  ];
  const c1 = [0, 1, 2].map((k) => POINTS.reduce((s, _, i) => s + after[i * 3 + k], 0) / POINTS.length) as [
    number,
    number,
    number,
  ];
  assert.ok(close(bestFitRotation(BEFORE, after, ALL, c0, c1), rotation));
  const fit = fitRigidTransform(group("full"), BEFORE, after)!;
  assert.ok(close(apply(fit).flat(), after));
});

Deno.test("rigid fit: 'none' only translates; 'primary' turns the primary axis but not about it", () => {
  // A turn about the primary axis (the direction of largest spread) only: a pure twist.
  const center = [0, 1, 2].map((k) => POINTS.reduce((s, p) => s + p[k], 0) / POINTS.length) as [
    number,
    number,
    number,
  ];
  const [axis] = principalAxes(BEFORE, ALL, center).axes;
  const twist = quatToMatrix(
    Math.cos(0.3),
    axis[0] * Math.sin(0.3),
    axis[1] * Math.sin(0.3),
    axis[2] * Math.sin(0.3),
  );
  // Rotate about the centroid so the fitted linear part is the twist itself.
  const after = transform(
    POINTS.map((p) => p.map((x, k) => x - center[k])),
    twist,
    center.map((c, k) => c + k + 1),
  );
  const none = fitRigidTransform(group("none"), BEFORE, after)!;
  assert.ok(close(none.linear, [1, 0, 0, 0, 1, 0, 0, 0, 1]));
  const primary = fitRigidTransform(group("primary"), BEFORE, after)!;
  // The primary axis did not move, so a primary-only rotation is no rotation: the twist is ignored.
  assert.ok(close(primary.linear, [1, 0, 0, 0, 1, 0, 0, 0, 1], 1e-6), Array.from(primary.linear).join(","));
  const full = fitRigidTransform(group("full"), BEFORE, after)!;
  assert.ok(close(full.linear, twist));
});

Deno.test("rigid fit: scale modes pick the measured extent ratio per axis", () => {
  const identity = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  // Stretch along x (the primary axis of these points) by 3; nothing else changes.
  const after = transform(POINTS, identity, [0, 0, 0], [3, 1, 1]);
  const uniform = fitRigidTransform(group("none", ["primary", "primary", "primary"]), BEFORE, after)!;
  const ratio = uniform.linear[0];
  assert.ok(ratio > 1.5 && ratio <= 3, `ratio ${ratio}`);
  assert.ok(Math.abs(ratio - uniform.linear[4]) < 1e-12 && Math.abs(ratio - uniform.linear[8]) < 1e-12);
  const none = fitRigidTransform(group("none", ["none", "none", "none"]), BEFORE, after)!;
  assert.ok(close(none.linear, identity));
  assert.equal(
    fitRigidTransform({ ...group("full"), referenceVertices: new Int32Array(0) }, BEFORE, after),
    undefined,
  );
});
