/**
 * mendDirectionless: a few zero normals in a large mesh cost work in proportion to the places mended
 * (the key strings it makes), not a key per vertex and per triangle corner; and they are mended to the
 * surface's direction.
 */
import assert from "node:assert/strict";
import { mendDirectionless, placeKeys } from "../../../runtime/scene/directionless_normals.ts";

/** A wavy `n` × `n` grid facing +z, with the normals of `zeroed` vertices written (0, 0, 0). */
function grid(n: number, zeroed: number[]) {
  const positions = new Float32Array(3 * n * n), normals = new Float32Array(3 * n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = i * n + j;
      positions.set([i * 0.37, j * 0.41, 0.2 * Math.sin(i * 0.3) * Math.cos(j * 0.2)], 3 * v);
      normals.set([0, 0, 1], 3 * v);
    }
  }
  const triangles = new Uint32Array(6 * (n - 1) * (n - 1));
  let t = 0;
  for (let i = 0; i + 1 < n; i++) {
    for (let j = 0; j + 1 < n; j++) {
      const a = i * n + j;
      triangles.set([a, a + n, a + 1, a + 1, a + n, a + n + 1], t);
      t += 6;
    }
  }
  for (const v of zeroed) normals.fill(0, 3 * v, 3 * v + 3);
  return { positions, normals, triangles };
}

Deno.test("mendDirectionless: 3 zero normals of a 40,000-vertex grid make keys for their places only", () => {
  const n = 200, zeroed = [4_321, 20_100, 39_000];
  const { positions, normals, triangles } = grid(n, zeroed);
  placeKeys.count = 0;
  const mended = mendDirectionless(positions, normals, triangles, 1, () => normals);
  assert.equal(mended, 3);
  // A column of the grid shares each mended x: its 200 vertices and their triangles' corners (about
  // 8,000), not a key per vertex and per corner (40,000 + 716,000).
  assert.ok(placeKeys.count < 20_000, `${placeKeys.count} place keys`);
  for (const v of zeroed) {
    const [x, y, z] = normals.subarray(3 * v, 3 * v + 3);
    assert.ok(Math.abs(Math.hypot(x, y, z) - 1) < 1e-6 && z > 0.9, `vertex ${v}: (${x}, ${y}, ${z})`);
  }
});
