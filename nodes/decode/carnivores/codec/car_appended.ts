/**
 * A `.car` with a damaged count and bytes appended after it: neither the stored counts nor any repair
 * ends the sections at the end of the file (or where a tool's padding starts), because the file does
 * not end where its sections do. The count searches (`car_fitting_counts.ts`, `car_frame_counts.ts`) are
 * run once more taking the sections
 * as ending anywhere before a tail that can be appended bytes — zeros however many, then up to
 * {@link MAX_APPENDED} bytes of anything — and a reading is kept only when the file vouches for it:
 * every clip header so read holds a name when the first does, every clip's first and last frames track
 * the model's points, no sound's bytes read as a clip's frames, and the tail does not start like a
 * section (a header holding a name, frames, coordinates: a file cut short) — and no other reading as
 * near the stored counts is vouched for. The warning says what was assumed. Otherwise nothing is read
 * from the guess: the stored counts are read, as before.
 *
 * @module
 */
import { NAME_BYTES } from "./model.ts";
import { ANIMATION_HEADER_BYTES, blankClip, type SectionSearch, SOUND_HEADER_BYTES } from "./car_sections.ts";
import { appendedBytes, MAX_APPENDED, validTable } from "./car_section_ends.ts";
import { allFittingCounts } from "./car_fitting_counts.ts";
import { fittingFrameCounts, type FrameCountFix } from "./car_frame_counts.ts";
import {
  cyrillicLetter,
  frameLikeness,
  holdsName,
  POINT_LIKE_CORRELATION,
  pointLikeness,
} from "./frame_likeness.ts";
import { MAX_EACH } from "./clip_warnings.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** Bytes of the anim→sound table (as car_repair.ts). */
const TABLE_BYTES = 256;

/** The counts {@link appendedRepair} read. */
export interface AppendedReading {
  readonly animationCount: number;
  readonly soundCount: number;
  readonly frameFixes?: readonly FrameCountFix[];
  /** Where the bytes taken as appended start (set on the reading returned). */
  readonly appendedAt?: number;
}

/** A search whose readings the model's points `base` can vouch for. */
export type VouchedSearch = SectionSearch & { readonly base: Float32Array };

/**
 * The counts (clip and sound counts, or corrected frame counts) with which the sections from `at` end
 * before bytes appended to the file, when the file vouches for them (see the module doc); undefined
 * when none does, several do, or the reading is the search's (declared) one (nothing to repair).
 * Without `base` (the model's points) nothing is vouched for.
 */
export function appendedRepair(search: SectionSearch, warn: WarningSink): AppendedReading | undefined {
  const { view, vertexCount, animations: declaredAnimations, sounds: declaredSounds, base } = search;
  if (!base || vertexCount <= 0) return undefined;
  const appended = appendedBytes(view);
  // The last pass: sections may end before bytes appended to the file.
  const last: VouchedSearch = { ...search, tableBytes: TABLE_BYTES, base, appended };
  const declared: AppendedReading = { animationCount: declaredAnimations, soundCount: declaredSounds };
  const readings: AppendedReading[] = [];
  // Count pairs nearest the declared first; the nearest the file vouches for is taken, when no other
  // as near is vouched for too.
  const distance = (r: AppendedReading) =>
    Math.abs(r.animationCount - declaredAnimations) + Math.abs(r.soundCount - declaredSounds);
  const fits = allFittingCounts(last).map((fit) => ({
    animationCount: fit.animations,
    soundCount: fit.sounds,
  }));
  const firstVouched = fits.findIndex((r) => vouchedTail(last, r) >= 0);
  if (firstVouched >= 0) {
    readings.push(...fits.filter((r) => distance(r) === distance(fits[firstVouched])));
  }
  // A reading the file does not vouch for (frame data read as headers ending in the appended zeros)
  // must not stop the search before the one it does: every clip stored one short, say.
  const found = fittingFrameCounts(last, (frameFixes) => vouchedTail(last, { ...declared, frameFixes }) >= 0);
  // Readings the frames alone cannot choose between may differ in their tails: a reading one frame
  // short leaves a frame after it, which is no appended byte.
  const fixed = found.kind === "fixed" ? [found.fixes] : found.kind === "ambiguous" ? found.candidates : [];
  for (const fixes of fixed) readings.push({ ...declared, frameFixes: fixes });
  // Each reading must be vouched for by the frames and the tail; exactly one may be.
  const vouched = readings.map((reading) => ({ reading, tailAt: vouchedTail(last, reading) }))
    .filter((r) => r.tailAt >= 0);
  if (vouched.length !== 1) return undefined;
  const [{ reading, tailAt }] = vouched;
  // The stored counts with bytes appended: the file is whole, the tail is the table reader's to name.
  if (
    reading.animationCount === declaredAnimations && reading.soundCount === declaredSounds &&
    !reading.frameFixes
  ) {
    return undefined;
  }
  const fixes = reading.frameFixes ?? [];
  const end = sectionsEnd(last, reading);
  const table = tailAt > end;
  const tail = view.byteLength - tailAt;
  const zeros = isZeros(view, tailAt);
  const what = fixes.length > MAX_EACH
    ? `${fixes.length} animations' frame counts read at their stored count ${
      [...new Set(fixes.map((f) => f.frames - f.stored))].map((c) => (c > 0 ? `+${c}` : `${c}`)).join(" or ")
    } (the first at byte ${fixes[0].at})`
    : fixes.length
    ? fixes.map((f) =>
      `animation ${f.clip}'s frame count at byte ${f.at} read as ${f.frames}, not ${f.stored}`
    )
      .join(", ")
    : `${reading.animationCount} animation(s) and ${reading.soundCount} sound(s) read, not the ${declaredAnimations} ` +
      `and ${declaredSounds} the header declares at byte 32`;
  warn(
    `the clips and sounds end at the end of the file neither with the stored counts nor with any repair; with ` +
      `${what}, they end at byte ${end}${table ? " and the anim→sound table after them" : ""}, and their ` +
      `frames track the model's points. The ${tail} byte(s) after that (byte ${tailAt} on) are assumed to be ` +
      `bytes appended to the file (${
        zeros ? "all zeros" : `not a section: ${hex(view, tailAt)}`
      }) and are ignored — read so (a damaged count in a file something appended to)`,
    {
      offset: tailAt,
      appended: tail,
      declared: [declaredAnimations, declaredSounds],
      read: [reading.animationCount, reading.soundCount],
    },
  );
  return { ...reading, appendedAt: tailAt };
}

