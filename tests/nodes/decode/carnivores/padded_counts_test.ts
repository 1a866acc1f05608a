/**
 * `.car` files a tool padded to a block with one clip's frame count off by one (`padded_counts.ts`): before,
 * a count one short over a frame smaller than the anim→sound table read that frame and the padding as a
 * "table"; a count one long in a file with no sounds and no table read the padding's zeros as a last frame;
 * a count one long over the sounds read sound headers from the padding; a last frame ending in a zero byte
 * could not end the padded file; and zeros after the sounds were read as a table of zeros, which with
 * sounds makes every clip play sound 0. The sweep counts each kind of file apart.
 */
import assert from "node:assert/strict";
import { paddedCountFile, paddedCountOutcome } from "./padded_counts.ts";
import { parseCar as parseCarTo } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import { parseCar } from "./parse.ts";
import { carClipsAt } from "./car_layout.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { animation, gridCar } from "./fixtures.ts";

/** The files of seeds `from`… whose habits `keep` takes, `wanted` of them. */
function files(keep: (file: ReturnType<typeof paddedCountFile>) => boolean, wanted: number, from = 1) {
  const found = [];
  for (let seed = from; found.length < wanted && seed < from + 5000; seed++) {
    const file = paddedCountFile(seed);
    if (keep(file)) found.push({ seed, file });
  }
  assert.equal(found.length, wanted, `only ${found.length} such files from seed ${from}`);
  return found;
}

Deno.test("padded counts: 120 padded files with a count off by one read every clip at its frames, never silently", () => {
  const tally: Record<string, number> = { right: 0, refused: 0, wrong_warned: 0, wrong_silent: 0 };
  const wrong: string[] = [];
  for (let seed = 1; seed <= 120; seed++) {
    const read = paddedCountOutcome(parseCarTo, paddedCountFile(seed));
    tally[read.outcome]++;
    if (read.outcome !== "right") wrong.push(`${seed}: ${read.outcome} ${read.detail}`);
  }
  assert.deepEqual(wrong, [], JSON.stringify(tally));
});

Deno.test("padded counts: a last clip stored one short, no table, its last frame read where the table goes", () => {
  // Frames under 256 bytes: the stored sections plus a 256-byte "table" end inside the padding.
  const cases = files(
    (f) => f.table === "none" && f.change < 0 && f.clip === f.frames.length - 1 && f.sounds === 0,
    8,
  );
  for (const { seed, file } of cases) {
    const { model, warnings } = parseCar(file.bytes, file.name);
    assert.deepEqual(model.animations.map((a) => a.frameCount), file.frames, `seed ${seed}`);
    assert.ok(
      warnings.some((w) => /stores \d+ frame\(s\) at byte \d+, but the sections/.test(w.message)),
      `seed ${seed}: ${warnings.map((w) => w.message).join("\n")}`,
    );
    assert.ok(
      !warnings.some((w) => /where the anim→sound table goes, name no sound/.test(w.message)),
      `seed ${seed}`,
    );
  }
});

Deno.test("padded counts: a last frame of the padding's zeros is read as padding, naming both readings", () => {
  const cases = files(
    (f) =>
      (f.table === "none" || f.table === "zeros") && f.change > 0 && f.clip === f.frames.length - 1 &&
      f.sounds === 0,
    8,
  );
  for (const { seed, file } of cases) {
    const { model, warnings } = parseCar(file.bytes, file.name);
    assert.deepEqual(model.animations.map((a) => a.frameCount), file.frames, `seed ${seed}`);
    const last = file.frames.length - 1, frames = file.frames[last];
    const named = warnings.find((w) => w.message.includes(`animation ${last} stores ${frames + 1} frame(s)`));
    assert.ok(named, `seed ${seed}: ${warnings.map((w) => w.message).join("\n")}`);
    // Read as the padding (the stored sections end in it), or by the frame-count search when a frame of
    // zeros runs past the file's end: both name the stored count and the frames read.
    assert.match(
      named.message,
      new RegExp(
        `read as ${frames} frames and the padding, or as ${frames + 1} frames|with ${frames} frames`,
      ),
    );
  }
});

Deno.test("padded counts: sound headers a count one long puts in the padding are no sounds", () => {
  const cases = files(
    (f) => f.change > 0 && f.clip === f.frames.length - 1 && f.sounds > 0,
    10,
  );
  for (const { seed, file } of cases) {
    const { model } = parseCar(file.bytes, file.name);
    assert.deepEqual(model.animations.map((a) => a.frameCount), file.frames, `seed ${seed}`);
    assert.equal(model.sounds.length, file.sounds, `seed ${seed}`);
  }
});

