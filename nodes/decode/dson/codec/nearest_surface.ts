/**
 * The nearest point of a body's surface to each vertex of an item fitted to it, for projecting the
 * body's morphs onto the item (`auto_project.ts`): Daz's auto-follow creates a morph the item lacks
 * by projection (DzFollowingProjectionOptions), each item vertex following the body surface near it.
 * Here each vertex takes the closest point of the body's triangles (quads split in two) and its
 * barycentric weights there, and the closest points of the triangles up to {@link SMOOTH_RATIO} of
 * its distance farther, weighted less the farther they are; a morph's delta is the weights' blend of
 * those triangles' corner deltas. Triangles are bucketed in a uniform grid searched ring by ring
 * outwards, so a Genesis body (~20k vertices) and a garment (~10k) take a fraction of a second, not
 * the item × body pairs of a brute-force search.
 *
 * Vertices farther from the body than {@link FULL_DISTANCE_CM} follow it less, linearly, to nothing
 * at {@link MAX_DISTANCE_CM}: a prop or a long skirt hem far from the body is not dragged by a
 * surface it does not sit on, and the fade keeps the item from tearing where that begins.
 *
 * @module
 */
import type { Morph } from "./model.ts";

/** Up to this distance (cm) from the body's surface an item vertex follows it fully. */
export const FULL_DISTANCE_CM = 5;
/** From this distance (cm) on an item vertex does not follow the body (linear fade from the full one). */
export const MAX_DISTANCE_CM = 10;
/** Point-triangle tests allowed for one item; past it the item is not projected (warned). */
export const MAX_TESTS = 40_000_000;

/** A body's surface as DSON geometry gives it (cm; four vertex indices per polygon, -1: triangle). */
export interface BodySurface {
  readonly positions: Float64Array;
  readonly vertexCount: number;
  readonly polyVerts: Int32Array;
  readonly polyCount: number;
}

/**
 * Triangles up to this fraction of an item vertex's distance from the body farther than its nearest
 * share in its delta, less the farther they are: Daz's projection considers the locations around
 * the closest point within a tolerance (DzFollowingProjectionOptions). A garment d cm off the skin
 * so takes the skin's movement averaged over about d around (not the skin's small detail, nor a
 * nearest point that jumps between two legs or across a crease), and one on the skin follows it
 * exactly.
 */
export const SMOOTH_RATIO = 0.25;

/**
 * For each item vertex `i`, the body corners its delta blends, `corners[offsets[i] .. offsets[i+1]]`
 * (none: beyond {@link MAX_DISTANCE_CM}), with their weights (summing to the distance fade), and the
 * tests made.
 */
export interface SurfaceHits {
  readonly offsets: Int32Array;
  readonly corners: Int32Array;
  readonly weights: Float64Array;
  readonly tests: number;
}

/**
 * The nearest body surface point of each of `points` (flat xyz, cm, in the body's space); undefined
 * when more than `budget` point-triangle tests would be needed (the caller warns).
 *
 * @example
 * ```ts
 * const hits = nearestSurface(body.geometry, item.geometry.positions);
 * ```
 */