/**
 * Where the appended bytes start when `reading` is vouched for — its frames track the points and the
 * bytes after its sections (and the anim→sound table, when one is there) do not start a section; -1
 * when it is not.
 */
function vouchedTail(search: VouchedSearch, reading: AppendedReading): number {
  const { view, vertexCount, base } = search;
  if (!vouchedSections(search, reading)) return -1;
  const end = sectionsEnd(search, reading);
  const appended = appendedBytes(view);
  const table = end + TABLE_BYTES <= view.byteLength &&
    validTable(view, end, TABLE_BYTES, reading.soundCount) && appended(end + TABLE_BYTES);
  const tailAt = table ? end + TABLE_BYTES : end;
  return startsSection(view, tailAt, vertexCount, base) ? -1 : tailAt;
}

/**
 * Whether the file vouches for the sections `reading` puts from `at`: every clip's first and last
 * frames track the model's points `base`, every clip header holds a name when the first does and none
 * is blank, and no sound's bytes, read after a clip header, are frames tracking the points (a clip
 * read as a sound). Shared with `car_two_counts.ts`.
 */
export function vouchedSections(search: VouchedSearch, reading: AppendedReading): boolean {
  const { view, at, vertexCount, base } = search;
  const fixes = reading.frameFixes ?? [];
  if (pointLikeness(view, at, vertexCount, reading.animationCount, fixes, base) < POINT_LIKE_CORRELATION) {
    return false;
  }
  // Every clip header so read is a clip's: named when the first is (bytes of a table or of junk read
  // as a header are not), and not blank.
  const named = holdsName(view, at);
  for (let clip = 0, clipAt = at; clip < reading.animationCount; clip++) {
    if (blankClip(view, clipAt) || (named && !holdsName(view, clipAt))) return false;
    const frames = fixes.find((f) => f.clip === clip)?.frames ?? view.getInt32(clipAt + NAME_BYTES + 4, true);
    clipAt += ANIMATION_HEADER_BYTES + frames * vertexCount * 6;
  }
  // A sound whose bytes, read after a clip header, are frames tracking the points is a clip read as a
  // sound (a file cut inside that clip, not a clip count raised).
  for (const soundAt of soundHeaders(search, reading)) {
    const framesAt = soundAt + ANIMATION_HEADER_BYTES;
    const left = view.byteLength - framesAt;
    if (left <= 0) continue;
    const frames = left >= vertexCount * 6
      ? frameLikeness(view, framesAt, vertexCount, base) >= POINT_LIKE_CORRELATION
      : coordinatesLike(view, framesAt, left, base);
    if (frames) return false;
  }
  return true;
}

/** Where `reading` puts each sound header. */
function soundHeaders(search: SectionSearch, reading: AppendedReading): number[] {
  const { view } = search;
  let soundAt = sectionsEnd(search, { ...reading, soundCount: 0 });
  const headers: number[] = [];
  for (let sound = 0; sound < reading.soundCount; sound++) {
    headers.push(soundAt);
    soundAt += SOUND_HEADER_BYTES + view.getInt32(soundAt + NAME_BYTES, true);
  }
  return headers;
}

/** Where the sections end, read with `reading`'s counts and frame counts. */
function sectionsEnd({ view, at, vertexCount }: SectionSearch, reading: AppendedReading): number {
  const fixes = reading.frameFixes ?? [];
  for (let clip = 0; clip < reading.animationCount; clip++) {
    const frames = fixes.find((f) => f.clip === clip)?.frames ?? view.getInt32(at + NAME_BYTES + 4, true);
    at += ANIMATION_HEADER_BYTES + frames * vertexCount * 6;
  }
  for (let sound = 0; sound < reading.soundCount; sound++) {
    at += SOUND_HEADER_BYTES + view.getInt32(at + NAME_BYTES, true);
  }
  return at;
}

