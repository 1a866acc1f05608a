/**
 * "Did you mean" suggestions for misspelt node types, sockets, parameters and node ids.
 *
 * @module
 */

/**
 * `" (did you mean 'x'?)"` for the closest candidate within a few edits, else `""`.
 *
 * @example
 * ```ts
 * import { suggestName } from "./suggest.ts";
 *
 * console.log(suggestName("io.raed", ["io.read", "io.write"])); // " (did you mean 'io.read'?)"
 * ```
 */
export function suggestName(name: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    // Names much longer or shorter cannot be close; skipping them keeps huge graphs cheap.
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best ? ` (did you mean '${best}'?)` : "";
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
