/**
 * The `.car` repair searches (car_fitting_counts.ts, car_frame_counts.ts) on a hostile file: 64 clips whose frames are zeros, then
 * 600 KB of zeros after the anim→sound table. Frame data and padding of zeros read as clip headers of
 * 0 frames, so every corrected count leads on to another plausible header: the depth-first frame-count
 * search walked its 2,000,000-header budget twice (textureSize, then sectionCounts) and the far-off
 * search walked the later clips once per count tried. The searches now keep what they found at each
 * header and need a clip header after a count to hold a name, as the file's first does.
 */
import assert from "node:assert/strict";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { gridCar } from "./fixtures.ts";
import { parseCar } from "./parse.ts";

/** The hostile file: 64 named one-frame clips of zeros, the table, then `tail` zero bytes. */
function zeroClipsCar(tail: number): Uint8Array {
  const grid = gridCar(8, 8, 0);
  const animations = Array.from({ length: 64 }, (_, c) => ({
    name: `clip${c}`,
    kps: 10,
    frameCount: 1,
    positions: new Int16Array(grid.points.count * 3),
  }));
  const car = encodeCar({ ...grid, animations, sounds: [], animSounds: new Int32Array(64).fill(-1) });
  const bytes = new Uint8Array(car.length + tail);
  bytes.set(car);
  return bytes;
}

/** How many `DataView.getInt32` reads `run` makes: the searches' work, counted rather than timed. */
function int32Reads(run: () => void): number {
  const read = DataView.prototype.getInt32;
  let reads = 0;
  DataView.prototype.getInt32 = function (this: DataView, offset: number, littleEndian?: boolean) {
    reads++;
    return read.call(this, offset, littleEndian);
  };
  try {
    run();
  } finally {
    DataView.prototype.getInt32 = read;
  }
  return reads;
}

Deno.test("car searches: 64 clips of zeros and 600 KB of zeros after them are searched from once each", () => {
  const bytes = zeroClipsCar(600_000);
  const first = parseCar(bytes);
  // The file reads as written: its 64 clips, the tail named as ignored bytes.
  assert.equal(first.model.animations.length, 64);
  assert.deepEqual(first.model.animations.map((a) => a.frameCount), Array(64).fill(1));
  assert.deepEqual(first.warnings.map((w) => w.message), [
    "600000 byte(s) after the anim→sound table are ignored",
  ]);
  // Work, not time (a loaded host must not count): before, the searches walked their 2,000,000-header
  // budget twice, 7.56 million int32 reads; now each header is searched from once, 0.29 million.
  const reads = int32Reads(() => parseCar(bytes));
  assert.ok(reads < 1_000_000, `parseCar read ${reads} int32 fields`);
});