export function nearestSurface(
  body: BodySurface,
  points: Float64Array,
  budget = MAX_TESTS,
  smooth = SMOOTH_RATIO,
): SurfaceHits | undefined {
  const tris = triangles(body);
  const count = points.length / 3;
  const offsets = new Int32Array(count + 1);
  const corners: number[] = [], weights: number[] = [];
  if (!tris.length) return { offsets, corners: new Int32Array(), weights: new Float64Array(), tests: 0 };
  const grid = buildGrid(body.positions, tris);
  const stamp = new Int32Array(tris.length / 3);
  const bary = [0, 0, 0];
  // The triangles tested for one vertex: index, squared distance, barycentric weights (grown as needed).
  let seen = new Int32Array(256), seenD2 = new Float64Array(256), seenBary = new Float64Array(768);
  let n = 0;
  let tests = 0;
  const reachMost = MAX_DISTANCE_CM * (1 + smooth);
  for (let i = 0; i < count; i++) {
    offsets[i] = corners.length;
    const p = [points[i * 3], points[i * 3 + 1], points[i * 3 + 2]];
    if (!p.every(Number.isFinite)) continue;
    // Beyond the body's box by the cut-off: no triangle can be near enough.
    const outside = (x: number, k: number) =>
      x < grid.min[k] - MAX_DISTANCE_CM || x > grid.min[k] + grid.extent[k] + MAX_DISTANCE_CM;
    if (p.some(outside)) continue;
    const cell = p.map((x, k) => Math.floor((x - grid.min[k]) / grid.size));
    let best = Infinity;
    n = 0;
    const maxRing = Math.ceil(reachMost / grid.size) + 1;
    for (let r = 0; r <= maxRing; r++) {
      for (let dx = -r; dx <= r; dx++) {
        for (let dy = -r; dy <= r; dy++) {
          // Only the ring's shell: the cells inside were searched at smaller r. Off the shell in x
          // and y, only its two z faces (stepping over the inside, not testing each cell of it: a
          // cape 7.5 cm out searches ten rings, whose cubes hold ~50k cells, their shells ~5k).
          const side = Math.abs(dx) === r || Math.abs(dy) === r;
          for (let dz = -r; dz <= r; dz = side || dz === r ? dz + 1 : r) {
            const list = grid.cells.get(grid.key(cell[0] + dx, cell[1] + dy, cell[2] + dz));
            if (!list) continue;
            for (const t of list) {
              if (stamp[t] === i + 1) continue;
              stamp[t] = i + 1;
              if (++tests > budget) return undefined;
              const d2 = closestOnTriangle(p, body.positions, tris, t, bary);
              if (d2 < best) best = d2;
              if (n === seen.length) {
                [seen, seenD2, seenBary] = [grow(seen), grow(seenD2), grow(seenBary)];
              }
              seen[n] = t, seenD2[n] = d2;
              seenBary[n * 3] = bary[0], seenBary[n * 3 + 1] = bary[1], seenBary[n * 3 + 2] = bary[2];
              n++;
            }
          }
        }
      }
      // Every cell not yet searched lies at least r cells' widths from p: done once that is past
      // the nearest triangle's distance and the smoothing band beyond it.
      const reach = r * grid.size, need = Math.sqrt(best) * (1 + smooth);
      if (need <= reach || reach > reachMost) break;
    }
    const distance = Math.sqrt(best);
    if (!n || distance >= MAX_DISTANCE_CM) continue;
    const fade = distance <= FULL_DISTANCE_CM
      ? 1
      : (MAX_DISTANCE_CM - distance) / (MAX_DISTANCE_CM - FULL_DISTANCE_CM);
    // Each triangle within the band weighs (1 − its extra distance / band)²: the nearest fully,
    // those at the band's edge nothing, so the blend changes smoothly as the nearest point moves.
    // On the skin (no band) the nearest triangle alone.
    const band = smooth * distance;
    const shares: [number, number][] = [];
    let total = 0;
    const far = (distance + band) ** 2;
    for (let k = 0; k < n; k++) {
      if (seenD2[k] > far) continue;
      const extra = Math.sqrt(seenD2[k]) - distance;
      const w = band > 1e-9 ? (extra < band ? (1 - extra / band) ** 2 : 0) : seenD2[k] === best ? 1 : 0;
      if (w > 0) shares.push([k, w]), total += w;
      if (w > 0 && band <= 1e-9) break;
    }
    // One entry per body corner: the triangles around a corner share it (six a vertex of a regular
    // mesh), so a vertex far off the skin, blending hundreds of triangles, keeps about a sixth as
    // many entries (the searches a preset keeps in memory were tens of MB for a cape).
    const at = new Map<number, number>();
    for (const [k, w] of shares) {
      for (let c = 0; c < 3; c++) {
        const v = tris[seen[k] * 3 + c], share = (seenBary[k * 3 + c] * w * fade) / total;
        const slot = at.get(v);
        if (slot === undefined) at.set(v, corners.push(v) - 1), weights.push(share);
        else weights[slot] += share;
      }
    }
  }
  offsets[count] = corners.length;
  return { offsets, corners: Int32Array.from(corners), weights: Float64Array.from(weights), tests };
}

