/**
 * A clip's frames per second (KPS) as the decoders read it. The games compute a clip's length as
 * `AniTime = 1000·F / KPS` when they load it (`LoadCharacterInfo` for a `.car`, `LoadAnimation` for a
 * `.rsc` object): a KPS of 0 divides by zero and the game cannot load the file, a negative one gives a
 * negative length the frame lookup indexes outside the clip with. The frames themselves are whole (the
 * frame count, not KPS, sizes them), so the clip is kept — and with it the model or the whole area —
 * timed at 1 frame per second (CarnivoresIO writes KPS 0 for a clip whose KPS property is 0 and bakes
 * its frames 1 s apart), with a warning naming the clip and the byte.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";

/**
 * `kps` when it is positive, else 1 with a warning: `clip` names the clip ("animation 0 ('walk')",
 * "object 3's animation"), `offset` is the byte of the KPS field.
 *
 * @example
 * ```ts
 * const kps = readableKps(view.getInt32(at, true), "animation 0 ('walk')", at, console.warn); // 0 → 1
 * ```
 */
export function readableKps(kps: number, clip: string, offset: number, warn: WarningSink): number {
  if (kps > 0) return kps;
  const why = kps === 0
    ? "the games divide by it and cannot load the file; CarnivoresIO writes it for a KPS property of 0 " +
      "and bakes the frames 1 s apart"
    : "the games divide by it and play frames outside the clip; no tool writes a negative one, so the " +
      "field is damaged and the file gives no rate";
  warn(
    `${clip} has ${kps} frames per second at byte ${offset}: ${why}; its frames are kept, the clip is ` +
      "timed at 1 frame per second",
    { offset, kps },
  );
  return 1;
}
