/**
 * Where runs of zero bytes end in a `.car`: the count searches ask it from many places in a long tail
 * of zeros (frames a count would add that are all zeros are no evidence of frames).
 *
 * @module
 */

/** Bytes per block of {@link zeroBlocks}. */
const ZERO_BLOCK = 64;
const zeroBlockCache = new WeakMap<DataView, Int32Array>();

/**
 * For each 64-byte block of `view`, the first block at or after it holding a byte that is not zero:
 * the searches ask where zeros end from many places in a long tail of zeros, each in a few steps.
 */
function zeroBlocks(view: DataView): Int32Array {
  const known = zeroBlockCache.get(view);
  if (known) return known;
  const blocks = Math.ceil(view.byteLength / ZERO_BLOCK);
  const next = new Int32Array(blocks + 1).fill(blocks);
  for (let b = blocks - 1; b >= 0; b--) {
    let zero = true;
    for (let i = b * ZERO_BLOCK; i < Math.min((b + 1) * ZERO_BLOCK, view.byteLength) && zero; i++) {
      zero = view.getUint8(i) === 0;
    }
    next[b] = zero ? next[b + 1] : b;
  }
  zeroBlockCache.set(view, next);
  return next;
}

/** The first byte at or after `at` that is not zero, looking no further than `limit` (the file's end). */
export function zeroFrom(view: DataView, at: number, limit = view.byteLength): number {
  const end = Math.min(limit, view.byteLength);
  const next = zeroBlocks(view);
  while (at < end) {
    if (at % ZERO_BLOCK === 0) {
      const block = next[at / ZERO_BLOCK];
      if (block * ZERO_BLOCK > at) {
        at = block * ZERO_BLOCK;
        continue;
      }
    }
    if (view.getUint8(at) !== 0) return at;
    at++;
  }
  return Math.min(at, end);
}
