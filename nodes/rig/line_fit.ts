/**
 * A robust 3D line through a handful of edge points (one per span bin, so at most a few dozen):
 * exhaustive pair consensus at a tight core tolerance (a quarter of the inlier distance) picks the
 * points that agree closely, a total-least-squares line goes through them, and the inliers are the
 * points within the inlier distance of that line. Outliers such as a horn balance's forward edge at
 * the tip cannot tilt it, as they would a plain least-squares fit; and the stations just past a
 * kink, within the inlier distance of a slightly tilted line, cannot win the consensus for it.
 *
 * @module
 */
import { symmetricEigen3 } from "./eigen3.ts";

/** A fitted line with its quality. */
export interface LineFit {
  /** A point on the line (the centroid of the inliers). */
  readonly point: [number, number, number];
  /** Unit direction, signed to agree with the `hint` given to {@link fitRobustLine}. */
  readonly direction: [number, number, number];
  /** Which input points agreed with the line. */
  readonly inliers: boolean[];
  /** Number of inliers. */
  readonly inlierCount: number;
  /** RMS distance of the inliers from the line. */
  readonly residual: number;
  /**
   * Points on the best other line: one through two points off this line (beyond the inlier
   * distance), counted as the consensus counts (within a quarter of the inlier distance). A second
   * straight run of the edge — a horn balance, a cut-out, a kink — about as long as this one's means
   * the edge alone cannot tell which run the hinge is on. 0 when fewer than two points are off.
   */
  readonly rivalCount: number;
}

/**
 * Fits a line through `count` points stored as `xyz` triples in `points`.
 *
 * @param tolerance Inlier distance (e.g. 2 % of chord); the consensus uses a quarter of it.
 * @param hint Direction used when fewer than two points are given, and to sign the result.
 *
 * @example
 * ```ts
 * const fit = fitRobustLine(new Float64Array([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 5, 0]), 4, 0.1, [1, 0, 0]);
 * fit.inlierCount; // 3 — the point off the line at x = 3 is an outlier
 * ```
 */
export function fitRobustLine(
  points: ArrayLike<number>,
  count: number,
  tolerance: number,
  hint: readonly [number, number, number],
): LineFit {
  if (count === 0) throw new Error("no points to fit a line through");
  if (count === 1) {
    return {
      point: [points[0], points[1], points[2]],
      direction: [hint[0], hint[1], hint[2]],
      inliers: [true],
      inlierCount: 1,
      residual: 0,
      rivalCount: 0,
    };
  }
  let best: boolean[] = [];
  let bestCount = -1;
  let bestCost = Infinity;
  const tol2 = (tolerance * CORE) ** 2;
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const mask: boolean[] = new Array(count);
      const line = consensus(points, count, i, j, tol2, mask);
      if (!line) continue;
      // More inliers wins; among equals, the truncated cost (MSAC) picks the tighter line.
      if (line.n > bestCount || (line.n === bestCount && line.cost < bestCost)) {
        best = mask;
        bestCount = line.n;
        bestCost = line.cost;
      }
    }
  }
  if (bestCount < 0) {
    // Every point coincides: a line through them along the hint.
    best = new Array(count).fill(true);
  }
  const core = totalLeastSquares(points, count, best, hint);
  const [px, py, pz] = core.point, [ux, uy, uz] = core.direction;
  const inliers = Array.from(
    { length: count },
    (_, k) => best[k] || distanceSquared(points, k, px, py, pz, ux, uy, uz) <= tolerance * tolerance,
  );
  let n = 0, sum = 0;
  for (let k = 0; k < count; k++) {
    if (!inliers[k]) continue;
    n++;
    sum += distanceSquared(points, k, px, py, pz, ux, uy, uz);
  }
  return {
    ...core,
    inliers,
    inlierCount: n,
    residual: Math.sqrt(sum / n),
    rivalCount: rival(points, count, inliers, tol2),
  };
}

/** The consensus of the best line through two points that are not `inliers` (see `rivalCount`). */
function rival(points: ArrayLike<number>, count: number, inliers: boolean[], tol2: number): number {
  let best = 0;
  for (let i = 0; i < count; i++) {
    if (inliers[i]) continue;
    for (let j = i + 1; j < count; j++) {
      if (!inliers[j]) best = Math.max(best, consensus(points, count, i, j, tol2)?.n ?? 0);
    }
  }
  return best;
}

/**
 * The line through points `i` and `j`: how many points lie within the consensus tolerance of it
 * (marked in `mask` when given) and their truncated cost; undefined when the two points coincide.
 */
function consensus(
  points: ArrayLike<number>,
  count: number,
  i: number,
  j: number,
  tol2: number,
  mask?: boolean[],
): { n: number; cost: number } | undefined {
  const px = points[i * 3], py = points[i * 3 + 1], pz = points[i * 3 + 2];
  const dx = points[j * 3] - px, dy = points[j * 3 + 1] - py, dz = points[j * 3 + 2] - pz;
  const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (len === 0) return undefined;
  const ux = dx / len, uy = dy / len, uz = dz / len;
  let n = 0, cost = 0;
  for (let k = 0; k < count; k++) {
    const d2 = distanceSquared(points, k, px, py, pz, ux, uy, uz);
    const near = d2 <= tol2;
    if (mask) mask[k] = near;
    if (near) n++;
    cost += Math.min(d2, tol2);
  }
  return { n, cost };
}

/** The consensus tolerance as a share of the inlier distance. */
const CORE = 0.25;

function distanceSquared(
  points: ArrayLike<number>,
  k: number,
  px: number,
  py: number,
  pz: number,
  ux: number,
  uy: number,
  uz: number,
): number {
  const vx = points[k * 3] - px, vy = points[k * 3 + 1] - py, vz = points[k * 3 + 2] - pz;
  const t = vx * ux + vy * uy + vz * uz;
  const ex = vx - t * ux, ey = vy - t * uy, ez = vz - t * uz;
  return ex * ex + ey * ey + ez * ez;
}

function totalLeastSquares(
  points: ArrayLike<number>,
  count: number,
  mask: boolean[],
  hint: readonly [number, number, number],
): LineFit {
  let n = 0, cx = 0, cy = 0, cz = 0;
  for (let k = 0; k < count; k++) {
    if (!mask[k]) continue;
    n++;
    cx += points[k * 3];
    cy += points[k * 3 + 1];
    cz += points[k * 3 + 2];
  }
  cx /= n;
  cy /= n;
  cz /= n;
  let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
  for (let k = 0; k < count; k++) {
    if (!mask[k]) continue;
    const x = points[k * 3] - cx, y = points[k * 3 + 1] - cy, z = points[k * 3 + 2] - cz;
    xx += x * x;
    xy += x * y;
    xz += x * z;
    yy += y * y;
    yz += y * z;
    zz += z * z;
  }
  let direction: [number, number, number];
  if (xx + yy + zz === 0) {
    direction = [hint[0], hint[1], hint[2]];
  } else {
    direction = symmetricEigen3(xx, xy, xz, yy, yz, zz).vectors[2];
    if (direction[0] * hint[0] + direction[1] * hint[1] + direction[2] * hint[2] < 0) {
      direction = [-direction[0], -direction[1], -direction[2]];
    }
  }
  let sum = 0;
  for (let k = 0; k < count; k++) {
    if (mask[k]) sum += distanceSquared(points, k, cx, cy, cz, direction[0], direction[1], direction[2]);
  }
  return {
    point: [cx, cy, cz],
    direction,
    inliers: mask,
    inlierCount: n,
    residual: Math.sqrt(sum / n),
    rivalCount: 0,
  };
}