/**
 * Whether the tail at `at` starts like a section the file was cut inside rather than like appended
 * bytes: a header holding a name (a clip's or a sound's, cut short), or a frame tracking the points.
 * A tail too short for a name says nothing either way and is taken as appended.
 */
function startsSection(view: DataView, at: number, vertexCount: number, base: Float32Array): boolean {
  const left = view.byteLength - at;
  if (isZeros(view, at)) return false;
  if (left >= NAME_BYTES ? headerName(view, at) : startsName(view, at, left)) return true;
  if (partialTable(view, at)) return false;
  const frameBytes = vertexCount * 6;
  if (
    left >= frameBytes && left <= MAX_APPENDED &&
    frameLikeness(view, at, vertexCount, base) >= POINT_LIKE_CORRELATION
  ) return true;
  return coordinatesLike(view, at, Math.min(left, frameBytes), base);
}

/**
 * Whether the bytes at `at`, as int16 values, read as frame coordinates of the model (its points ×16,
 * a quarter of its extent around them): nine in ten in range and a fifth not zero. Frame data a file
 * was cut inside read so; random bytes seldom (a 400-unit model's range is about 1 % of int16's).
 */
function coordinatesLike(view: DataView, at: number, bytes: number, base: Float32Array): boolean {
  const values = Math.floor(bytes / 2);
  if (values < 3) return false;
  let lo = Infinity, hi = -Infinity;
  for (const x of base) [lo, hi] = [Math.min(lo, x * 16), Math.max(hi, x * 16)];
  const pad = (hi - lo) / 4 + 16;
  let inside = 0, nonZero = 0;
  for (let i = 0; i < values; i++) {
    const value = view.getInt16(at + i * 2, true);
    if (value >= lo - pad && value <= hi + pad) inside++;
    if (value !== 0) nonZero++;
  }
  return inside >= 0.9 * values && nonZero >= Math.max(2, values / 5);
}

/**
 * Whether the bytes at `at` start like a header holding a name. A name filling all 32 bytes with no NUL
 * counts only when the int32 after it (a KPS, a frame count's neighbour, a sound's length) is a
 * header's — 0 to 2^24 — or the file ends before it: a text trailer longer than a name (a tool's "saved
 * by" line) reads on as text there, an int32 of four printable bytes (over 538,976,288).
 */
function headerName(view: DataView, at: number): boolean {
  if (!holdsName(view, at)) return false;
  for (let i = 0; i < NAME_BYTES; i++) if (view.getUint8(at + i) === 0) return true;
  if (at + NAME_BYTES + 4 > view.byteLength) return true;
  const next = view.getInt32(at + NAME_BYTES, true);
  return next >= 0 && next < 1 << 24;
}

/** Whether the (fewer than 256) bytes at `at` are the start of an anim→sound table of -1 entries. */
function partialTable(view: DataView, at: number): boolean {
  const left = view.byteLength - at;
  if (left >= TABLE_BYTES || left < 4) return false;
  for (let i = 0; i + 4 <= left; i += 4) if (view.getInt32(at + i, true) !== -1) return false;
  return true;
}

/**
 * Whether the `left` bytes at `at` (fewer than a name's) are a name cut short: text ended by a NUL, by
 * the rules of `holdsName` (two bytes or more, printable ASCII and Windows-1251 letters, the Cyrillic
 * ones in words of three or more, a letter among them). Random bytes appended to a file are often past
 * ASCII; taking any such byte for text read a few junk bytes and a zero as a name, the tail as a cut.
 */
function startsName(view: DataView, at: number, left: number): boolean {
  let letter = false, run = 0;
  for (let i = 0; i < left; i++) {
    const byte = view.getUint8(at + i);
    if (byte === 0) return i >= 2 && letter && (run === 0 || run >= 3);
    if (cyrillicLetter(byte)) {
      [run, letter] = [run + 1, true];
      continue;
    }
    if (run > 0 && run < 3) return false;
    run = 0;
    if (byte < 0x20 || byte > 0x7e) return false;
    if ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a) letter = true;
  }
  return false;
}

/** Whether every byte from `at` to the end of the file is zero. */
function isZeros(view: DataView, at: number): boolean {
  for (let i = at; i < view.byteLength; i++) if (view.getUint8(i) !== 0) return false;
  return true;
}

/** The first bytes at `at`, in hex, for the warning. */
function hex(view: DataView, at: number): string {
  const shown = Math.min(8, view.byteLength - at);
  const bytes = Array.from({ length: shown }, (_, i) => view.getUint8(at + i).toString(16).padStart(2, "0"));
  return bytes.join(" ") + (view.byteLength - at > shown ? " …" : "");
}