Deno.test("padded counts: zeros after the sounds are padding, or a table of zeros: both readings named", () => {
  // With sounds, a table of zeros plays sound 0 for every clip; the padding, none: a block of zeros does
  // not tell which. With no sounds, both leave every clip silent: no table, one warning.
  // Zeros past the table's 256 bytes that fit in the block the file fills (else padding alone cannot be).
  const zeros = (f: ReturnType<typeof paddedCountFile>) => f.padding + (f.table === "zeros" ? 256 : 0);
  const fits = (f: ReturnType<typeof paddedCountFile>) => zeros(f) > 256 && zeros(f) <= f.block;
  const withSounds = files((f) => f.table === "none" && f.change < 0 && f.sounds > 0 && fits(f), 4);
  const zeroTables = files((f) => f.table === "zeros" && f.change < 0 && f.sounds > 0 && fits(f), 4);
  for (const { seed, file } of [...withSounds, ...zeroTables]) {
    const { model, warnings } = parseCar(file.bytes, file.name);
    assert.equal(model.animSounds, undefined, `seed ${seed}`);
    const both = warnings.find((w) =>
      /padding a tool added where it wrote no anim→sound table/.test(w.message)
    );
    assert.ok(both, `seed ${seed}: ${warnings.map((w) => w.message).join("\n")}`);
    assert.match(both.message, /or a table of zeros and padding after it \(every clip plays sound 0/);
  }
  for (const { seed, file } of files((f) => f.table === "none" && f.sounds === 0 && f.padding > 256, 4)) {
    const { model, warnings } = parseCar(file.bytes, file.name);
    assert.equal(model.animSounds, undefined, `seed ${seed}`);
    const tableWarnings = warnings.filter((w) =>
      /no table|table goes|after the anim→sound table/.test(w.message)
    );
    assert.equal(tableWarnings.length, 1, `seed ${seed}: ${tableWarnings.map((w) => w.message).join("\n")}`);
    assert.match(tableWarnings[0].message, /every clip is silent either way; no table is read/);
  }
  // Exactly 256 zero bytes after the sounds and nothing after them: no padding can be told there (a tool
  // that zero-fills the table), read as the table of zeros as before.
  for (const { seed, file } of files((f) => f.table === "zeros" && f.sounds > 0, 4)) {
    const view = new DataView(file.bytes.buffer);
    let at = carClipsAt(file.bytes);
    for (const frames of file.frames) at += 40 + frames * view.getInt32(40, true) * 6;
    for (let s = 0; s < file.sounds; s++) at += 36 + view.getInt32(at + 32, true);
    const bytes = file.bytes.slice(0, at + 256);
    const { model } = parseCar(bytes, file.name);
    assert.deepEqual(Array.from(model.animSounds ?? []), new Array(64).fill(0), `seed ${seed}`);
  }
});

Deno.test("padded counts: a count one long over a sound's header, the sound read from its own bytes, is read one lower", () => {
  // The last clip's extra frame takes in the first sound's header; the sound then read a frame on takes
  // its name from PCM and its length from the recording's silent end (0), ending where the table does
  // (seed 97054 of padded_counts.ts). Read one frame shorter, the sound's header holds its name.
  for (const [columns, rows, frames] of [[4, 6, 2], [6, 6, 3], [8, 5, 5], [12, 3, 4]]) {
    const grid = gridCar(columns, rows, 0);
    const frameBytes = grid.points.count * 6;
    const pcm = Uint8Array.from({ length: frameBytes }, (_, i) => 0x80 + ((i * 37) % 120));
    pcm.fill(0, frameBytes - 6);
    const bytes = encodeCar({
      ...grid,
      name: "Raptor",
      msc: "",
      animations: [animation("bite", 15, frames, grid.points, 0)],
      sounds: [{ name: "growl", pcm }],
      animSounds: Int32Array.from({ length: 64 }, (_, i) => (i === 0 ? 0 : -1)),
    });
    const countAt = carClipsAt(bytes) + 36;
    new DataView(bytes.buffer).setInt32(countAt, frames + 1, true);
    const label = `${columns}×${rows}, ${frames} frames`;
    const { model, warnings } = parseCar(bytes);
    assert.deepEqual(model.animations.map((a) => a.frameCount), [frames], label);
    assert.deepEqual(model.sounds.map((s) => [s.name, s.pcm.length]), [["growl", frameBytes]], label);
    const both = warnings.find((w) => w.offset === countAt);
    assert.ok(both, `${label}: ${warnings.map((w) => w.message).join("\n")}`);
    assert.match(
      both.message,
      new RegExp(`stores ${frames + 1} frame.*Read as ${frames} frames, sound 0 is the named`),
    );
  }
});

Deno.test("padded counts: exactly 256 zero bytes ending a file of whole blocks are read as the table, naming padding too", () => {
  // A tool that padded a file with sounds and no table to a block may leave exactly the table's 256 bytes;
  // a tool that zero-fills the table writes the same bytes. Read as the table (as before), both named.
  for (const block of [512, 2048, 4096]) {
    const grid = gridCar(5, 5, 0);
    const encode = (length: number) =>
      encodeCar({
        ...grid,
        name: "Raptor",
        msc: "",
        animations: [animation("walk", 12, 3, grid.points, 0)],
        sounds: [{ name: "step", pcm: Uint8Array.from({ length }, (_, i) => 1 + (i % 200)) }],
      });
    const size = encode(100).length;
    const bytes = encode(100 + (block - 256 - size % block + 2 * block) % block);
    const file = new Uint8Array(bytes.length + 256);
    file.set(bytes);
    assert.equal(file.length % block, 0);
    const { model, warnings } = parseCar(file);
    assert.deepEqual(Array.from(model.animSounds ?? []), new Array(64).fill(0), `${block}`);
    const both = warnings.find((w) => w.offset === bytes.length);
    assert.ok(both, `${block}: ${warnings.map((w) => w.message).join("\n")}`);
    assert.match(
      both.message,
      /an anim→sound table of zeros .* or padding a tool added where it wrote no table/,
    );
  }
});
