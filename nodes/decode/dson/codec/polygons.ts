/**
 * Polygons of a DSON `polylist` made drawable: the spec allows triangles and quads only ("polygons
 * with more than four vertices should be broken into triangles or quads for transport"), but the
 * open readers take any number of corners (Diffeomorphic and dufman read `polygon[2:]`, the dhdm
 * tools any `size() >= 5`), and community tools, converters and hand edits write pentagons and
 * larger. Those are cut into triangles by ear clipping in the polygon's own plane (so an L-shaped or
 * star-shaped face is covered exactly, not fanned over its notches), winding kept. A polygon whose
 * corners repeat a vertex is read without the repeats; one left with fewer than three distinct
 * vertices covers nothing and is dropped.
 *
 * @module
 */

/** What became of the authored polygons, when they were not read one to one. */
export interface AuthoredPolys {
  /** Polygons in the file's `polylist`. */
  readonly count: number;
  /** For each polygon drawn, the index of the authored polygon it is (a piece of). */
  readonly of: Int32Array;
}

/** How one authored polygon is drawn: its polygons (3 or 4 corners each), and what was done. */
export interface ReadPolygon {
  /** Polygons to draw, each 3 or 4 vertex indices. */
  readonly pieces: number[][];
  /** `ngon`: cut into triangles; `degenerate`: fewer than 3 distinct vertices, dropped. */
  readonly repair?: "ngon" | "degenerate";
  /** A non-convex polygon past {@link EAR_CLIP_LIMIT} corners, fanned: it may cover past its outline. */
  readonly fanned?: boolean;
}

/**
 * Past this many corners a non-convex polygon is fanned, not ear-clipped: clipping takes up to cubic
 * time in the corners (a hostile file's polygon of a million corners must not hang the decode).
 */
export const EAR_CLIP_LIMIT = 512;

/**
 * How the polygon with corners `corners` (vertex indices into `positions`, `[x, y, z, …]`) is drawn.
 *
 * @example
 * ```ts
 * readPolygon([0, 1, 1, 2], positions); // { pieces: [[0, 1, 2]] }
 * readPolygon([0, 1, 2, 3, 4], positions).pieces.length; // 3 triangles
 * ```
 */
export function readPolygon(corners: readonly number[], positions: Float64Array): ReadPolygon {
  // A corner repeating the one before it (a collapsed edge) adds nothing: [a, b, b, c] is a triangle.
  const ring = corners.filter((v, k) => v !== corners[(k + corners.length - 1) % corners.length]);
  if (new Set(ring).size < 3) return { pieces: [], repair: "degenerate" };
  const pinched = new Set(ring).size < ring.length;
  if (ring.length <= 4 && !pinched) return { pieces: [ring] };
  const { triangles, fanned } = triangulate(ring, positions);
  const pieces = triangles.filter(([a, b, c]) => a !== b && b !== c && a !== c);
  if (!pieces.length) return { pieces, repair: "degenerate" };
  return { pieces, repair: ring.length > 4 ? "ngon" : undefined, ...(fanned ? { fanned } : {}) };
}

/**
 * Triangles covering the polygon `ring` (no two consecutive corners alike): a fan when it is convex,
 * else ear clipping in the plane of its Newell normal; triangles wind as the polygon does.
 */
