/**
 * The box grid the rig's body sampler asks "what is near this panel" answers exactly what a scan of
 * every box would, in the same order, for boxes of every kind: small and clustered, spread wide,
 * huge (a fuselage), empty, infinite, and queries from a point to the whole model.
 */
import assert from "node:assert/strict";
import { type Box, BoxGrid, boxReaches, type Near } from "../../../nodes/rig/box_grid.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";

function scan(boxes: readonly Box[], near: Near): number[] {
  return boxes.flatMap((box, i) => boxReaches(box, near) ? [i] : []);
}

function randomBoxes(seed: number, count: number): Box[] {
  const next = prng(seed);
  const at = (spread: number): Vec3 => [0, 1, 2].map(() => (next() - 0.5) * spread) as Vec3;
  return Array.from({ length: count }, (_, i) => {
    if (i % 97 === 0) return { min: [-Infinity, -Infinity, -Infinity], max: [Infinity, Infinity, Infinity] };
    if (i % 89 === 0) return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
    const min = at(i % 5 === 0 ? 2000 : 200);
    // Mostly small parts, some a tenth of the model, a few larger than all of it (a ground plane).
    const size = i % 61 === 0 ? 5000 : i % 13 === 0 ? 20 : next() * 2;
    return { min, max: min.map((m) => m + size * (0.2 + next())) as Vec3 };
  });
}

Deno.test("the box grid finds exactly the boxes a scan finds, in the order they were given", () => {
  for (const seed of [1, 2, 3]) {
    const boxes = randomBoxes(seed, 3000);
    const grid = new BoxGrid(boxes);
    const next = prng(seed + 100);
    for (let q = 0; q < 400; q++) {
      const near: Near = {
        centre: [0, 1, 2].map(() => (next() - 0.5) * 300) as Vec3,
        reach: q % 50 === 0 ? 1e6 : q % 7 === 0 ? 0 : next() * (q % 3 ? 3 : 40),
      };
      assert.deepEqual(grid.reaching(near), scan(boxes, near), `seed ${seed}, query ${q}`);
    }
  }
});

Deno.test("the box grid over boxes all of one size, all points, or none", () => {
  const points: Box[] = Array.from({ length: 50 }, (_, i) => ({ min: [i, 0, 0], max: [i, 0, 0] }));
  assert.deepEqual(new BoxGrid(points).reaching({ centre: [10, 0, 0], reach: 1 }), [9, 10, 11]);
  assert.deepEqual(new BoxGrid([]).reaching({ centre: [0, 0, 0], reach: 1 }), []);
  const far: Box[] = [{ min: [1e300, 0, 0], max: [1e300, 1, 1] }, { min: [0, 0, 0], max: [1, 1, 1] }];
  assert.deepEqual(new BoxGrid(far).reaching({ centre: [0.5, 0.5, 0.5], reach: 0.1 }), [1]);
  assert.deepEqual(new BoxGrid(far).reaching({ centre: [1e300, 0.5, 0.5], reach: 1 }), [0]);
});
