/**
 * A seeded pseudo-random generator for fuzz tests: every run mutates the same way, so a failure
 * names a reproducible case.
 *
 * @module
 */

/**
 * mulberry32: small, well mixed, seedable. Returns numbers in [0, 1).
 *
 * @example
 * ```ts
 * const next = prng(42);
 * const byte = Math.floor(next() * 256);
 * ```
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
