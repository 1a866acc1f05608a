/**
 * `.car` frame counts off on several clips (car_frame_counts.ts `fittingFrameCounts`): the fewest corrected
 * clips whose sections end at the file's end are read, each named; two equally small sets of
 * corrections are said to be ambiguous and nothing is read from a guess; the search is bounded.
 * The generator's `frames_off_several` habit (community_tools.ts) measures it on seeded files.
 */
import assert from "node:assert/strict";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { animatedCar, animation, pointTable } from "./fixtures.ts";
import { parseCar } from "./parse.ts";

const bare = () => ({ ...animatedCar(), sounds: [], animSounds: undefined });
const textureEnd = (car: ReturnType<typeof bare>) =>
  52 + 64 * car.faces.count + 16 * car.points.count + car.texture!.words.length * 2;

Deno.test("car frame counts: two clips off (one -1, one +2) are both read with the frames their data hold", () => {
  const car = bare();
  const bytes = encodeCar(car);
  const view = new DataView(bytes.buffer);
  const at = textureEnd(car);
  const second = at + 40 + 5 * car.points.count * 6;
  view.setInt32(at + 36, 4, true); // walk: 5 frames stored as 4
  view.setInt32(second + 36, 5, true); // idle: 3 frames stored as 5
  const { model, warnings } = parseCar(bytes);
  assert.deepEqual(model.animations.map((a) => [a.name, a.frameCount]), [["walk", 5], ["idle", 3]]);
  assert.deepEqual(
    warnings.map((w) => [w.offset, /^animation \d stores \d frame\(s\)/.test(w.message)]),
    [[at + 36, true], [second + 36, true]],
  );
});

Deno.test("car frame counts: two equally small corrections are named as ambiguous, none applied", () => {
  const car = bare();
  const v = car.points.count; // 16 points: a frame (96 bytes) holds a whole clip header
  const bytes = encodeCar(car);
  const view = new DataView(bytes.buffer);
  const at = textureEnd(car);
  const second = at + 40 + 5 * v * 6;
  view.setInt32(second + 36, 4, true); // idle: 3 frames stored as 4 (fits at 3)
  // Walk's last frame starts with a clip header of 4 frames: with walk read at 4 frames, that header
  // (and its 4 frames: the rest of walk's last frame, idle's header and 3 frames) ends at the end too.
  // (The header holds a name, as a clip's does: a corrected reading takes no header without one.)
  const lastFrame = second - v * 6;
  bytes.fill(0, lastFrame, lastFrame + 32);
  bytes.set(new TextEncoder().encode("idle2"), lastFrame);
  view.setInt32(lastFrame + 32, 10, true);
  view.setInt32(lastFrame + 36, 4, true);
  const { model, warnings } = parseCar(bytes);
  const ambiguous = warnings.find((w) => /in more than one way/.test(w.message));
  assert.ok(ambiguous, warnings.map((w) => w.message).join("\n"));
  assert.match(
    ambiguous.message,
    /animation 1 4 → 3; or animation 0 5 → 4|animation 0 5 → 4; or animation 1 4 → 3/,
  );
  // The stored counts are read: idle runs past the end, which falls on its frame boundary after 3 frames
  // (cut there, or its count one off): it is kept with the 3 frames the file holds, both readings named.
  assert.deepEqual(model.animations.map((a) => [a.name, a.frameCount]), [["walk", 5], ["idle", 3]]);
  assert.ok(
    warnings.some((w) => /inside animation 1 \('idle'\).*exactly after its first 3 of 4/.test(w.message)),
  );
});

Deno.test("car frame counts: 40 clips all stored one less (the .rsc habit) are read with their frames, quickly", () => {
  const car = bare();
  const table = pointTable(Array.from({ length: 8 }, (_, i) => [i, i % 3, 1]));
  const clips = Array.from({ length: 40 }, (_, i) => animation(`c${i}`, 10, 2 + (i % 3), table, i % 2));
  const v = 8;
  const model = {
    ...car,
    points: table,
    faces: { ...car.faces, indices: car.faces.indices.map((i) => i % v) },
    animations: clips,
  };
  const bytes = encodeCar(model);
  const view = new DataView(bytes.buffer);
  let at = textureEnd(model);
  for (const c of clips) {
    view.setInt32(at + 36, c.frameCount - 1, true);
    at += 40 + c.positions.length * 2;
  }
  // Beyond the clip-by-clip bound (4), but one habit for every clip: each is read with its frames.
  const { model: read, warnings } = parseCar(bytes);
  assert.deepEqual(read.animations.map((a) => a.frameCount), clips.map((c) => c.frameCount));
  // One warning names the habit for all 40 (one per clip drowned the file's other warnings).
  const fixes = warnings.filter((w) => /stored frame counts|stores \d+ frame/.test(w.message));
  assert.deepEqual(fixes.map((w) => w.offset), [textureEnd(model) + 36]);
  assert.match(fixes[0].message, /^40 animations' .* read at their stored count \+1 \(animation 0 1 → 2/);
});

Deno.test("car frame counts: a clip with a negative KPS and a wrong frame count has both repaired, named", () => {
  const car = bare();
  const bytes = encodeCar(car);
  const view = new DataView(bytes.buffer);
  const at = textureEnd(car);
  view.setInt32(at + 32, -40, true); // walk: KPS damaged
  view.setInt32(at + 36, 7, true); // walk: 5 frames stored as 7
  const { model, warnings } = parseCar(bytes);
  assert.deepEqual(model.animations.map((a) => [a.name, a.frameCount, a.kps]), [["walk", 5, 1], [
    "idle",
    3,
    7,
  ]]);
  const messages = warnings.map((w) => w.message);
  assert.ok(
    messages.some((m) =>
      /^animation 0 stores 7 frame\(s\).*with 5 frames.*its KPS -40 is damaged as well/.test(m)
    ),
    messages.join("\n"),
  );
  assert.ok(
    messages.some((m) => /animation 0 \('walk'\) has -40 frames per second/.test(m)),
    messages.join("\n"),
  );
});

Deno.test("car frame counts: one count far off is read from the data's size; the .car still fits byte for byte", () => {
  const car = bare();
  const bytes = encodeCar(car);
  const view = new DataView(bytes.buffer);
  const second = textureEnd(car) + 40 + 5 * car.points.count * 6;
  view.setInt32(second + 36, 3 + 250, true); // idle: 3 frames stored as 253 (another version's count)
  const { model, warnings } = parseCar(bytes);
  assert.deepEqual(model.animations.map((a) => a.frameCount), [5, 3]);
  assert.deepEqual(model.animations[1].positions, car.animations[1].positions);
  assert.equal(warnings.length, 1, warnings.map((w) => w.message).join("\n"));
  assert.match(warnings[0].message, /^animation 1 stores 253 frame\(s\) at byte \d+.* with 3 frames/);
});
