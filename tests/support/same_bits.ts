/**
 * Asserts two arrays of numbers hold the same bits: the same length and, at every index, the same
 * number by `Object.is` (so −0 is not 0, and NaN is NaN). For speed-ups that must not change a result.
 *
 * @module
 */

/** Throws naming `what` and the first index where `actual` and `expected` differ. */
export function assertSameBits(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  if (actual.length !== expected.length) {
    throw new Error(`${what}: ${actual.length} numbers, expected ${expected.length}`);
  }
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i])) {
      throw new Error(`${what}[${i}]: ${actual[i]}, expected ${expected[i]}`);
    }
  }
}
