/**
 * Whether a 32-byte field holds a clip name (`holdsName`) is the count repairs' evidence that a reading
 * puts a clip header where one is. Frame data are int16 coordinates ×16: a small positive one is a
 * printable byte and a NUL, a small negative one a byte 0xC0–0xFF and 0xFF (two Windows-1251 letters).
 * Taken as names, 22 % of frame windows of generated models were "headers" (up to 45 % of a small
 * model's). These tests count such reads over generated files, and check that real-looking names —
 * VTL names, tools' 32-character names, Cyrillic names, stale text after the NUL — are all still names.
 */
import assert from "node:assert/strict";
import { holdsName } from "../../../../nodes/decode/carnivores/codec/frame_likeness.ts";
import { prng } from "../../../support/prng.ts";
import { toolSaveFile } from "./tool_saves.ts";
import { zeroTailFile } from "./zero_tails.ts";
import { longClipName } from "./long_clip_names.ts";

/** Each clip's frame data (from, to) in the `.car` `bytes`, walking its stored counts. */
function frameSpans(bytes: Uint8Array): [number, number][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [clips, , vertices, faces, texture] = [32, 36, 40, 44, 48].map((at) => view.getInt32(at, true));
  let at = 52 + faces * 64 + vertices * 16 + texture;
  const spans: [number, number][] = [];
  for (let clip = 0; clip < clips && at + 40 <= bytes.length; clip++) {
    const frames = view.getInt32(at + 36, true);
    if (frames < 0 || frames > 10_000) break;
    spans.push([at + 40, Math.min(bytes.length, at + 40 + frames * vertices * 6)]);
    at += 40 + frames * vertices * 6;
  }
  return spans;
}

Deno.test("clip names: frame windows of generated models are not read as names", () => {
  let [windows, names, worst] = [0, 0, 0];
  for (let seed = 1; seed <= 60; seed++) {
    for (const bytes of [toolSaveFile(seed, []).bytes, zeroTailFile(seed).bytes]) {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let [own, read] = [0, 0];
      // Windows reaching past a clip's frames into the next header's name are left out: that is a name.
      for (const [from, to] of frameSpans(bytes)) {
        for (let at = from; at + 32 <= to - 32; at++, own++) if (holdsName(view, at)) read++;
      }
      [windows, names] = [windows + own, names + read];
      if (own) worst = Math.max(worst, read / own);
    }
  }
  assert.ok(windows > 100_000, `${windows} windows`);
  assert.ok(names <= windows / 10_000, `${names} of ${windows} frame windows read as names`);
  assert.ok(worst <= 0.005, `a model's frame windows read as names: ${(worst * 100).toFixed(1)} %`);
});

Deno.test("clip names: random bytes are seldom names", () => {
  const random = prng(9191);
  const bytes = Uint8Array.from({ length: 100_032 }, () => Math.floor(random() * 256));
  const view = new DataView(bytes.buffer);
  let names = 0;
  for (let at = 0; at < 100_000; at++) if (holdsName(view, at)) names++;
  assert.ok(names <= 200, `${names} of 100,000 random windows read as names`);
});

Deno.test("clip names: real-looking names are names, with zeros or a reused buffer's text after them", () => {
  const random = prng(5150);
  const stems = [
    "walk",
    "run",
    "idle",
    "eat",
    "die",
    "swim",
    "slide",
    "jump",
    "Fall",
    "Walk",
    "roar",
    "look",
  ];
  const names = stems.flatMap((s) => ["", "1", "2", "_2", "-1", ".vtl", " 2", "01"].map((x) => s + x));
  for (let c = 0; c < 64; c++) names.push(`clip${c}`, `c${c}`, `a${c}`);
  for (let i = 0; i < 300; i++) {
    const long = longClipName(random);
    names.push(long, long.trimEnd(), long.slice(0, 2 + Math.floor(random() * 29)));
  }
  const latin = names.map((n) => Array.from(n, (c) => c.charCodeAt(0)));
  // Windows-1251: "Бег", "Стоит", "Шаг", "Бег_2".
  const cyrillic = [[0xc1, 0xe5, 0xe3], [0xd1, 0xf2, 0xee, 0xe8, 0xf2], [0xd8, 0xe0, 0xe3], [
    0xc1,
    0xe5,
    0xe3,
    0x5f,
    0x32,
  ]];
  const field = new Uint8Array(32);
  const rejected: string[] = [];
  for (const name of [...latin, ...cyrillic]) {
    for (const stale of [false, true]) {
      field.fill(0);
      // A tool copying names into one uncleared buffer leaves an older, longer name's tail after the NUL.
      if (stale) { for (let i = 0; i < 32; i++) field[i] = longClipName(random).charCodeAt(i); }
      field.set(name);
      if (name.length < 32) field[name.length] = 0;
      if (!holdsName(new DataView(field.buffer), 0)) rejected.push(`${stale ? "stale " : ""}[${name}]`);
    }
  }
  assert.deepEqual(rejected, []);
});
