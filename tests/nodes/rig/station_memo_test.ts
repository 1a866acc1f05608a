/**
 * Station cutting's cost: each triangle is swept only across the stations its span covers, and a
 * panel cut in its own frame is not cut again and again — not for refits on other edges, not for
 * copies drawn by other nodes (kept the second time its like is cut) — while any input differing by
 * one bit is. Counted, not timed: the cut attempts per triangle and the memo's cuts
 * (`station_memo.ts`).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  firstCrossed,
  lastCrossed,
  type PanelCoordinates,
  sliceStations,
  stationCell,
} from "../../../nodes/rig/edge_stations.ts";
import { fitHinge, HINGE_FIT_DEFAULTS, type HingeFit } from "../../../nodes/rig/hinge_fit.ts";
import { STATION_MEMO, StationMemo } from "../../../nodes/rig/station_memo.ts";
import { prng } from "../../support/prng.ts";
import { coarsePanel } from "./coarse_panels.ts";

/** A hostile panel as `deno task shapes` draws one: triangles joining random points of a box. */
function hostilePanel(seed: number, vertices: number): { positions: Float64Array; triangles: Uint32Array } {
  const next = prng(seed);
  const positions = new Float64Array(vertices * 3);
  // Long and thin along x (the span), so the frame is clear; every triangle crosses stations.
  for (let i = 0; i < vertices; i++) positions.set([next() * 10, next() * 2, next() * 0.3], i * 3);
  const triangles = new Uint32Array(Math.floor(vertices / 3) * 3);
  for (let t = 0; t < triangles.length; t++) triangles[t] = Math.floor(next() * vertices);
  return { positions, triangles };
}

/** A fit as plain numbers, typed arrays and the envelope's fields included (bits of −0 kept). */
function numbers(fit: HingeFit): string {
  return JSON.stringify(fit, (_, value) => {
    if (value instanceof Float64Array || value instanceof Int32Array) return [...value].map(String);
    if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
    return value;
  });
}

/** `fitHinge` with nothing kept: the cut made afresh. */
function freshFit(positions: Float64Array | Float32Array, triangles: Uint32Array, edge: "forward" | "aft") {
  STATION_MEMO.clear();
  return fitHinge(positions, positions.length / 3, { ...HINGE_FIT_DEFAULTS, edge }, triangles);
}

Deno.test("each triangle is cut only at the stations its span covers", () => {
  let attempts = 0, inside = 0, triangles = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const panel = seed % 2 ? coarsePanel(prng(seed)) : hostilePanel(seed, 900);
    const p = panel.positions, tris = panel.triangles;
    // Span positions along x (the panels' span is their longest axis, x for the hostile ones; the
    // coarse ones' span is z): the sweep's rule does not depend on which.
    const axis = seed % 2 ? 2 : 0;
    const u = new Float64Array(p.length / 3).map((_, i) => p[i * 3 + axis]);
    const uMin = Math.min(...u), uMax = Math.max(...u), stations = 12, width = (uMax - uMin) / stations;
    const cell = u.map((x) => stationCell(x, uMin, width));
    for (let t = 0; t < tris.length; t += 3) {
      const [a, b, c] = [tris[t], tris[t + 1], tris[t + 2]];
      const lo = Math.min(u[a], u[b], u[c]), hi = Math.max(u[a], u[b], u[c]);
      const first = firstCrossed(cell[a], cell[b], cell[c]);
      const last = lastCrossed(cell[a], cell[b], cell[c], stations);
      triangles++;
      for (let k = 0; k < stations; k++) {
        const at = uMin + (k + 0.5) * width;
        const tried = cell[a] !== cell[b] || cell[b] !== cell[c] ? k >= first && k <= last : false;
        if (tried) {
          attempts++;
          assert(
            at >= lo && at <= hi,
            `seed ${seed}, triangle ${t / 3}: cut at station ${k} outside its span`,
          );
        }
        if (at > lo && at < hi) {
          inside++;
          assert(tried, `seed ${seed}, triangle ${t / 3}: station ${k} within its span not cut`);
        }
      }
    }
  }
  // Every cut attempted is a station within the triangle's span: far fewer than every station.
  assertEquals(attempts, inside);
  assert(attempts < triangles * 12 / 2, `${attempts} cuts for ${triangles} triangles at 12 stations`);
});