export function triangulate(
  ring: readonly number[],
  positions: Float64Array,
): { triangles: number[][]; fanned?: boolean } {
  const n = ring.length;
  const fan = () => ring.slice(2).map((v, k) => [ring[0], ring[k + 1], v]);
  const flat = planar(ring, positions);
  if (!flat) return { triangles: fan() }; // no area: nothing to keep apart; its triangles are dropped as degenerate or drawn flat
  const { x, y, scale } = flat;
  const cross = (a: number, b: number, c: number) =>
    (x[b] - x[a]) * (y[c] - y[b]) - (y[b] - y[a]) * (x[c] - x[b]);
  const eps = 1e-12 * scale * scale;
  // Strictly convex: a fan. A corner on a straight edge (a converter's T-junction vertex) would make
  // a fan's triangle from the first corner a sliver, so such polygons are ear-clipped too.
  let convex = true;
  for (let k = 0; k < n && convex; k++) convex = cross((k + n - 1) % n, k, (k + 1) % n) > eps;
  if (convex) return { triangles: fan() };
  if (n > EAR_CLIP_LIMIT) return { triangles: fan(), fanned: true };
  const left = Array.from({ length: n }, (_, k) => k);
  const out: number[][] = [];
  const at = (p: number, q: number) => ring[p] === ring[q] || (x[p] === x[q] && y[p] === y[q]);
  // On the edge counts as inside: a corner on the diagonal an ear would cut along means the ear
  // reaches past the outline (an L's inner corner on the line between its two ends).
  const inside = (p: number, a: number, b: number, c: number) =>
    cross(a, b, p) >= -eps && cross(b, c, p) >= -eps && cross(c, a, p) >= -eps;
  // The search for the next ear starts where the last was cut: ears cluster, so this is usually quick.
  let from = 0;
  while (left.length > 3) {
    let clipped = -1;
    for (let step = 0; step < left.length && clipped < 0; step++) {
      const k = (from + step) % left.length;
      const a = left[(k + left.length - 1) % left.length], b = left[k], c = left[(k + 1) % left.length];
      if (cross(a, b, c) <= eps) continue;
      // An ear holds no other corner; one at the place of one of its own (a pinch, a vertex written
      // twice) does not count.
      const blocked = left.some((p) => !at(p, a) && !at(p, b) && !at(p, c) && inside(p, a, b, c));
      if (!blocked) clipped = k;
    }
    // No ear (a self-crossing outline): take the most convex corner, so the loop always ends.
    if (clipped < 0) {
      let best = -Infinity;
      for (let k = 0; k < left.length; k++) {
        const turn = cross(left[(k + left.length - 1) % left.length], left[k], left[(k + 1) % left.length]);
        if (turn > best) (best = turn), (clipped = k);
      }
    }
    const a = left[(clipped + left.length - 1) % left.length], c = left[(clipped + 1) % left.length];
    out.push([ring[a], ring[left[clipped]], ring[c]]);
    left.splice(clipped, 1);
    from = clipped % left.length;
  }
  out.push(left.map((k) => ring[k]));
  return { triangles: out };
}

/**
 * The polygon's corners in 2D coordinates of its plane (counter-clockwise when seen along its Newell
 * normal), and its size; undefined when it has no area.
 */
function planar(
  ring: readonly number[],
  positions: Float64Array,
): { x: Float64Array; y: Float64Array; scale: number } | undefined {
  const n = ring.length;
  const at = (k: number, c: number) => positions[ring[k] * 3 + c];
  let nx = 0, ny = 0, nz = 0, scale = 0;
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    nx += (at(k, 1) - at(j, 1)) * (at(k, 2) + at(j, 2));
    ny += (at(k, 2) - at(j, 2)) * (at(k, 0) + at(j, 0));
    nz += (at(k, 0) - at(j, 0)) * (at(k, 1) + at(j, 1));
    for (let c = 0; c < 3; c++) scale = Math.max(scale, Math.abs(at(k, c) - at(0, c)));
  }
  const length = Math.hypot(nx, ny, nz);
  if (!(length > 1e-12 * scale * scale) || !Number.isFinite(length)) return undefined;
  [nx, ny, nz] = [nx / length, ny / length, nz / length];
  // u: any unit vector across the normal; v = n × u, so (u, v, n) is right-handed.
  const [ax, ay, az] = Math.abs(nx) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  let [ux, uy, uz] = [ay * nz - az * ny, az * nx - ax * nz, ax * ny - ay * nx];
  const u = Math.hypot(ux, uy, uz);
  [ux, uy, uz] = [ux / u, uy / u, uz / u];
  const [vx, vy, vz] = [ny * uz - nz * uy, nz * ux - nx * uz, nx * uy - ny * ux];
  const x = new Float64Array(n), y = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const [px, py, pz] = [at(k, 0) - at(0, 0), at(k, 1) - at(0, 1), at(k, 2) - at(0, 2)];
    x[k] = px * ux + py * uy + pz * uz;
    y[k] = px * vx + py * vy + pz * vz;
  }
  return { x, y, scale };
}

/**
 * The drawn polygons of each authored polygon: `piecesOf(p)` lists them (just `[p]` when the
 * polygons were read one to one).
 */
export function authoredPieces(authored: AuthoredPolys | undefined): (p: number) => number[] {
  if (!authored) return (p) => [p];
  const pieces: number[][] = Array.from({ length: authored.count }, () => []);
  authored.of.forEach((p, drawn) => pieces[p].push(drawn));
  return (p) => pieces[p] ?? [];
}
