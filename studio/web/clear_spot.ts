/**
 * Where an arranged selection goes so that it covers none of the nodes it was not arranged with:
 * Arrange lays a selection out from its top-left corner, and the laid-out block is often wider or
 * taller than the nodes were, so it landed on the nodes around it. The block keeps its place when it
 * is clear; else it moves straight down or straight right, whichever is the shorter way, to the
 * first place where its bounding box is at least {@link CLEARANCE} from every other node.
 *
 * @module
 */

/** A box: left, top, right, bottom. */
export type Box = readonly [number, number, number, number];

/** The space kept between the arranged block and the other nodes. */
export const CLEARANCE = 40;

/**
 * The offset `[dx, dy]` (one of them 0) that puts `block` (the arranged nodes' bounding box) clear of
 * every box of `others`; `[0, 0]` when it is clear already.
 */
export function clearOffset(block: Box, others: readonly Box[]): [number, number] {
  const down = firstClear(block[1], block[3] - block[1], others, block[0], block[2], 1, 3);
  if (down === block[1]) return [0, 0];
  const right = firstClear(block[0], block[2] - block[0], others, block[1], block[3], 0, 2);
  return right - block[0] < down - block[1] ? [right - block[0], 0] : [0, down - block[1]];
}

/**
 * The least start `s >= from` such that `[s, s + size]` along one axis keeps {@link CLEARANCE} from
 * every box that meets the band `[lo, hi]` across it (indices `a`, `b`: a box's start and end on the
 * axis): the boxes in the band, by start, push `s` past each one it meets (it only grows, so a box
 * passed stays clear), until the next one starts beyond the block.
 */
function firstClear(
  from: number,
  size: number,
  others: readonly Box[],
  lo: number,
  hi: number,
  a: 1 | 0,
  b: 3 | 2,
): number {
  const across = a === 1 ? [0, 2] : [1, 3];
  const band = others
    .filter((o) => o[across[0]] < hi + CLEARANCE && lo - CLEARANCE < o[across[1]])
    .map((o) => [o[a], o[b]])
    .sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  let s = from;
  for (const [start, end] of band) {
    if (start >= s + size + CLEARANCE) break;
    if (end + CLEARANCE > s) s = end + CLEARANCE;
  }
  return s;
}
