/**
 * Where a `.car`'s sections may end: retail files end exactly after the sounds or after the 256-byte
 * anim→sound table, tools pad after them (zero bytes to a block, a DOS end-of-file byte), and the
 * searches' last pass also takes bytes appended to the file. The count searches ask this module whether
 * a reading ends the file.
 *
 * @module
 */
import type { SectionSearch } from "./car_sections.ts";
import { NAME_BYTES } from "./model.ts";
import { holdsName } from "./frame_likeness.ts";

/** Longest run of bytes after a file's last section taken as a tool's padding (a 4,096-byte block). */
const MAX_PADDING = 4096;
const endsCache = new WeakMap<DataView, readonly number[]>();

/**
 * Where a `.car`'s sections may end: at the end of the file, or where the padding a tool added after
 * them begins — zero bytes up to a 512- to 4,096-byte block, and/or a DOS end-of-file byte 0x1A last.
 * A file whose last section itself ends in zero bytes has its padding start earlier: that reading is
 * taken only by the searches, which the declared counts ending at the end of the file never reach.
 *
 * @example
 * ```ts
 * sectionEnds(view); // [139264, 138625]: 639 bytes of zeros pad the file to a 512-byte block
 * ```
 */
export function sectionEnds(view: DataView): readonly number[] {
  const known = endsCache.get(view);
  if (known) return known;
  const size = view.byteLength;
  let at = size;
  if (at > 0 && view.getUint8(at - 1) === 0x1a) at--;
  while (at > 0 && size - at <= MAX_PADDING && view.getUint8(at - 1) === 0) at--;
  const ends = at < size && size - at <= MAX_PADDING ? [size, at] : [size];
  endsCache.set(view, ends);
  return ends;
}

/**
 * Most zero bytes a file's last section may end in, past where {@link sectionEnds} puts the padding's
 * start: a frame's last coordinates (a point on an axis, a small value's high byte), a sound's last
 * samples. A reading ending deeper in the zeros has taken padding for data.
 */
export const TRAILING_ZEROS = 6;

/**
 * Whether sections ending at `end` end the file (or its padding): at one of {@link sectionEnds}, or, given
 * `trailingZeros` (at most {@link TRAILING_ZEROS}), that many zero bytes past where the padding seems to
 * start — the last section's own zeros. Before, a clip whose last frame ends in a zero byte could not end
 * a padded file.
 */
export function atSectionEnd(view: DataView, end: number, trailingZeros = 0): boolean {
  const ends = sectionEnds(view);
  return ends.includes(end) || (ends.length > 1 && end > ends[1] && end - ends[1] <= trailingZeros);
}

/**
 * Whether the byte at `at` lies in the padding: at or past where the zeros a tool padded the file with
 * start (see {@link sectionEnds}). A header or frame there is zeros read as a section — pushed past the
 * file's real sections by a frame count stored too high — not one a tool wrote.
 */
export function inPadding(view: DataView, at: number): boolean {
  const ends = sectionEnds(view);
  return ends.length > 1 && at >= ends[1] && at < ends[0];
}

/**
 * Whether the sound header at `at` is read (partly) from the padding: it starts there, or its length field
 * does and its name field holds no name — the last bytes of a sound or of the anim→sound table followed by
 * the padding's zeros, where a frame count stored too high put a sound header. A sound a tool wrote with
 * no bytes, at the end of a padded file, still holds its name.
 */
export function soundHeaderInPadding(view: DataView, at: number): boolean {
  const ends = sectionEnds(view);
  if (ends.length < 2 || at >= ends[0]) return false;
  if (at >= ends[1]) return true;
  return at + NAME_BYTES >= ends[1] && at + NAME_BYTES <= view.byteLength &&
    (!holdsName(view, at) || oneByteName(view, at));
}

/**
 * Whether the name field at `at` is one byte repeated up to its NUL: the anim→sound table's -1 entries
 * (0xFF, a Windows-1251 "я" to the name rules) read as a name, not one a tool wrote.
 */
function oneByteName(view: DataView, at: number): boolean {
  const first = view.getUint8(at);
  for (let i = 1; i < NAME_BYTES; i++) {
    const byte = view.getUint8(at + i);
    if (byte === 0) return true;
    if (byte !== first) return false;
  }
  return true;
}

/** The block sizes real tools pad `.car` files to, largest first. */
const PADDING_BLOCKS = [4096, 2048, 512];

/**
 * The largest block a tool may have padded the file to: 4,096, 2,048 or 512 bytes when its size (less a
 * final DOS end-of-file byte 0x1A) is a multiple of it, else 0 (no tool padded it to a block).
 */
export function paddingBlock(view: DataView): number {
  let size = view.byteLength;
  if (size > 0 && view.getUint8(size - 1) === 0x1a) size--;
  return PADDING_BLOCKS.find((block) => size > 0 && size % block === 0) ?? 0;
}

/**
 * Whether the bytes from `end` to the end of the file may be bytes appended after it (see
 * `appendedRepair` in car_appended.ts): given only to the searches' last pass.
 */
export type AppendedBytes = (end: number) => boolean;

/** Most bytes other than zeros taken as appended after a file (a tool's or a transfer's trailer). */
export const MAX_APPENDED = 1024;

/**
 * {@link AppendedBytes} for `view`: zeros however many (a download manager's preallocated file, a
 * disk's slack copied along, a tool's padding to a block) and then at most {@link MAX_APPENDED} bytes
 * of anything (a trailer) up to the end of the file.
 */
export function appendedBytes(view: DataView): AppendedBytes {
  const size = view.byteLength;
  // Bytes before `zerosFrom` and before the last MAX_APPENDED are not all zeros.
  let zerosFrom = Math.max(0, size - MAX_APPENDED);
  while (zerosFrom > 0 && view.getUint8(zerosFrom - 1) === 0) zerosFrom--;
  return (end) => end >= zerosFrom && end < size;
}

/** What {@link endsFile} needs of a search: the file, the table's size, the sounds and the last pass. */
export type EndRules = Pick<SectionSearch, "view" | "tableBytes" | "sounds" | "appended" | "trailingZeros">;

/**
 * True when sections ending at `end` end the file: at one of {@link sectionEnds} (or, given
 * `trailingZeros`, that few zero bytes past the padding's start: {@link atSectionEnd}), or at a valid
 * anim→sound table of `tableBytes` (entries naming one of `sounds`) that does — or, given `appended`,
 * with appended bytes after them.
 */
export function endsFile(rules: EndRules, end: number): boolean {
  const { view, tableBytes, sounds, appended, trailingZeros } = rules;
  if (end < 0) return false;
  const table = tableBytes > 0 && end + tableBytes <= view.byteLength &&
    validTable(view, end, tableBytes, sounds);
  return atSectionEnd(view, end, trailingZeros) ||
    (table && atSectionEnd(view, end + tableBytes, trailingZeros)) ||
    (appended !== undefined && (appended(end) || (table && appended(end + tableBytes))));
}

/** True when every int32 of the table is -1 or a sound index below `sounds`. */
export function validTable(view: DataView, at: number, bytes: number, sounds: number): boolean {
  for (let i = 0; i < bytes; i += 4) {
    const value = view.getInt32(at + i, true);
    if (value < -1 || value >= sounds) return false;
  }
  return true;
}