/**
 * `morph`'s deltas (a body morph) carried to the item's vertices through `hits`: each the blend of
 * the corner deltas of its nearest triangles. Only vertices that move are listed.
 */
export function projectDeltas(
  hits: SurfaceHits,
  morph: Pick<Morph, "index" | "delta">,
  bodyVertices: number,
): { index: Int32Array; delta: Float64Array } {
  const dense = new Float64Array(bodyVertices * 3);
  morph.index.forEach((v, k) => {
    for (let c = 0; c < 3; c++) dense[v * 3 + c] += morph.delta[k * 3 + c];
  });
  const index: number[] = [], delta: number[] = [];
  for (let i = 0; i + 1 < hits.offsets.length; i++) {
    const d = [0, 0, 0];
    for (let k = hits.offsets[i]; k < hits.offsets[i + 1]; k++) {
      const v = hits.corners[k], w = hits.weights[k];
      for (let c = 0; c < 3; c++) d[c] += w * dense[v * 3 + c];
    }
    if (d[0] === 0 && d[1] === 0 && d[2] === 0) continue;
    index.push(i), delta.push(...d);
  }
  return { index: Int32Array.from(index), delta: Float64Array.from(delta) };
}

/** `array` copied into one twice its length. */
function grow<T extends Int32Array | Float64Array>(array: T): T {
  const out = new (array.constructor as { new (n: number): T })(array.length * 2);
  out.set(array);
  return out;
}

/** The body's polygons as triangles (3 vertex indices each; quads split 0-1-2, 0-2-3), degenerate ones left out. */
function triangles(body: BodySurface): Int32Array {
  const out: number[] = [];
  const { polyVerts, positions, vertexCount } = body;
  const add = (a: number, b: number, c: number) => {
    if ([a, b, c].some((v) => v < 0 || v >= vertexCount)) return;
    const e1 = [0, 1, 2].map((k) => positions[b * 3 + k] - positions[a * 3 + k]);
    const e2 = [0, 1, 2].map((k) => positions[c * 3 + k] - positions[a * 3 + k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    // A triangle of no area has no barycentric weights (its edges are another triangle's).
    if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0)) return;
    out.push(a, b, c);
  };
  for (let f = 0; f < body.polyCount; f++) {
    const [a, b, c, d] = polyVerts.subarray(f * 4, f * 4 + 4);
    add(a, b, c);
    if (d >= 0) add(a, c, d);
  }
  return Int32Array.from(out);
}

/** Triangles bucketed by the grid cells their bounding boxes cover. */
interface Grid {
  readonly min: number[];
  readonly extent: number[];
  readonly size: number;
  readonly cells: Map<number, number[]>;
  key(x: number, y: number, z: number): number;
}

/** Cells about as wide as the triangles, at most {@link MAX_CELLS_PER_AXIS} along an axis. */
const MAX_CELLS_PER_AXIS = 512;

