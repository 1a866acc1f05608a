/**
 * A wire's path as drawn in a large graph, which draws only what is in and around the view: a wire
 * many views long (a script's graph whose hundreds of outputs all wire to Group Output, thousands of
 * rows away) is drawn as the part of its curve inside the drawn box. Drawn whole, each such wire cost
 * the browser's rasteriser its full length; dashed (a wire the check reports) its length in dashes —
 * a 5,000-node graph with a renamed output socket froze the page for a minute per frame.
 *
 * @module
 */
import type { Bounds } from "./framing.ts";
import { curve } from "./svg.ts";

type Point = readonly [number, number];

/** The control points of the wire from `start` to `end`, as {@link curve} draws it. */
function controls([x1, y1]: Point, [x2, y2]: Point): [Point, Point, Point, Point] {
  const bend = Math.max(40, Math.abs(x2 - x1) / 2);
  return [[x1, y1], [x1 + bend, y1], [x2 - bend, y2], [x2, y2]];
}

/** The point of a cubic bezier at `t`. */
function pointAt([a, b, c, d]: readonly Point[], t: number): [number, number] {
  const u = 1 - t;
  const [wa, wb, wc, wd] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
  return [wa * a[0] + wb * b[0] + wc * c[0] + wd * d[0], wa * a[1] + wb * b[1] + wc * c[1] + wd * d[1]];
}

/** Points along a clipped run of the curve: enough that it reads as the curve at any zoom. */
const RUN_POINTS = 48;

/**
 * The SVG path of the wire from `start` to `end`: its whole curve when it lies within one box's size
 * of `box` (or there is no box: a graph drawn whole), else polylines along the parts of the curve that
 * pass through `box` — "" when none does.
 */
export function wirePath(start: Point, end: Point, box?: Bounds): string {
  const whole = () => curve([start[0], start[1]], [end[0], end[1]]);
  if (!box) return whole();
  const points = controls(start, end);
  const [w, h] = [box.right - box.left, box.bottom - box.top];
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  // The curve lies within its control points' box.
  if (
    Math.min(...xs) >= box.left - w && Math.max(...xs) <= box.right + w &&
    Math.min(...ys) >= box.top - h && Math.max(...ys) <= box.bottom + h
  ) return whole();
  const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  // Samples closer than a tenth of the box: a pass through it cannot fall between two.
  const samples = Math.min(20_000, Math.max(64, Math.ceil((10 * extent) / Math.max(1, Math.min(w, h)))));
  const inside = (p: Point) => p[0] >= box.left && p[0] <= box.right && p[1] >= box.top && p[1] <= box.bottom;
  const runs: [number, number][] = [];
  for (let i = 0; i <= samples; i++) {
    if (!inside(pointAt(points, i / samples))) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  }
  const round = (v: number) => Math.round(v * 10) / 10;
  return runs.map(([first, last]) => {
    // One sample beyond each end: the run reaches the box's edge and past it.
    const [t0, t1] = [Math.max(0, first - 1) / samples, Math.min(samples, last + 1) / samples];
    const line = Array.from(
      { length: RUN_POINTS + 1 },
      (_, k) => pointAt(points, t0 + ((t1 - t0) * k) / RUN_POINTS),
    );
    return line.map(([x, y], k) => `${k ? "L" : "M"} ${round(x)} ${round(y)}`).join(" ");
  }).join(" ");
}
