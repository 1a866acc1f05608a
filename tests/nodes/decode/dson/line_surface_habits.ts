/**
 * The surface around a line of reference vertices, as the mesh holds it: a strap's two edges beside
 * its centre line, a chain's links around each of its vertices, an ear lobe or a patch of cloth
 * around an earring's one or two vertices. The morph carries these vertices with the region's motion
 * (up to a projected morph's 0.02 mm unevenness, and the file's rounding), so they record a twist
 * about the line, or a turn about one vertex, that the reference vertices themselves do not. Drawn
 * from its own stream (`seed`), so adding it leaves every other field of a case as it was.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";

type V3 = [number, number, number];

/** The surround's vertices before and after the motion, xyz (m), as written. */
export interface Surround {
  readonly before: Float64Array;
  readonly after: Float64Array;
}

/**
 * The mesh around `points` (the reference vertices at rest, along `line`, with `side` and `normal`
 * across it), moved by `move`; `kind` picks how it is made, `write` rounds as the file does.
 */
export function surroundOf(
  seed: number,
  kind: "strap" | "links" | "patch",
  points: readonly V3[],
  axes: { line: V3; side: V3; normal: V3 },
  move: (p: V3) => V3,
  write: (m: number) => number,
  scale = 1,
): Surround {
  const r = prng(seed * 2654435 + 7);
  const { line, side, normal } = axes;
  const along = (p: V3, u: number, v: number, w: number): V3 =>
    [0, 1, 2].map((a) => p[a] + u * line[a] + v * side[a] + w * normal[a]) as V3;
  const around: V3[] = [];
  if (kind === "strap") {
    // The strap's edges, 3 to 10 mm either side of the centre line the references run along.
    const half = 0.003 + r() * 0.007;
    for (const p of points) around.push(along(p, 0, half, 0), along(p, 0, -half, 0));
  } else if (kind === "links") {
    // Each link a ring of 4 to 6 vertices 1 to 3 mm round the chain's vertex, across the line.
    const radius = 0.001 + r() * 0.002, n = 4 + Math.floor(r() * 3);
    for (const p of points) {
      for (let k = 0; k < n; k++) {
        const a = 2 * Math.PI * (k + 0.5) / n;
        around.push(along(p, 0, radius * Math.cos(a), radius * Math.sin(a)));
      }
    }
  } else {
    // A lobe or a patch of cloth: 6 to 20 vertices 1 to 6 mm round the vertices, a little curved.
    const n = 6 + Math.floor(r() * 15), bulge = 0.01 + r() * 0.03;
    const centre = points[Math.floor(points.length / 2)];
    for (let k = 0; k < n; k++) {
      const a = 2 * Math.PI * r(), d = 0.001 + r() * 0.005;
      const u = d * Math.cos(a), v = d * Math.sin(a);
      around.push(along(centre, u, v, -(u * u + v * v) / (2 * bulge)));
    }
  }
  const uneven = () => (r() * 2 - 1) * 2e-5;
  return {
    before: Float64Array.from(around.flatMap((p) => p.map((x) => write(x * scale)))),
    after: Float64Array.from(around.flatMap((p) => move(p).map((x) => write((x + uneven()) * scale)))),
  };
}