function buildGrid(positions: Float64Array, tris: Int32Array): Grid {
  const count = tris.length / 3;
  const lo = (t: number, k: number) =>
    Math.min(
      positions[tris[t * 3] * 3 + k],
      positions[tris[t * 3 + 1] * 3 + k],
      positions[tris[t * 3 + 2] * 3 + k],
    );
  const hi = (t: number, k: number) =>
    Math.max(
      positions[tris[t * 3] * 3 + k],
      positions[tris[t * 3 + 1] * 3 + k],
      positions[tris[t * 3 + 2] * 3 + k],
    );
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  let span = 0;
  for (let t = 0; t < count; t++) {
    let largest = 0;
    for (let k = 0; k < 3; k++) {
      const [a, b] = [lo(t, k), hi(t, k)];
      min[k] = Math.min(min[k], a), max[k] = Math.max(max[k], b);
      largest = Math.max(largest, b - a);
    }
    span += largest;
  }
  const extent = max.map((m, k) => m - min[k]);
  const size = Math.max(span / count, Math.max(...extent) / MAX_CELLS_PER_AXIS, 1e-6);
  // Room for the search rings around the box: keys stay unique for cells within the cut-off of it.
  const pad = Math.ceil(MAX_DISTANCE_CM / size) + 2;
  const dims = extent.map((e) => Math.floor(e / size) + 1 + 2 * pad);
  const key = (x: number, y: number, z: number) => {
    if (x < -pad || y < -pad || z < -pad || x + pad >= dims[0] || y + pad >= dims[1] || z + pad >= dims[2]) {
      return -1;
    }
    return ((x + pad) * dims[1] + (y + pad)) * dims[2] + (z + pad);
  };
  const cells = new Map<number, number[]>();
  for (let t = 0; t < count; t++) {
    const from = [0, 1, 2].map((k) => Math.floor((lo(t, k) - min[k]) / size));
    const to = [0, 1, 2].map((k) => Math.floor((hi(t, k) - min[k]) / size));
    for (let x = from[0]; x <= to[0]; x++) {
      for (let y = from[1]; y <= to[1]; y++) {
        for (let z = from[2]; z <= to[2]; z++) {
          const k = key(x, y, z);
          const list = cells.get(k);
          if (list) list.push(t);
          else cells.set(k, [t]);
        }
      }
    }
  }
  return { min, extent, size, cells, key };
}

/**
 * The squared distance from `p` to triangle `t` and, in `bary`, the barycentric weights of its closest
 * point (Ericson, Real-Time Collision Detection, 5.1.5: the Voronoi region of a vertex, edge or face).
 * Scalars only: it runs once per triangle searched, about a million times for a Genesis garment.
 */
function closestOnTriangle(
  p: readonly number[],
  positions: Float64Array,
  tris: Int32Array,
  t: number,
  bary: number[],
): number {
  const ia = tris[t * 3] * 3, ib = tris[t * 3 + 1] * 3, ic = tris[t * 3 + 2] * 3;
  const ax = positions[ia], ay = positions[ia + 1], az = positions[ia + 2];
  const abx = positions[ib] - ax, aby = positions[ib + 1] - ay, abz = positions[ib + 2] - az;
  const acx = positions[ic] - ax, acy = positions[ic + 1] - ay, acz = positions[ic + 2] - az;
  const apx = p[0] - ax, apy = p[1] - ay, apz = p[2] - az;
  const set = (u: number, v: number, w: number) => {
    bary[0] = u, bary[1] = v, bary[2] = w;
    const qx = v * abx + w * acx - apx, qy = v * aby + w * acy - apy, qz = v * abz + w * acz - apz;
    return qx * qx + qy * qy + qz * qz;
  };
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return set(1, 0, 0);
  // b - p = ap - ab
  const d3 = d1 - (abx * abx + aby * aby + abz * abz), d4 = d2 - (acx * abx + acy * aby + acz * abz);
  if (d3 >= 0 && d4 <= d3) return set(0, 1, 0);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return set(1 - v, v, 0);
  }
  // c - p = ap - ac
  const d5 = d1 - (abx * acx + aby * acy + abz * acz), d6 = d2 - (acx * acx + acy * acy + acz * acz);
  if (d6 >= 0 && d5 <= d6) return set(0, 0, 1);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return set(1 - w, 0, w);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return set(0, 1 - w, w);
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, w = vc * denom;
  return set(1 - v - w, v, w);
}
