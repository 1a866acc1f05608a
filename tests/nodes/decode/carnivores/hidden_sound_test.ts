/**
 * A `.car` whose sound count was lowered by hand (a sound "cut" without its bytes) and whose last clip's
 * frame count was raised by as many frames as that sound fills: the stored counts end the sections at
 * the end of the file, so no count repair ran and the clip was read with the sound as its last frames,
 * with no warning (`tool_saves.ts` seed 9278 with `count_edited` and `frame_count_off`: 9 frames and 2
 * sounds read as 10 and 1). The files here are made so on purpose: sounds sized to whole frames (a tool
 * that pads a sample to its block, or chance), clips as the generators make them.
 */
import assert from "node:assert/strict";
import { parseCar } from "./parse.ts";
import { toolSaveFile } from "./tool_saves.ts";
import { hiddenSoundFile } from "./hidden_sounds.ts";

Deno.test("a sound the last clip's raised frame count took in is read as a sound, warned naming the clip", () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const file = hiddenSoundFile(seed, true);
    const { model, warnings } = parseCar(file.bytes, file.name);
    const read = model.animations.map((a) => a.frameCount);
    const last = model.animations.length - 1;
    if (read.join() !== file.frames.join() || model.sounds.length !== file.sounds) {
      failures.push(
        `${seed}: read [${read}] and ${model.sounds.length} sounds, file has [${file.frames}] ${file.sounds}`,
      );
    } else if (
      !warnings.some((w) =>
        w.message.startsWith(`animation ${last} (`) && /sound header/.test(w.message) &&
        w.message.includes(`Read as ${file.frames[last]} frames and ${file.sounds} sound(s)`)
      )
    ) {
      failures.push(`${seed}: not named`);
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("the tool_saves file that read a sound as a frame silently (seed 9278) reads right", () => {
  for (const longNames of [false, true]) {
    const file = toolSaveFile(9278, ["count_edited", "frame_count_off"], longNames);
    const { model, warnings } = parseCar(file.bytes, file.name);
    assert.deepEqual(model.animations.map((a) => a.frameCount), [...file.frames]);
    assert.equal(model.sounds.length, file.sounds);
    assert.ok(warnings.some((w) => /animation 0 .*sound header/.test(w.message)));
  }
});

Deno.test("an undamaged file whose first sound fills whole frames reads as stored, with no such warning", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const file = hiddenSoundFile(seed, false);
    const { model, warnings } = parseCar(file.bytes, file.name);
    assert.deepEqual(model.animations.map((a) => a.frameCount), file.frames, `${seed}`);
    assert.equal(model.sounds.length, file.sounds, `${seed}`);
    assert.ok(!warnings.some((w) => /sound header/.test(w.message)), `${seed}`);
  }
});

Deno.test("a sound the last clip's count took in is read as a sound after another clip's count is corrected", () => {
  const failures: string[] = [];
  let corrected = 0;
  for (let seed = 41; seed <= 100; seed++) {
    const file = hiddenSoundFile(seed, true, true);
    if (file.frames.length < 2) continue;
    corrected++;
    const { model, warnings } = parseCar(file.bytes, file.name);
    const read = model.animations.map((a) => a.frameCount);
    if (read.join() !== file.frames.join() || model.sounds.length !== file.sounds) {
      failures.push(
        `${seed}: read [${read}] and ${model.sounds.length} sounds, file has [${file.frames}] ${file.sounds}`,
      );
    } else if (
      !warnings.some((w) => /sound header/.test(w.message)) ||
      !warnings.some((w) => /^animation 0 stores/.test(w.message))
    ) {
      failures.push(`${seed}: not named`);
    }
  }
  assert.ok(corrected > 20);
  assert.deepEqual(failures, []);
});

Deno.test("a sound and the anim→sound table after it, both taken in by the last clip's raised count, are read as such", () => {
  // The sound count lowered by hand and the last clip's count raised over the sound and the table (as
  // 2 of 4,000 two-count files of tool_saves.ts had it, seed 20854 after a frame-count correction):
  // read with the stored counts the clip ends on the sound's and table's bytes, silently or warned as
  // a second frame count off; now the sound is read, and the table after it.
  const failures: string[] = [];
  for (let seed = 101; seed <= 130; seed++) {
    for (const firstOff of [false, true]) {
      const file = hiddenSoundFile(seed, true, firstOff, true);
      const { model, warnings } = parseCar(file.bytes, file.name);
      const read = model.animations.map((a) => a.frameCount);
      const label = `${seed}${firstOff ? " first clip off" : ""}`;
      if (read.join() !== file.frames.join() || model.sounds.length !== file.sounds) {
        failures.push(
          `${label}: read [${read}] and ${model.sounds.length} sounds, file has [${file.frames}] 1`,
        );
      } else if (!warnings.some((w) => /sound header .* and the anim→sound table after it/.test(w.message))) {
        failures.push(`${label}: not named`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("an undamaged file whose first sound and table fill whole frames reads as stored, with no such warning", () => {
  for (let seed = 101; seed <= 130; seed++) {
    const file = hiddenSoundFile(seed, false, false, true);
    const { model, warnings } = parseCar(file.bytes, file.name);
    assert.deepEqual(model.animations.map((a) => a.frameCount), file.frames, `${seed}`);
    assert.equal(model.sounds.length, file.sounds, `${seed}`);
    assert.ok(!warnings.some((w) => /sound header/.test(w.message)), `${seed}`);
  }
});