Deno.test("a panel fitted again and again for other edges is cut twice, with the fits it had", () => {
  let kept = 0;
  const edges = ["forward", "aft", "forward", "aft", "forward"] as const;
  for (let seed = 101; seed <= 130; seed++) {
    const { positions, triangles } = coarsePanel(prng(seed));
    const expected = edges.map((edge) => numbers(freshFit(positions, triangles, edge)));
    STATION_MEMO.clear();
    const before = STATION_MEMO.misses;
    const fits = edges.map((edge) =>
      numbers(fitHinge(positions, positions.length / 3, { ...HINGE_FIT_DEFAULTS, edge }, triangles))
    );
    assertEquals(fits, expected, `seed ${seed}`);
    const cuts = STATION_MEMO.misses - before;
    // Kept where the cuts outnumber the vertices (a coarse panel's long triangles cross many stations).
    if (cuts === 2) kept++;
    else assertEquals(cuts, 5, `seed ${seed}: ${cuts} cuts for five fits`);
  }
  assert(kept >= 25, `${kept} of 30 coarse panels cut twice for five fits`);
});

Deno.test("copies of one hostile mesh drawn by several nodes are cut twice, with the same fits", () => {
  const { positions, triangles } = hostilePanel(7, 6000);
  const expected = numbers(freshFit(positions, triangles, "forward"));
  STATION_MEMO.clear();
  const before = STATION_MEMO.misses;
  for (let copy = 0; copy < 10; copy++) {
    // Each node's own arrays (gathered per node), the same numbers.
    const fit = fitHinge(positions.slice(), positions.length / 3, HINGE_FIT_DEFAULTS, triangles.slice());
    assertEquals(numbers(fit), expected, `copy ${copy}`);
  }
  assertEquals(STATION_MEMO.misses - before, 2, "ten copies, two cuts");
});

Deno.test("an input differing by one bit is cut again", () => {
  const { positions, triangles } = hostilePanel(11, 600);
  const u = new Float64Array(200).map((_, i) => positions[i * 3]);
  const v = new Float64Array(200).map((_, i) => positions[i * 3 + 1]);
  const w = new Float64Array(200).map((_, i) => positions[i * 3 + 2]);
  const tris = triangles.map((t) => t % 200);
  const coords = (uu: Float64Array, ww: Float64Array): PanelCoordinates => ({
    u: uu,
    chordAt: (i) => v[i],
    thicknessAt: (i) => ww[i],
  });
  const uMin = Math.min(...u), uMax = Math.max(...u);
  const memo = new StationMemo();
  memo.slice(coords(u, w), tris, uMin, uMax, 12, 0.04);
  const kept = memo.slice(coords(u, w), tris, uMin, uMax, 12, 0.04);
  assertEquals(memo.slice(coords(u.slice(), w.slice()), tris.slice(), uMin, uMax, 12, 0.04), kept);
  assertEquals([memo.hits, memo.misses], [1, 2]);
  // One vertex's thickness one bit off, its span and chord positions the same.
  const nudged = w.slice();
  nudged[5] = nudged[5] + Math.abs(nudged[5]) * Number.EPSILON;
  assert(nudged[5] !== w[5]);
  const variants: [string, () => unknown][] = [
    ["thickness one bit off", () => memo.slice(coords(u, nudged), tris, uMin, uMax, 12, 0.04)],
    ["two triangles' order swapped", () => {
      const swapped = tris.slice();
      swapped.set(tris.subarray(3, 6), 0);
      swapped.set(tris.subarray(0, 3), 3);
      return memo.slice(coords(u, w), swapped, uMin, uMax, 12, 0.04);
    }],
    ["other stations", () => memo.slice(coords(u, w), tris, uMin, uMax, 13, 0.04)],
    ["another band", () => memo.slice(coords(u, w), tris, uMin, uMax, 12, 0.05)],
  ];
  for (const [what, slice] of variants) {
    const misses = memo.misses;
    slice();
    assertEquals(memo.misses, misses + 1, what);
  }
  // What a miss gives is the cut itself.
  const fresh = sliceStations(coords(u, nudged), tris, uMin, uMax, 12, 0.04);
  const again = memo.slice(coords(u, nudged), tris, uMin, uMax, 12, 0.04);
  assertEquals([...again.lead.points], [...fresh.lead.points]);
  assertEquals([...again.trail.points], [...fresh.trail.points]);
  assertEquals([...again.cuts!.data.subarray(0, again.cuts!.n)], [
    ...fresh.cuts!.data.subarray(0, fresh.cuts!.n),
  ]);
});
