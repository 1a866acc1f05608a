/**
 * Robust straight lines through scattered points (Theil–Sen): the median of pairwise slopes, so a few
 * points off the line (a body beside a surface's root) leave it where it is.
 *
 * @module
 */

/**
 * A robust straight line through (xs, ys): the median of pairwise slopes, then the median intercept.
 *
 * @example
 * ```ts
 * theilSen([0, 1, 2, 3, 4], [1, 3, 5, 7, 40]).slope; // 2: the outlier does not move the line
 * ```
 */
export function theilSen(xs: number[], ys: number[]): { slope: number; at: (x: number) => number } {
  const slopes: number[] = [];
  for (let a = 0; a < xs.length; a++) {
    for (let b = a + 1; b < xs.length; b++) slopes.push((ys[b] - ys[a]) / (xs[b] - xs[a]));
  }
  const slope = median(slopes), mid = median(ys.map((y, k) => y - slope * xs[k]));
  return { slope, at: (x) => mid + slope * x };
}

/** The middle value (the mean of the middle two of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b), mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
