/**
 * The DSON text decoder reads with the fast replacing UTF-8 decoder and asks the fatal one only when
 * a U+FFFD appears: the text (and the Windows-1252 fallback's warning) must be exactly what reading
 * with the fatal decoder first gives, for ASCII, any valid UTF-8 (a U+FFFD the file holds included)
 * and bytes that are not UTF-8 (an old converter's 0xC9 for "É").
 */
import assert from "node:assert/strict";
import { parseDsonBytes } from "../../../../nodes/decode/dson/codec/text.ts";
import { prng } from "../../../support/prng.ts";

/** What reading with the fatal decoder first gives (text.ts before the fast path). */
function reference(bytes: Uint8Array): { json: unknown; legacy: boolean } {
  try {
    return { json: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)), legacy: false };
  } catch {
    return { json: JSON.parse(new TextDecoder("windows-1252").decode(bytes)), legacy: true };
  }
}

const POOL = ["a", "Z", " ", "é", "Ü", "漢", "字", "😀", "\uFFFD", "\\\\", "/"];

Deno.test("dson text: the fast UTF-8 read gives what the fatal read gives (seeds 1-300)", async () => {
  let legacy = 0, replacement = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const r = prng(seed);
    const name = Array.from({ length: 1 + Math.floor(r() * 12) }, () => POOL[Math.floor(r() * POOL.length)])
      .join("");
    const head = new TextEncoder().encode(`{"asset_info":{"id":"/data/${name}`);
    const tail = new TextEncoder().encode(`"},"file_version":"0.6.0.0"}`);
    // Now and then a byte no UTF-8 has there: a Windows-1252 "É", or a lone continuation byte.
    const stray = r() < 0.3 ? [[0xc9], [0x80], [0xe9, 0x41]][Math.floor(r() * 3)] : [];
    const bytes = new Uint8Array([...head, ...stray, ...tail]);
    const warnings: string[] = [];
    const got = await parseDsonBytes(bytes, "t.duf", (m) => warnings.push(m));
    const want = reference(bytes);
    assert.deepEqual(got, want.json, `seed ${seed}`);
    assert.equal(warnings.some((w) => w.includes("Windows-1252")), want.legacy, `seed ${seed}: ${warnings}`);
    if (want.legacy) legacy++;
    if (name.includes("\uFFFD") && !want.legacy) replacement++;
  }
  // Both paths met: text that is not UTF-8, and UTF-8 holding a U+FFFD of its own.
  assert.ok(legacy > 20 && replacement > 20, `${legacy} legacy, ${replacement} with U+FFFD`);
});
