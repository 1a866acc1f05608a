/**
 * Long wires of a large graph drawn as the parts of their curves in the drawn box (`wire_clip.ts`):
 * what is drawn lies on the curve, and every part of the curve inside the box is drawn.
 */
import { equal, ok as assert } from "node:assert/strict";
import { curve } from "../../studio/web/svg.ts";
import { wirePath } from "../../studio/web/wire_clip.ts";
import { prng } from "../support/prng.ts";

/** The wire's curve, densely sampled (the bezier `curve` draws, from its `d`). */
function dense(start: [number, number], end: [number, number], count: number): [number, number][] {
  const n = curve(start, end).match(/-?[\d.e+-]+/g)!.map(Number);
  const p = [[n[0], n[1]], [n[2], n[3]], [n[4], n[5]], [n[6], n[7]]];
  return Array.from({ length: count + 1 }, (_, i) => {
    const t = i / count, u = 1 - t;
    const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    return [0, 1].map((k) => w.reduce((sum, wi, j) => sum + wi * p[j][k], 0)) as [number, number];
  });
}

/** The polylines of a path of `M`/`L` commands. */
function polylines(d: string): [number, number][][] {
  return d.split("M").filter((s) => s.trim()).map((run) =>
    run.split("L").map((xy) => xy.trim().split(/\s+/).map(Number) as [number, number])
  );
}

/** Distance from `p` to the segment `a`–`b`. */
function toSegment(p: [number, number], a: [number, number], b: [number, number]): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

Deno.test("wire_clip: a wire near the drawn box, or with no box, is its whole curve", () => {
  const box = { left: 0, top: 0, right: 1000, bottom: 800 };
  equal(wirePath([10, 10], [600, 700], box), curve([10, 10], [600, 700]));
  equal(wirePath([10, 10], [600, 90_000]), curve([10, 10], [600, 90_000]));
});

Deno.test("wire_clip: a long wire is drawn where it passes the box, on its curve, none of it missing", () => {
  const random = prng(57);
  let clipped = 0;
  for (let i = 0; i < 300; i++) {
    const span = 10 ** (3 + 3 * random()); // up to a million canvas units: a script's graph
    const start: [number, number] = [random() * span, random() * span];
    const end: [number, number] = [random() * span, random() * span];
    const size = 500 + 20_000 * random();
    const box = { left: random() * span, top: random() * span, right: 0, bottom: 0 };
    [box.right, box.bottom] = [box.left + size, box.top + size * (0.5 + random())];
    const d = wirePath(start, end, box);
    if (d.startsWith("M") && d.includes(" C ")) continue; // drawn whole
    clipped++;
    const lines = polylines(d);
    const tol = Math.max(0.5, size / 400);
    const curvePoints = dense(start, end, 20_000);
    // What is drawn lies on the curve.
    for (const line of lines) {
      for (const p of line) {
        const near = curvePoints.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < tol + span / 20_000 * 3);
        assert(near, `drawn point ${p} off the curve (case ${i})`);
      }
    }
    // Every part of the curve inside the box is drawn.
    for (const q of curvePoints) {
      if (q[0] < box.left || q[0] > box.right || q[1] < box.top || q[1] > box.bottom) continue;
      const drawn = lines.some((line) => line.some((p, k) => k > 0 && toSegment(q, line[k - 1], p) < tol));
      assert(drawn, `curve point ${q} inside the box not drawn (case ${i})`);
    }
  }
  assert(clipped > 100, `${clipped} wires clipped`);
});
