/**
 * `decode.car` — a Carnivores `.car` character (mesh, texture, animations, sounds) to a scene with
 * one morph-target animation per clip. Sounds have no place in glTF: their names and sizes are kept
 * in `extras.partgraph.carnivores.sounds`, their PCM is not carried.
 *
 * @module
 */
import { lazyRun } from "../../../runtime/lazy_run.ts";
import { defineNode } from "../../../runtime/node.ts";
import { INTERPOLATION_PARAM, MAX_FRAMES_PARAM, SCALE_PARAM } from "./params.ts";

/** `decode.car` node definition. */
export const decodeCar = defineNode({
  type: "decode.car",
  // 14: a texture that is a picture of a width not dividing 256 written at its own width is named.
  // 15: a clip whose AniTime ⌊1000·F/KPS⌋ is 0 ms (50,000 fps), which the game cannot play, is timed at
  // 1 frame per second like KPS 0 (was: F/KPS s, every key on one viewer frame); a clip the game plays
  // but shorter than one 24 fps frame is named in a warning.
  // 16: a texture that reads as a smooth picture in RGB565 and wraps in the games' 555 is named.
  // 17: points past 50 km from the origin (a damaged coordinate) are named in a warning, with the first's byte.
  // 18: clips whose frames hold another vertex count than the model (its mesh edited after them) are
  // read with that count when it alone makes the sections fit and the frames track the points, named.
  // 21: blank clip headers (no name, KPS 0, 0 frames: zeros) are no clips to the count repairs, nor
  // frames of zeros evidence; trailing blank clips are left out; clips sharing a fault are one warning;
  // a damaged count with bytes appended is read when the file vouches for one reading (car_appended.ts).
  // 22: a clip name filling all 32 bytes with no NUL (printable ASCII with a letter: strncpy-cut, or
  // space-padded) is a name to the count repairs; a text trailer after the file is not a clip cut short;
  // two damaged counts (a clip or sound count and frame counts) are read when the file vouches for one
  // reading (car_two_counts.ts).
  // 24: the last clip's final frames that are a sound (a header holding a name, its bytes ending where
  // the clip does, not tracking the points) are read as that sound, warned: a sound count lowered and
  // the frame count raised over it fit as stored and were read silently (car_hidden_sound.ts; also after
  // frame-count corrections). A clip the file ends inside on a frame boundary is named with the other
  // reading (frame and clip counts edited) beside the cut.
  // 25: a header a corrected frame count reads as a clip (its own count corrected, or found after a
  // correction) holds a name when the first clip's does — the anim→sound table's bytes (KPS -1, -1
  // frames) were read as a clip, and a tail of zeros kept every clip stored one short from being read;
  // a sound and the anim→sound table after it that the last clip's raised count took in are read as
  // that sound and table (car_hidden_sound.ts). The appended-bytes pass goes on past frame-count
  // readings the file does not vouch for, and no count is raised over a frame of zeros.
  // 26: a file ending inside a clip on a frame boundary keeps the clip with the frames there (cut, or
  // its count and the counts after it edited: both readings named); appended bytes past ASCII are no
  // name cut short, and a clip count raised over appended bytes reads no header of junk at 0 frames.
  // 27: a last frame that is the anim→sound table of no sounds (0xFF) and padding zeros is the table: the
  // clip's count stored one too high is read one lower (car_table_frame.ts), warned naming both; fewer
  // sounds than declared fitting only by reading the last sound as the last clip's frame keep the sounds;
  // a sound shorter than the table where the table goes, ending at the padding, is a sound (car_table_sound.ts).
  // 28: in a padded file, a count one short no longer reads the last frame as a "table" running into the
  // padding, a last frame of the padding's zeros (no sounds, no table) is padding (car_padding_frame.ts),
  // sound headers read from the padding are no sounds, a last section may end in a few zero bytes of its
  // own, and zeros after the sounds are padding, not a table of zeros (both readings named when a block
  // of zeros cannot tell); a count one long over the first sound's header, the sound read from its own
  // bytes with no name, is read one lower when the shorter reading's sounds hold names (car_unnamed_sound.ts).
  version: 28,
  doc: "Decodes a Carnivores .car character: mesh and texture like decode.3df, and each animation as " +
    "morph targets (one per distinct frame) driven by one glTF animation per clip, timed like the game.",
  inputs: { bytes: { type: "bytes", doc: "A .car file." } },
  outputs: { scene: { type: "scene", doc: "A textured mesh with morph animations." } },
  params: {
    scale: SCALE_PARAM,
    interpolation: INTERPOLATION_PARAM,
    max_frames: MAX_FRAMES_PARAM,
  },
  run: lazyRun(new URL("./decode_car_run.ts", import.meta.url)),
});
