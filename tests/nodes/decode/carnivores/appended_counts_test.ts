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
import { type ToolSave, toolSaveFile } from "./tool_saves.ts";
import { sniffCar } from "../../../../nodes/decode/carnivores/codec/sniff.ts";
import {
  FACE_BYTES,
  HEADER_CAR_BYTES,
  POINT_BYTES,
} from "../../../../nodes/decode/carnivores/codec/model.ts";
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
      try {
        const { model, warnings } = parseCar(file.bytes, file.name);
        const read = model.animations.map((a) => a.frameCount);
        if (read.join() !== file.frames.join() || model.sounds.length !== file.sounds) {
          failures.push(
            `${label}: read [${read}] and ${model.sounds.length} sounds, file has [${file.frames}] and ${file.sounds}`,
          );
        } else if (!warnings.some((w) => /count|frame/.test(w.message))) {
          failures.push(`${label}: the repair is not named`);
        }
      } catch (error) {
        failures.push(`${label}: refused: ${(error as Error).message}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("appended bytes: a .car cut short still keeps the clips whole before the cut, blamed on the cut", () => {
  for (let seed = 1; seed <= 60; seed++) {
    const file = toolSaveFile(seed, []);
    const view = new DataView(file.bytes.buffer);
    const [vertices, faces, texture] = [40, 44, 48].map((at) => view.getInt32(at, true));
    const clipsAt = HEADER_CAR_BYTES + faces * FACE_BYTES + vertices * POINT_BYTES + texture;
    const cut = clipsAt + Math.floor(prng(seed)() * (file.bytes.length - clipsAt));
    const { model, warnings } = parseCar(file.bytes.slice(0, cut), file.name);
    // Whole clips before the cut, at their own frame counts.
    let at = clipsAt, whole = 0;
    for (const frames of file.frames) {
      at += 40 + frames * vertices * 6;
      if (at > cut) break;
      whole++;
    }
    const read = model.animations.map((a) => a.frameCount);
    assert.deepEqual(read, file.frames.slice(0, whole), `seed ${seed} cut at ${cut}`);
    assert.ok(
      !warnings.some((w) => /appended to the file/.test(w.message)),
      `seed ${seed}: blamed on appended bytes`,
    );
  }
});
