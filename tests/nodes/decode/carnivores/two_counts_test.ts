/**
 * `.car` files with two damaged counts and nothing appended (`tool_saves.ts` with `count_edited` and
 * `frame_count_off` forced: a clip count raised or a sound count lowered by hand, and clip 0's frame
 * count one off). No single repair ends the sections at the end of the file, so the file was refused
 * at a negative count read from frame data, or its clips blamed on a cut. Now the frame-count search
 * runs for the count pairs one edit away and one reading the file vouches for is read, named; a
 * reading a file cut short at a frame boundary also gives is left to the cut (guard below).
 */
import assert from "node:assert/strict";
import { parseCar } from "./parse.ts";
import { toolSaveFile } from "./tool_saves.ts";
import { carReadOutcome } from "./car_reads.ts";
import { parseCar as parseCarTo } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import { carClipsAt, clipHeaders, draws, frameCountAt } from "./car_layout.ts";
import { animation, gridCar } from "./fixtures.ts";
import { longClipName } from "./long_clip_names.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { prng } from "../../../support/prng.ts";

Deno.test("two damaged counts: read at every clip's frames and sounds, both assumptions named", () => {
  const failures: string[] = [];
  for (let seed = 8001; seed <= 8060; seed++) {
    for (const longNames of [false, true]) {
      const file = toolSaveFile(seed, ["count_edited", "frame_count_off"], longNames);
      const label = `${seed}${longNames ? " long names" : ""}`;
      const { outcome, detail, warnings } = carReadOutcome(parseCarTo, file.bytes, file.name, file);
      if (outcome === "right") {
        if (!warnings.some((m) => /two damaged counts/.test(m))) failures.push(`${label}: not named`);
      } else if (outcome === "refused" || !warnings.some((m) => /cut short/.test(m))) {
        // Only a reading a file cut at a frame boundary gives as well may be left to the cut.
        failures.push(`${label}: ${outcome} ${detail}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("two damaged counts: a file cut at a frame boundary near a clip's end still reads as cut", () => {
  for (let seed = 301; seed <= 330; seed++) {
    const file = toolSaveFile(seed, []);
    const headers = clipHeaders(carClipsAt(file.bytes), file.points, file.frames);
    for (const [clip, frames] of file.frames.entries()) {
      for (const short of [1, 2].filter((k) => k <= frames)) {
        const { warnings } = parseCar(
          file.bytes.slice(0, headers[clip + 1] - short * file.points * 6),
          file.name,
        );
        // Not the cut clip read short as two damaged counts (the single repairs read such files as they
        // did: cut, or the last clip's count corrected).
        assert.ok(!warnings.some((w) => /two damaged counts/.test(w.message)), `${seed} ${clip} -${short}`);
      }
    }
  }
});

Deno.test("two damaged counts read as a cut at a frame boundary: the clip kept with its frames, both readings named", () => {
  // A single clip stored one frame more with the clip count raised reads as a file cut in that clip, on
  // a frame boundary. Cut or counts edited, the frames there are the clip's: it is kept with them (it
  // was dropped as cut, a misread under the edit reading), and the warning says both readings.
  let named = 0;
  const failures: string[] = [];
  for (let seed = 8201; seed <= 8400; seed++) {
    const file = toolSaveFile(seed, ["count_edited", "frame_count_off"]);
    const { model, warnings } = parseCar(file.bytes, file.name);
    const cut = warnings.find((w) => /inside animation 0 /.test(w.message));
    if (!cut) continue;
    const read = model.animations.map((a) => a.frameCount);
    if (read.join() !== file.frames.join()) {
      failures.push(`${seed}: read [${read}], file has [${file.frames}]`);
    }
    const both = new RegExp(
      `exactly after its first ${file.frames[0]} of ${
        file.frames[0] + 1
      } stored frame\\(s\\).*cut short inside ` +
        `the clip.*or animation 0 whole with ${file.frames[0]} frame\\(s\\), its frame count stored 1 more`,
    );
    if (!both.test(cut.message)) failures.push(`${seed}: ${cut.message}`);
    named++;
  }
  assert.deepEqual(failures, []);
  assert.ok(named > 0, "no file of that kind among the seeds");
});

Deno.test("two damaged counts: the anim→sound table's last bytes read as a clip of -1 frames are no clip", () => {
  // One clip of 36 points (a frame is 216 bytes), the clip count raised by 1 and the clip's frame count
  // by 1 (the tool_saves.ts two-count habit; seeds 339, 616 and 1448 of 1,500 drew such files): read at
  // its stored count the clip runs one frame into the table, and the table's last 40 bytes are a header
  // of 0xFF bytes, KPS -1 and -1 frames, which a count corrected to 0 ends at the file's end. That
  // reading took the table for a clip; a header a corrected count reads holds a name when the first does.
  const failures: string[] = [];
  for (let seed = 1; seed <= 24; seed++) {
    const { int, pick } = draws(prng(seed * 131 + 7));
    const [columns, rows] = pick([[6, 6], [4, 9], [9, 4], [3, 12], [12, 3]]);
    const grid = gridCar(columns, rows, 0);
    const frames = int(2, 10);
    const clip = animation(seed % 2 ? "clip0" : longClipName(prng(seed)), int(8, 25), frames, grid.points, 0);
    const bytes = encodeCar({
      ...grid,
      animations: [clip],
      sounds: [],
      animSounds: new Int32Array(64).fill(-1),
    });
    const view = new DataView(bytes.buffer);
    view.setInt32(32, 2, true);
    view.setInt32(frameCountAt(carClipsAt(bytes)), frames + 1, true);
    const { model, warnings } = parseCar(bytes, `table${seed}.car`);
    const read = model.animations.map((a) => a.frameCount);
    if (read.join() !== `${frames}`) failures.push(`${seed}: read [${read}], file has [${frames}]`);
    else if (!warnings.some((w) => /two damaged counts/.test(w.message))) failures.push(`${seed}: not named`);
  }
  assert.deepEqual(failures, []);
});

Deno.test("two damaged counts: a sound a raised clip count and frame count read as a frame keeps the declared sounds", () => {
  // A clip count raised for a clip never added and the last clip's count raised by one, over a sound
  // whose header and bytes fill one frame: 1 clip and 0 sounds end the file at the table, the sound
  // read as the clip's last frame (seed 91437 of tool_saves.ts's count_edited+frame_count_off).
  const random = prng(4242);
  const { int } = draws(random);
  let checked = 0;
  for (let round = 0; round < 40 && checked < 8; round++) {
    const [columns, rows] = [int(3, 12), int(3, 12)];
    const grid = gridCar(columns, rows, 0);
    const frameBytes = grid.points.count * 6;
    if (frameBytes < 36 + 40) continue;
    const frames = int(2, 10);
    const bytes = encodeCar({
      ...grid,
      name: "Raptor",
      msc: "msc: 3",
      animations: [animation("clip0", int(8, 25), frames, grid.points, 0)],
      sounds: [{
        name: "snd0",
        pcm: Uint8Array.from({ length: frameBytes - 36 }, (_, i) => (i * 31) & 0xff),
      }],
      animSounds: Int32Array.from({ length: 64 }, () => -1),
    });
    const view = new DataView(bytes.buffer);
    view.setInt32(32, 2, true);
    const countAt = frameCountAt(carClipsAt(bytes));
    view.setInt32(countAt, frames + 1, true);
    const { model, warnings } = parseCar(bytes);
    const label = `${columns}×${rows} grid, ${frames} frames`;
    assert.deepEqual(model.animations.map((a) => a.frameCount), [frames], label);
    assert.deepEqual(model.sounds.map((s) => [s.name, s.pcm.length]), [["snd0", frameBytes - 36]], label);
    const named = warnings.find((w) => w.offset === 32);
    assert.ok(named, `${label}: ${warnings.map((w) => w.message).join("\n")}`);
    assert.match(named.message, /reading the last sound as animation 0's last frame/, label);
    checked++;
  }
  assert.equal(checked, 8);
});
