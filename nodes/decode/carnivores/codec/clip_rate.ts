/**
 * A clip's frames per second (KPS) as the decoders read it. The games compute a clip's length as
 * `AniTime = ⌊1000·F / KPS⌋` ms when they load it (`LoadCharacterInfo` for a `.car`, `LoadAnimation`
 * for a `.vtl` or a `.rsc` object) and divide the clip's clock by it: a KPS of 0, or one so high that
 * AniTime rounds to 0 ms (50,000 for 20 frames), divides by zero and the game cannot play the file; a
 * negative one gives a negative length the frame lookup indexes outside the clip with. The frames
 * themselves are whole (the frame count, not KPS, sizes them), so the clip is kept — and with it the
 * model or the whole area — timed at 1 frame per second (CarnivoresIO writes KPS 0 for a clip whose
 * KPS property is 0 and bakes its frames 1 s apart), with a warning naming the clip and the byte.
 *
 * A clip the game does play but that lasts less than one frame of a 24 fps viewer (5 frames at KPS
 * 300: 16 ms) keeps the game's timing — it is what the file says and what the game plays — with a
 * warning naming it: Blender puts all its keys on one frame, and the game, drawing a picture every
 * 16–40 ms, shows one pose of it at a time. Such rates are typing slips (300 for 30) or damage.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";

/** Frames per second of a viewer at Blender's default scene rate: a clip shorter than one of its frames is invisible. */
const VIEWER_FPS = 24;

/**
 * `kps` when the game can time a clip of `frameCount` frames with it, else 1 with a warning (see the
 * module doc); a warning, too, when the clip lasts under one viewer frame. `clip` names the clip
 * ("animation 0 ('walk')", "object 3's animation"), `offset` is the byte of the KPS field.
 *
 * @example
 * ```ts
 * const kps = readableKps(view.getInt32(at, true), 20, "animation 0 ('walk')", at, console.warn); // 0 → 1
 * ```
 */
export function readableKps(
  kps: number,
  frameCount: number,
  clip: string,
  offset: number,
  warn: WarningSink,
): number {
  const aniTime = kps > 0 ? Math.floor((1000 * frameCount) / kps) : 0;
  if (kps > 0 && (aniTime > 0 || frameCount <= 0)) {
    if (frameCount >= 2 && aniTime < 1000 / VIEWER_FPS) {
      warn(
        `${clip}: ${frameCount} frames at ${kps} frames per second (byte ${offset}) last ${aniTime} ms, less ` +
          `than one frame of a ${VIEWER_FPS} fps viewer: Blender puts every key on one frame, and the game ` +
          "shows one pose of it per picture it draws; timed as the game plays it — check the clip's rate",
        { offset, kps },
      );
    }
    return kps;
  }
  const why = kps === 0
    ? "the games divide by it and cannot load the file; CarnivoresIO writes it for a KPS property of 0 " +
      "and bakes the frames 1 s apart"
    : kps > 0
    ? `the clip's ${frameCount} frame(s) last ⌊1000·${frameCount}/${kps}⌋ = 0 ms, which the games divide by ` +
      "and cannot play (the C2 MEE port refuses the file); no tool times a clip so, so the field is a slip or damage"
    : "the games divide by it and play frames outside the clip; no tool writes a negative one, so the " +
      "field is damaged and the file gives no rate";
  warn(
    `${clip} has ${kps} frames per second at byte ${offset}: ${why}; its frames are kept, the clip is ` +
      "timed at 1 frame per second",
    { offset, kps },
  );
  return 1;
}
