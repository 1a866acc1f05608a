import assert from "node:assert/strict";
import { withCreaseNormals } from "../../../nodes/demo/crease_normals.ts";
import { buildBox, buildCylinder } from "../../../nodes/demo/shapes.ts";

Deno.test("withCreaseNormals gives a box 24 vertices with axis-aligned normals", () => {
  const box = buildBox([0, 0, 0], [1, 2, 3]);
  const shaded = withCreaseNormals(Float32Array.from(box.positions), box.indices);
  // 8 corners + 2 flat-cap centres, split into one copy per face meeting there.
  assert.equal(box.positions.length / 3, 10);
  assert.equal(shaded.positions.length / 3, 8 * 3 + 2);
  assert.equal(shaded.indices.length, box.indices.length);
  for (let v = 0; v < shaded.normals.length; v += 3) {
    const n = [...shaded.normals.subarray(v, v + 3)].map(Math.abs).sort();
    assert.deepEqual(n, [0, 0, 1], `normal ${shaded.normals.subarray(v, v + 3)}`);
    // Each normal points out of the box, from its centre (0.5, 1, 1.5).
    const p = shaded.positions.subarray(v, v + 3);
    const out = (p[0] - 0.5) * shaded.normals[v] + (p[1] - 1) * shaded.normals[v + 1] +
      (p[2] - 1.5) * shaded.normals[v + 2];
    assert.ok(out > 0);
  }
});

Deno.test("withCreaseNormals keeps a 16-sided cylinder's side smooth and its caps hard", () => {
  const cylinder = buildCylinder([0, 0, 0], [0, 0, 1], 1, 16);
  const shaded = withCreaseNormals(Float32Array.from(cylinder.positions), cylinder.indices);
  // Each rim vertex: one copy for the smooth side, one for its cap; cap centres stay single.
  assert.equal(shaded.positions.length / 3, 2 * 16 * 2 + 2);
  let radial = 0;
  for (let v = 0; v < shaded.normals.length; v += 3) {
    const [x, y, z] = shaded.normals.subarray(v, v + 3);
    if (Math.abs(z) < 1e-6) {
      radial++;
      const p = shaded.positions.subarray(v, v + 3);
      assert.ok(Math.abs(x * p[0] + y * p[1] - 1) < 1e-5, "side normals are radial");
    } else {
      assert.ok(Math.abs(Math.abs(z) - 1) < 1e-6, "cap normals are axial");
    }
  }
  assert.equal(radial, 32);
});

Deno.test("withCreaseNormals is deterministic and keeps triangles' positions", () => {
  const box = buildBox([-1, -1, -1], [1, 1, 1]);
  const positions = Float32Array.from(box.positions);
  const a = withCreaseNormals(positions, box.indices), b = withCreaseNormals(positions, box.indices);
  assert.deepEqual(a, b);
  for (let i = 0; i < box.indices.length; i++) {
    assert.deepEqual(
      a.positions.subarray(a.indices[i] * 3, a.indices[i] * 3 + 3),
      positions.subarray(box.indices[i] * 3, box.indices[i] * 3 + 3),
    );
  }
});
