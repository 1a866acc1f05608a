/**
 * `.car` files with a damaged count and bytes appended after them (`tool_saves.ts` with the habits
 * forced: a clip or sound count edited, or one clip's frame count off, with 1–40 random bytes after
 * the file, padding to a block before them, or a DOS end-of-file byte). Neither the stored counts nor
 * any repair ended the sections at the end of the file, so the repairs found nothing: the file was
 * refused at a negative count read from frame data, or its clips were blamed on a cut. Now the last
 * pass takes the sections as ending before appended bytes when the file vouches for it (one reading,
 * frames tracking the points, a tail that starts no section), named in a warning; files cut short
 * still read as cut (the guard below).
 */
import assert from "node:assert/strict";
import { parseCar } from "./parse.ts";
import { carReadOutcome } from "./car_reads.ts";
import { parseCar as parseCarTo } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import { type ToolSave, toolSaveFile } from "./tool_saves.ts";
import { sniffCar } from "../../../../nodes/decode/carnivores/codec/sniff.ts";
import { carClipsAt, clipHeaders, draws } from "./car_layout.ts";
import { prng } from "../../../support/prng.ts";

const DAMAGED_AND_APPENDED: readonly (readonly ToolSave[])[] = [
  ["junk_bytes", "count_edited"],
  ["junk_bytes", "frame_count_off"],
  ["padded_block", "junk_bytes", "frame_count_off"],
];

Deno.test("appended bytes with a damaged count: every clip read at its frames, the assumption named", () => {
  const failures: string[] = [];
  for (let seed = 3001; seed <= 3030; seed++) {
    for (const habits of DAMAGED_AND_APPENDED) {
      const file = toolSaveFile(seed, habits);
      const label = `${seed} ${habits.join("+")}`;
      if (!sniffCar(file.bytes)) {
        failures.push(`${label}: not sniffed as .car`);
        continue;
      }
      const { outcome, detail, warnings } = carReadOutcome(parseCarTo, file.bytes, file.name, file);
      if (outcome !== "right") failures.push(`${label}: ${outcome} ${detail}`);
      else if (!warnings.some((w) => /count|frame/.test(w))) {
        failures.push(`${label}: the repair is not named`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("appended bytes: a .car cut short still keeps the clips whole before the cut, blamed on the cut", () => {
  for (let seed = 1; seed <= 60; seed++) {
    const file = toolSaveFile(seed, []);
    const clipsAt = carClipsAt(file.bytes);
    const cut = clipsAt + Math.floor(prng(seed)() * (file.bytes.length - clipsAt));
    const { model, warnings } = parseCar(file.bytes.slice(0, cut), file.name);
    // Whole clips before the cut, at their own frame counts.
    const ends = clipHeaders(clipsAt, file.points, file.frames).slice(1);
    const whole = ends.filter((end) => end <= cut).length;
    const read = model.animations.map((a) => a.frameCount);
    assert.deepEqual(read, file.frames.slice(0, whole), `seed ${seed} cut at ${cut}`);
    assert.ok(
      !warnings.some((w) => /appended to the file/.test(w.message)),
      `seed ${seed}: blamed on appended bytes`,
    );
  }
});

/** `bytes` with `tail` after them (bytes something appended to the file). */
function appendedTo(bytes: Uint8Array, tail: readonly number[]): Uint8Array {
  const out = new Uint8Array(bytes.length + tail.length);
  out.set(bytes);
  out.set(tail, bytes.length);
  return out;
}

Deno.test("appended bytes past ASCII with a zero among them are no clip name cut short", () => {
  // Random bytes appended are mostly past ASCII, and a zero among the first few ended them as "a name
  // cut short": the tail was taken for a section the file was cut inside, and the damaged count read
  // as a cut (clips lost) or refused. A name's bytes are printable ASCII and Windows-1251 letters, as
  // holdsName reads them; 0x80-0xA7 are neither.
  const failures: string[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const habit: ToolSave = seed % 2 ? "count_edited" : "frame_count_off";
    const file = toolSaveFile(seed, [habit]);
    const { int } = draws(prng(seed * 31 + 9));
    const tail = Array.from({ length: int(4, 30) }, () => int(0x80, 0xff));
    tail[0] = int(0x80, 0xa7);
    tail[int(2, tail.length - 1)] = 0;
    const bytes = appendedTo(file.bytes, tail);
    const { outcome, detail } = carReadOutcome(parseCarTo, bytes, file.name, file);
    if (outcome !== "right") failures.push(`${seed} ${habit}: ${outcome} ${detail}`);
  }
  assert.deepEqual(failures, []);
});

Deno.test("a clip count raised over 40 appended bytes: they are no clip header of 0 frames", () => {
  // 40 bytes appended are a clip header's size: a count raised by one put a header there, and a frame
  // count far off read as 0 ended the file, a clip of junk read with no frames. Its name field holds no
  // name where the first clip's does: it is no clip a tool wrote.
  const failures: string[] = [];
  let tried = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const file = toolSaveFile(seed, ["count_edited"]);
    const declared = new DataView(file.bytes.buffer).getInt32(32, true);
    // The last clip ends the file (no sound, no anim→sound table): the raised count's header is the tail.
    const end = clipHeaders(carClipsAt(file.bytes), file.points, file.frames).at(-1);
    if (declared !== file.clips + 1 || end !== file.bytes.length) continue;
    const { int } = draws(prng(seed * 37 + 5));
    const bytes = appendedTo(file.bytes, Array.from({ length: 40 }, () => int(0, 255)));
    tried++;
    const { outcome, detail } = carReadOutcome(parseCarTo, bytes, file.name, file);
    if (outcome !== "right") failures.push(`${seed}: ${outcome} ${detail}`);
  }
  assert.ok(tried >= 10, `${tried} files with the clip count raised`);
  assert.deepEqual(failures, []);
});
