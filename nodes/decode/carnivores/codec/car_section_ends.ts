/**
 * Where a `.car`'s sections may end: retail files end exactly after the sounds or after the 256-byte
 * anim→sound table, tools pad after them (zero bytes to a block, a DOS end-of-file byte), and the
 * searches' last pass also takes bytes appended to the file. The count searches ask this module whether
 * a reading ends the file.
 *
 * @module
 */
import type { SectionSearch } from "./car_sections.ts";

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
export type EndRules = Pick<SectionSearch, "view" | "tableBytes" | "sounds" | "appended">;

/**
 * True when sections ending at `end` end the file: at one of {@link sectionEnds}, or at a valid
 * anim→sound table of `tableBytes` (entries naming one of `sounds`) that does — or, given `appended`,
 * with appended bytes after them.
 */
export function endsFile(rules: EndRules, end: number): boolean {
  const { view, tableBytes, sounds, appended } = rules;
  if (end < 0) return false;
  const table = tableBytes > 0 && end + tableBytes <= view.byteLength &&
    validTable(view, end, tableBytes, sounds);
  return sectionEnds(view).some((e) => end === e || (table && end + tableBytes === e)) ||
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
