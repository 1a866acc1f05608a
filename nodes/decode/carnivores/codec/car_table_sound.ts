/**
 * A `.car` whose sound count was lowered by hand (a sound "cut" without its bytes) and padded by a tool:
 * a last sound shorter than the anim→sound table sits where the table goes, the stored counts end the
 * sections there and the table's 256 bytes run into the padding, so the stored counts fit and no count
 * repair runs — the sound was read as a table naming no sound (seed 90107 of `tool_saves.ts` with
 * `padded_block` and `count_edited`: 5 clips and 1 sound read as 5 clips and none).
 *
 * The bytes tell: where the table goes there is a sound header holding a name, no valid table, and the
 * length it stores ends the sound exactly where the padding starts.
 * Read with that sound, warned naming both readings.
 *
 * @module
 */
import { NAME_BYTES } from "./model.ts";
import { ENGINE_MAX_CLIPS, type SectionSearch, SOUND_HEADER_BYTES, tailEnd } from "./car_sections.ts";
import { sectionEnds, validTable } from "./car_section_ends.ts";
import { holdsName } from "./frame_likeness.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** The counts {@link tableSound} reads. */
export interface TableSoundReading {
  readonly animationCount: number;
  readonly soundCount: number;
}

/**
 * With the search's (declared) counts' sections ending the file, the reading with one more sound when a
 * sound header sits where the anim→sound table goes (see the module doc), warned; undefined otherwise.
 */
export function tableSound(search: SectionSearch, warn: WarningSink): TableSoundReading | undefined {
  const { view, at, vertexCount, animations, sounds, tableBytes } = search;
  if (tableBytes <= 0 || sounds + 1 > ENGINE_MAX_CLIPS) return undefined;
  const end = tailEnd(view, at, vertexCount, animations, sounds, { negativeKps: true });
  if (end < 0 || end + SOUND_HEADER_BYTES > view.byteLength) return undefined;
  if (end + tableBytes <= view.byteLength && validTable(view, end, tableBytes, sounds)) return undefined;
  if (!holdsName(view, end)) return undefined;
  const length = view.getInt32(end + NAME_BYTES, true);
  if (length <= 0) return undefined;
  const soundEnd = end + SOUND_HEADER_BYTES + length;
  // The padding starts where the sound ends — or before, the sound's own last bytes zeros (a table after
  // it would have let the count search see it).
  const ends = sectionEnds(view);
  if (soundEnd !== ends[0] && !(ends.length > 1 && soundEnd >= ends[1] && soundEnd <= ends[0])) {
    return undefined;
  }
  warn(
    `the header declares ${sounds} sound(s) at byte 36, and the sections so read end where the anim→sound ` +
      `table goes (byte ${end}); but the bytes there are no table: they are a sound header ('${
        name(view, end)
      }', ${length} bytes) whose bytes end exactly where the file's padding starts. Read as ${
        sounds + 1
      } sound(s), not ${sounds} and a table of junk — a sound count lowered by hand`,
    { offset: 36, declared: sounds, read: sounds + 1 },
  );
  return { animationCount: animations, soundCount: sounds + 1 };
}

/** The name field at `at` as printable text (for the warning only). */
function name(view: DataView, at: number): string {
  let text = "";
  for (let i = 0; i < NAME_BYTES; i++) {
    const byte = view.getUint8(at + i);
    if (byte === 0) break;
    text += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : "?";
  }
  return text;
}
