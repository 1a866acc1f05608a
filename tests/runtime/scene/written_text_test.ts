/**
 * `writtenText` on generated glTF-shaped JSON: wide integers (past 32 bits) inside any `extras` are
 * written with a fraction, everything else exactly as `JSON.stringify` writes it, and the text parses
 * back to the same value. Guards the walk that decides whether any such integer is there.
 */
import { writtenText } from "../../../runtime/scene/written_json.ts";
import { prng as random } from "../../support/prng.ts";

/** A leaf as real extras hold them: ids, CRCs, timestamps, small counts, floats, text, null, flags. */
function leaf(next: () => number): unknown {
  const kinds = [
    () => Math.floor(next() * 2 ** 32), // a uint32 CRC: wide half the time
    () => -Math.floor(next() * 2 ** 40), // a negative id
    () => 1_700_000_000_000 + Math.floor(next() * 1e6), // a millisecond timestamp
    () => Math.floor(next() * 100),
    () => next() * 1000 - 500,
    () => `part_${Math.floor(next() * 1e12)}`, // digits in text stay text
    () => null,
    () => next() < 0.5,
    () => 2 ** 31 - 1, // the widest integer that is not wide
    () => -(2 ** 31),
    () => 1e21, // written with an exponent: left alone
  ];
  return kinds[Math.floor(next() * kinds.length)]();
}

function value(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.4) return leaf(next);
  if (pick < 0.65) return Array.from({ length: Math.floor(next() * 5) }, () => value(next, depth + 1));
  const record: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) {
    record[`k${Math.floor(next() * 20)}`] = value(next, depth + 1);
  }
  return record;
}

/** A glTF-shaped file: wide numbers outside extras (byte lengths, counts) and extras at several levels. */
function file(seed: number, wideOutside = true): Record<string, unknown> {
  const next = random(seed);
  const extras = () => (next() < 0.5 ? { extras: value(next, 0) } : {});
  return {
    asset: { version: "2.0", ...extras() },
    buffers: [{ byteLength: (wideOutside ? 3_000_000_000 : 3_000) + Math.floor(next() * 1000) }],
    accessors: Array.from({ length: 4 }, () => ({
      count: Math.floor(next() * (wideOutside ? 5e9 : 5e4)),
      max: [next(), wideOutside ? 4_294_967_296 : 65_535, -1],
      min: [-next(), 0, wideOutside ? -5e9 : -123_456_789.5],
      ...extras(),
    })),
    nodes: Array.from({ length: 6 }, (_, i) => ({ name: `n${i}`, children: [], ...extras() })),
    ...extras(),
  };
}

/** The text by the rule, spelt out: a wide integer inside extras gets `.0`, found by a replacer. */
function expected(json: unknown, space?: number): string {
  const wide = (v: unknown) =>
    typeof v === "number" && Number.isInteger(v) && (v < -(2 ** 31) || v > 2 ** 31 - 1) && Math.abs(v) < 1e21;
  const mark = (v: unknown): unknown =>
    wide(v)
      ? (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(`${v}.0`)
      : Array.isArray(v)
      ? v.map(mark)
      : v && typeof v === "object"
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mark(x)]))
      : v;
  return JSON.stringify(json, (key, v) => (key === "extras" ? mark(v) : v), space);
}

Deno.test("writtenText: wide integers inside extras written with a fraction, 200 generated files", () => {
  let widened = 0, files = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const json = file(seed);
    const text = writtenText(json);
    const want = expected(json);
    if (text !== want) throw new Error(`seed ${seed}: ${text.slice(0, 300)}\n!== ${want.slice(0, 300)}`);
    if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(json)) {
      throw new Error(`seed ${seed}: not the same value`);
    }
    if (text !== JSON.stringify(json)) widened++;
    files++;
  }
  // Both kinds occur: files with a wide integer in extras, and files without one (text as JSON.stringify).
  if (widened === 0 || widened === files) throw new Error(`${widened} of ${files} files widened`);
});

Deno.test("writtenText: files whose only wide integers are in extras, compact and indented, 200 generated files", () => {
  // No wide number outside extras: whether the text holds any wide integer at all decides alone
  // whether the file is walked, so a wide integer it missed would be written without its fraction.
  let widened = 0, files = 0;
  for (let seed = 201; seed <= 400; seed++) {
    const json = file(seed, false);
    const space = seed % 2 ? 2 : undefined;
    const text = writtenText(json, space);
    const want = expected(json, space);
    if (text !== want) throw new Error(`seed ${seed}: ${text.slice(0, 300)}\n!== ${want.slice(0, 300)}`);
    if (text !== JSON.stringify(json, null, space)) widened++;
    files++;
  }
  if (widened === 0 || widened === files) throw new Error(`${widened} of ${files} files widened`);
});
