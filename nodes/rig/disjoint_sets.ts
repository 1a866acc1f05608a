/**
 * Disjoint sets of vertex indices (union–find with path halving), for telling a mesh's connected
 * pieces apart: `split_pieces.ts` (surfaces on both sides of the centre line) and `linkages.ts`
 * (a control linkage's islands).
 *
 * @module
 */

/** Sets over `0..count-1`, each index alone at first. */
export interface DisjointSets {
  /** The representative of `i`'s set: the same for every member, the smallest index joined so far. */
  find(i: number): number;
  /** Joins the sets of `a` and `b`. */
  join(a: number, b: number): void;
}

/** `count` indices, each in a set of its own. */
export function disjointSets(count: number): DisjointSets {
  const root = new Int32Array(count).map((_, i) => i);
  const find = (i: number): number => {
    while (root[i] !== i) i = root[i] = root[root[i]];
    return i;
  };
  const join = (a: number, b: number) => {
    const ra = find(a), rb = find(b);
    if (ra !== rb) root[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  return { find, join };
}
