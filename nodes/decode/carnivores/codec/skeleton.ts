/**
 * The `.3df` bone table → a sound joint hierarchy. Real files are loose: the game never reads the
 * bones, so parents can be out of range or form cycles, and pivots can be junk (tiny or unrelated
 * to the vertices a bone owns). This module repairs all three and reports every repair.
 *
 * @module
 */

/** One bone as the decoder keeps it (scene space), see `extras.partgraph.carnivores.bones`. */
export interface BoneRecord {
  /** Bone name (not unique). */
  readonly name: string;
  /** Parent index as stored; -1 = root. */
  readonly parent: number;
  /** Pivot in scene space, null when not finite. */
  readonly pivot: readonly number[] | null;
  /** Number of points the bone owns. */
  readonly vertices: number;
  /** Centroid of those points, null when it owns none. */
  readonly centroid: readonly number[] | null;
  /** Largest distance of those points from their centroid. */
  readonly radius: number;
}

/** Where a joint's world position came from. */
export type PivotSource = "file" | "scaled" | "centroid" | "parent" | "origin";

/** The repaired hierarchy. */
export interface SkeletonPlan {
  /** Parent of each bone after repairs (-1 = root). */
  readonly parents: Int32Array;
  /** World pivot of each bone (3 per bone), scene space. */
  readonly pivots: Float64Array;
  /** Where each bone's pivot came from. */
  readonly pivotSources: PivotSource[];
  /** Bone indices with every parent before its children (roots and children in index order). */
  readonly order: Int32Array;
  /** One message per repair. */
  readonly repairs: string[];
}

/**
 * A pivot is junk when it is farther from its bone's points than `JUNK_SPREAD` × their radius plus
 * `JUNK_SLACK` × the model size: real pivots sit at a joint on the edge of the bone's points.
 */
export const JUNK_SPREAD = 1.5;
/** See {@link JUNK_SPREAD}. */
export const JUNK_SLACK = 0.05;

/**
 * Scales a converter may have left between the points and the pivots: ×16 (a `.car` frame's fixed
 * point), ×10 and ×100 (units), and their inverses.
 */
const PIVOT_SCALES = [16, 1 / 16, 10, 1 / 10, 100, 1 / 100];

/**
 * Repairs parents (out of range or self → root; cycles broken at their lowest-index bone) and pivots
 * (missing or junk → the centroid of the bone's points, else the parent's pivot, else the origin).
 * `modelSize` is the diagonal of the model's bounding box, in scene units.
 *
 * @example
 * ```ts
 * const plan = planSkeleton(bones, 2.5);
 * for (const message of plan.repairs) ctx.warn(message);
 * ```
 */
export function planSkeleton(bones: readonly BoneRecord[], modelSize: number): SkeletonPlan {
  const count = bones.length;
  const repairs: string[] = [];
  const parents = new Int32Array(count);
  for (let b = 0; b < count; b++) {
    const parent = bones[b].parent;
    if (parent === -1) {
      parents[b] = -1;
    } else if (!Number.isInteger(parent) || parent < 0 || parent >= count || parent === b) {
      repairs.push(
        `bone ${b} '${bones[b].name}': parent ${parent} is ${
          parent === b ? "itself" : "out of range"
        }; made a root`,
      );
      parents[b] = -1;
    } else {
      parents[b] = parent;
    }
  }
  breakCycles(bones, parents, repairs);
  const order = topologicalOrder(parents);

  const pivots = new Float64Array(count * 3);
  const pivotSources: PivotSource[] = new Array(count);
  const junk: number[] = [];
  const scale = pivotScale(bones, modelSize);
  if (scale !== 1) {
    const ratio = scale > 1 ? `×${scale}` : `/${1 / scale}`;
    repairs.push(
      `the bone pivots are ${ratio} off the points they own: every pivot ${ratio} lies among its bone's ` +
        `points, as stored some do not (a converter scaled the points and not the pivots); read ${ratio}`,
    );
  }
  for (const b of order) {
    const { centroid, radius } = bones[b];
    const pivot = bones[b].pivot?.map((v) => v * scale);
    let source: PivotSource;
    if (pivot && (!centroid || distance(pivot, centroid) <= JUNK_SPREAD * radius + JUNK_SLACK * modelSize)) {
      source = scale === 1 ? "file" : "scaled";
      pivots.set(pivot, b * 3);
    } else if (centroid) {
      source = "centroid";
      pivots.set(centroid, b * 3);
      junk.push(b);
    } else if (parents[b] >= 0) {
      source = "parent";
      pivots.set(pivots.subarray(parents[b] * 3, parents[b] * 3 + 3), b * 3);
      junk.push(b);
    } else {
      source = "origin";
      junk.push(b);
    }
    pivotSources[b] = source;
  }
  if (junk.length) {
    repairs.push(
      `${junk.length} bone pivot(s) missing or far from their vertices; used the vertices' centroid ` +
        `(or the parent's pivot): ${
          junk.sort((a, b) => a - b).map((b) => `${b} '${bones[b].name}'`).join(", ")
        }`,
    );
  }
  return { parents, pivots, pivotSources, order, repairs };
}

