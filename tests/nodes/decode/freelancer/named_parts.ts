/**
 * Reading back the parts a `decode.cmp` warning names (`part 'a' LOD 0`, `part 'b' LODs 0–2`,
 * `part 'c' LODs 0, 2`, then "and N more parts"), and judging them against a generator's own record of
 * who draws what. Shared by the tests of warnings that name what uses a thing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";

/** Parts and the LODs each draws, in part order, as a generator records them. */
export type PartLods = ReadonlyMap<string, ReadonlySet<number>>;

/** The parts and LODs a warning's text names, in order, and how many more it counts. */
export function namedParts(text: string): { parts: [string, number[]][]; more: number } {
  const parts: [string, number[]][] = [];
  const each = /part '([^']+)' (?:LOD (\d+)|LODs (\d+)–(\d+)|LODs ((?:\d+, )*\d+))/g;
  for (const m of text.matchAll(each)) {
    const lods = m[2] !== undefined
      ? [Number(m[2])]
      : m[3] !== undefined
      ? Array.from({ length: Number(m[4]) - Number(m[3]) + 1 }, (_, i) => Number(m[3]) + i)
      : m[5].split(", ").map(Number);
    parts.push([m[1], lods]);
  }
  const more = /and (\d+) more parts?\b/.exec(text);
  return { parts, more: more ? Number(more[1]) : 0 };
}

/** Asserts `text` names the parts of `truth` in order, the first four, and counts the rest. */
export function assertNamesParts(text: string, truth: PartLods, what: string): void {
  const expected = [...truth].map(([part, lods]) =>
    [part, [...lods].sort((a, b) => a - b)] as [string, number[]]
  );
  const { parts, more } = namedParts(text);
  assert.ok(expected.length > 0, `${what}: the generator drew it somewhere`);
  assert.deepEqual(parts, expected.slice(0, 4), `${what}: parts named in\n${text}`);
  assert.equal(more, Math.max(0, expected.length - 4), `${what}: parts counted in\n${text}`);
}

/** The warnings of `decode.cmp` on `ship<seed>.cmp` given `inputs` beside it, no library searched for. */
export async function cmpWarnings(
  cmp: Uint8Array,
  seed: number,
  inputs: Record<string, { bytes: Uint8Array; name: string }>,
): Promise<string[]> {
  const ctx = testContext();
  await runNode(
    decodeCmp,
    { bytes: { bytes: cmp, name: `ship${seed}.cmp` }, ...inputs },
    { libraries: "none" } as never,
    ctx,
  );
  return ctx.warnings.map((w) => w.message);
}
