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
import { carClipsAt, clipHeaders } from "./car_layout.ts";
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
