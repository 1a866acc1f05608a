/**
 * `.car` files whose first sound fills one or two whole frames (a tool that pads a sample to its
 * block, or chance) — as written, or with the sound count lowered by hand and the last clip's frame
 * count raised over that sound's bytes, so the stored counts still end the sections at the end of the
 * file. Clips as the other generators make them; some clips' names fill their field.
 *
 * @module
 */
import { animation, gridCar } from "./fixtures.ts";
import { fillLongClipNames } from "./long_clip_names.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { prng } from "../../../support/prng.ts";
import { carClipsAt, clipHeaders, draws, frameCountAt } from "./car_layout.ts";

/**
 * A file with a frame-sized first sound (or not), optionally with the two counts damaged over it, and
 * with `firstOff` the first of several clips' frame count one off as well (a count stored as a `.rsc`
 * stores it, or a slip: the frame-count repair then raises the last clip's over the sound). With
 * `overTable`, the file has the anim→sound table and the first sound and the table together fill whole
 * frames (the raised count takes in both; sounds then number 1). Sound names as tools leave them, one
 * in Windows-1251 ("Вой", a howl).
 */
export function hiddenSoundFile(seed: number, damaged: boolean, firstOff = false, overTable = false) {
  const random = prng(seed * 613 + 5);
  const { int } = draws(random);
  const grid = gridCar(int(3, 12), int(3, 12), 0);
  const frameBytes = grid.points.count * 6;
  const animations = Array.from(
    { length: int(1, 4) },
    (_, c) => animation(`clip${c}`, int(8, 25), int(2, 10), grid.points, c),
  );
  // The hidden sound fills 1 or 2 whole frames; the others are any size (16-bit PCM, a noisy tone).
  // Over the table, the sound and the table's 256 bytes fill the fewest frames that leave it 40 bytes.
  let hidden = int(1, 2);
  const soundCount = int(1, 3);
  const tableBytes = overTable ? 256 : 0;
  while (overTable && hidden * frameBytes - 36 - tableBytes < 40) hidden++;
  const sounds = Array.from({ length: overTable ? 1 : soundCount }, (_, s) => {
    const bytes = s === 0 ? hidden * frameBytes - 36 - tableBytes : 2 * int(20, 300);
    const pcm = new Uint8Array(bytes);
    const view = new DataView(pcm.buffer);
    for (let i = 0; i + 1 < bytes; i += 2) {
      view.setInt16(i, Math.round(9000 * Math.sin(i / (7 + s)) + (random() - 0.5) * 2000), true);
    }
    return { name: ["snd", "roar", "\xc2\xee\xe9", "step_l"][int(0, 3)] + s, pcm };
  });
  const table = random() < 0.6 || overTable ? Int32Array.from({ length: 64 }, () => -1) : undefined;
  const bytes = encodeCar({ ...grid, name: "Raptor", msc: "msc: 3", animations, sounds, animSounds: table });
  const clipsAt = carClipsAt(bytes);
  const frames = animations.map((a) => a.frameCount);
  if (seed % 3 === 0) fillLongClipNames(bytes, clipsAt, grid.points.count, frames, seed);
  if (damaged) {
    const view = new DataView(bytes.buffer);
    view.setInt32(36, sounds.length - 1, true);
    const headers = clipHeaders(clipsAt, grid.points.count, frames);
    view.setInt32(frameCountAt(headers[frames.length - 1]), frames.at(-1)! + hidden, true);
    if (firstOff && frames.length > 1) {
      view.setInt32(frameCountAt(clipsAt), frames[0] + (seed % 2 ? 1 : -1), true);
    }
  }
  return { bytes, frames, sounds: sounds.length, name: `hidden${seed}.car` };
}