/**
 * The scale of {@link PIVOT_SCALES} that puts every pivot among its bone's points (within their
 * radius of their centroid, plus slack) when the pivots as stored are not all there — of several, the
 * one whose pivots lie nearest their centroids, when the next lies 1.5 times as far; 1 otherwise.
 * Every bone with points must agree, so a pivot that is junk on its own does not scale the others.
 */
function pivotScale(bones: readonly BoneRecord[], modelSize: number): number {
  const judged = bones.filter((b) => b.pivot && b.centroid);
  const among = (b: BoneRecord, k: number) =>
    distance(b.pivot!.map((v) => v * k), b.centroid!) <= b.radius + JUNK_SLACK * modelSize;
  if (!judged.length || judged.every((b) => among(b, 1))) return 1;
  // Several may fit a wide model: the one whose pivots sit clearly nearest their points (1.5 times) decides.
  const spread = (k: number) =>
    judged.reduce((sum, b) => sum + distance(b.pivot!.map((v) => v * k), b.centroid!), 0);
  const fits = PIVOT_SCALES.filter((k) => judged.every((b) => among(b, k)))
    .map((k) => ({ k, spread: spread(k) })).sort((a, b) => a.spread - b.spread);
  if (fits.length === 0 || (fits.length > 1 && fits[0].spread > fits[1].spread / 1.5)) return 1;
  return fits[0].k;
}

/** Walks each parent chain; a chain that returns to itself is cut at the cycle's lowest-index bone. */
function breakCycles(bones: readonly BoneRecord[], parents: Int32Array, repairs: string[]): void {
  const state = new Uint8Array(parents.length); // 0 unseen, 1 on the current chain, 2 done
  for (let start = 0; start < parents.length; start++) {
    if (state[start]) continue;
    const chain: number[] = [];
    let b = start;
    while (b >= 0 && state[b] === 0) {
      state[b] = 1;
      chain.push(b);
      b = parents[b];
    }
    if (b >= 0 && state[b] === 1) {
      const cycle = chain.slice(chain.indexOf(b));
      const cut = Math.min(...cycle);
      parents[cut] = -1;
      const path = [...cycle, b].map((i) => `${i} '${bones[i].name}'`).join(" → ");
      repairs.push(`bone parents form a cycle (${path}); bone ${cut} made a root`);
    }
    for (const c of chain) state[c] = 2;
  }
}

/** Depth-first from the roots in index order, children in index order. */
function topologicalOrder(parents: Int32Array): Int32Array {
  const children: number[][] = Array.from({ length: parents.length }, () => []);
  const roots: number[] = [];
  for (let b = 0; b < parents.length; b++) (parents[b] < 0 ? roots : children[parents[b]]).push(b);
  const order = new Int32Array(parents.length);
  let n = 0;
  const stack = roots.reverse();
  while (stack.length) {
    const b = stack.pop()!;
    order[n++] = b;
    for (let i = children[b].length - 1; i >= 0; i--) stack.push(children[b][i]);
  }
  return order;
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
