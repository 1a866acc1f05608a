/**
 * Zeros after a `.car`'s sounds: a tool's padding where no anim→sound table was written, or a table of
 * zeros (every clip plays sound 0) followed by padding — read as the bytes allow, warned where they do not tell.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { ANIM_SOUND_TABLE_BYTES } from "./car_repair.ts";
import { inPadding, paddingBlock } from "./car_section_ends.ts";

/**
 * Whether the bytes after the sounds, from `at`, are more than the anim→sound table's 256 and zeros to the
 * end of the file (or its DOS end-of-file byte): a tool's padding where no table was written, or a table of
 * zeros followed by padding. With no sounds both readings leave every clip silent: no table is read, one
 * warning says so. With sounds, a table of zeros plays sound 0 for every clip (as the game reads any 256
 * bytes there), padding none: when the file's size is a block a tool pads to and the zeros fit in one such
 * block, the bytes do not tell — no table is read and the warning names both readings; zeros longer than a
 * block, or a size no tool pads to, are the table and bytes after it (false: the table reader's). Exactly
 * 256 zeros are the table, as before — in a file of whole blocks, with sounds, warned naming both readings.
 */
export function zeroTable(view: DataView, at: number, soundCount: number, warn: WarningSink): boolean {
  const size = view.byteLength, left = size - at;
  if (left < ANIM_SOUND_TABLE_BYTES || !inPadding(view, at)) return false;
  const block = paddingBlock(view);
  if (left === ANIM_SOUND_TABLE_BYTES) {
    // Exactly a table of zeros, read as one (as before); in a file of whole blocks it may be padding too.
    if (soundCount > 0 && block > 0) {
      warn(
        `the ${left} bytes after the sounds (byte ${at} on) are zeros, ending the file, which is a multiple of ` +
          `${block} bytes: an anim→sound table of zeros (every clip plays sound 0, as the game reads it), or ` +
          "padding a tool added where it wrote no table (every clip silent) — the file does not tell which; " +
          "read as the table",
        { offset: at, bytes: left, block },
      );
    }
    return false;
  }
  if (soundCount === 0) {
    warn(
      `the ${left} byte(s) after the last clip (byte ${at} on) are zeros to the end of the file: padding (a ` +
        "tool's block, or zeros a download left) or an anim→sound table of zeros and padding — with no sounds, " +
        "every clip is silent either way; no table is read",
      { offset: at, bytes: left },
    );
    return true;
  }
  if (block === 0 || left > block) return false;
  warn(
    `the ${left} byte(s) after the sounds (byte ${at} on) are zeros to the end of the file, which is a multiple ` +
      `of ${block} bytes: padding a tool added where it wrote no anim→sound table (every clip silent), or a ` +
      `table of zeros and padding after it (every clip plays sound 0, as the game reads it) — the file does not ` +
      "tell which; read as padding, no table",
    { offset: at, bytes: left, block },
  );
  return true;
}
