/**
 * `.car` clips whose names fill all 32 bytes with no NUL (`long_clip_names.ts`: strncpy-cut names and
 * paths, space-padded fixed strings). The count repairs take a header holding a name as a real clip's;
 * such a name was "no name", so with a damaged count and bytes appended, or a tail of zeros, the
 * repairs refused readings whose clips have one, or found none: refused or misread. A full name is now
 * a name when it is all printable ASCII with a letter — never from frame data (its coordinates would
 * all lie 514–2,023 units out with printable low bytes) — and a text trailer after the file is still
 * appended bytes, not a clip cut short.
 */
import assert from "node:assert/strict";
import { parseCar } from "./parse.ts";
import { type ToolSave, toolSaveFile } from "./tool_saves.ts";
import { ZERO_TAILS, zeroTailOutcome } from "./zero_tails.ts";
import { parseCar as parseCarBare } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import { holdsName } from "../../../../nodes/decode/carnivores/codec/frame_likeness.ts";
import { longClipName } from "./long_clip_names.ts";
import { prng } from "../../../support/prng.ts";

const DAMAGED_AND_APPENDED: readonly (readonly ToolSave[])[] = [
  ["junk_bytes", "count_edited"],
  ["junk_bytes", "frame_count_off"],
  ["padded_block", "junk_bytes", "frame_count_off"],
];

/** Parses `file` and says what is wrong with the reading, or nothing. */
function misread(file: ReturnType<typeof toolSaveFile>): string | undefined {
  try {
    const { model, warnings } = parseCar(file.bytes, file.name);
    const read = model.animations.map((a) => a.frameCount);
    if (read.join() !== file.frames.join() || model.sounds.length !== file.sounds) {
      return `read [${read}] and ${model.sounds.length} sounds, file has [${file.frames}] and ${file.sounds}`;
    }
    if (!warnings.some((w) => /count|frame/.test(w.message))) return "the repair is not named";
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

Deno.test("32-character clip names: a damaged count with bytes appended is read at every clip's frames", () => {
  const failures: string[] = [];
  for (let seed = 7001; seed <= 7040; seed++) {
    for (const habits of DAMAGED_AND_APPENDED) {
      const problem = misread(toolSaveFile(seed, habits, true));
      if (problem) failures.push(`${seed} ${habits.join("+")}: ${problem}`);
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("32-character clip names: files with a tail of zeros read as they do with short names", () => {
  const failures: string[] = [];
  for (let seed = 7001; seed <= 7040; seed++) {
    for (const habit of ZERO_TAILS) {
      // The clips read (the detail's warnings quote the names, which differ).
      const reading = (long: boolean) => {
        const { outcome, detail } = zeroTailOutcome(seed, parseCarBare, habit, long);
        return `${outcome} ${detail.split(" | ")[0]}`;
      };
      const [short, long] = [reading(false), reading(true)];
      if (long !== short) failures.push(`${seed} ${habit}: ${long}; with short names ${short}`);
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("32-character clip names are names; frame coordinates 514-2,023 units out and texel ramps are not", () => {
  const random = prng(4242);
  const field = new Uint8Array(32);
  for (let i = 0; i < 200; i++) {
    const name = longClipName(random);
    for (let c = 0; c < 32; c++) field[c] = name.charCodeAt(c);
    assert.ok(holdsName(new DataView(field.buffer), 0), `'${name}' is a name`);
  }
  // The one range of int16 ×16 coordinates whose both bytes can be printable ASCII, every value in
  // it: 16 in a row must also draw printable low bytes, so no window of frames reads as a full name.
  const values = Int16Array.from({ length: 200_000 }, () => Math.round((514 + random() * 1509) * 16));
  assert.equal(fullNames(new DataView(values.buffer)), 0, "frames");
  // Texels are 16-bit words too: flat colours and gradients (X1R5G5B5, red ≥ 8 puts the high byte in
  // printable ASCII), 256 a row, each row a colour ramp along one channel from a random start.
  const texels = new Uint16Array(256 * 64);
  for (let row = 0; row < 64; row++) {
    const [r, g, b, step] = [8 + (row % 24), (row * 7) % 32, (row * 13) % 32, row % 4];
    for (let x = 0; x < 256; x++) {
      const ramp = Math.floor(x * step / 16);
      const c = [r, g, b].map((v, k) => k === row % 3 ? Math.min(31, v + ramp) : v);
      texels[row * 256 + x] = (c[0] << 10) | (c[1] << 5) | c[2];
    }
  }
  assert.equal(fullNames(new DataView(texels.buffer)), 0, "texels");
});

/** How many 32-byte windows of `view` with no NUL are taken as names. */
function fullNames(view: DataView): number {
  let full = 0;
  for (let at = 0; at + 32 <= view.byteLength; at++) {
    let nul = false;
    for (let c = 0; c < 32 && !nul; c++) nul = view.getUint8(at + c) === 0;
    if (!nul && holdsName(view, at)) full++;
  }
  return full;
}

Deno.test("32-character clip names: a text trailer over 32 characters after the file is still appended bytes", () => {
  const trailer = "Saved by CarEdit 2.1 - (c) 2003 raptorfan - www.example.com/carnivores\r\n";
  const failures: string[] = [];
  for (let seed = 7001; seed <= 7030; seed++) {
    const file = toolSaveFile(seed, ["frame_count_off"], true);
    const bytes = new Uint8Array(file.bytes.length + trailer.length);
    bytes.set(file.bytes);
    for (let i = 0; i < trailer.length; i++) bytes[file.bytes.length + i] = trailer.charCodeAt(i);
    const problem = misread({ ...file, bytes });
    if (problem) failures.push(`${seed}: ${problem}`);
  }
  assert.deepEqual(failures, []);
});
