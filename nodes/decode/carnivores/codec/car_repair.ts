/**
 * Repairs of a `.car` whose sections after the points do not end at the end of the file (nor at the
 * anim→sound table) as declared: another texture size, other clip and sound counts, or corrected frame
 * counts (`car_texture_rows.ts`, `car_fitting_counts.ts` and `car_frame_counts.ts` search them; the
 * last passes are `car_two_counts.ts` and `car_appended.ts`; stored counts that fit may still hide a
 * sound, `car_hidden_sound.ts`, the anim→sound table read as a frame, `car_table_frame.ts`, or a padded
 * file's zeros read as one, `car_padding_frame.ts`, or a sound's header taken in by the last clip,
 * `car_unnamed_sound.ts`), each
 * read with a warning naming the field, both values and why; an ambiguous search is named and the
 * declared values read.
 *
 * @module
 */
import { ANIM_SOUND_SLOTS, TEXTURE_ROW_BYTES } from "./model.ts";
import { type SectionSearch, tailEnd } from "./car_sections.ts";
import { sectionEnds, soundHeaderInPadding, TRAILING_ZEROS, validTable } from "./car_section_ends.ts";
import { fittingCounts } from "./car_fitting_counts.ts";
import { fittingFrameCounts, type FrameCountFix } from "./car_frame_counts.ts";
import { fittingTextureRows } from "./car_texture_rows.ts";
import { MAX_EACH } from "./clip_warnings.ts";
import { appendedRepair } from "./car_appended.ts";
import { twoCountRepair } from "./car_two_counts.ts";
import { hiddenSound } from "./car_hidden_sound.ts";
import { tableFrameRepair } from "./car_table_frame.ts";
import { tableSound } from "./car_table_sound.ts";
import { paddingFrameRepair } from "./car_padding_frame.ts";
import { unnamedSoundRepair } from "./car_unnamed_sound.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** Bytes of the optional animation → sound table. */
export const ANIM_SOUND_TABLE_BYTES = ANIM_SOUND_SLOTS * 4;

/** Where the declared sections start and their counts, for {@link declaredEnds}'s checks of a padded file. */
export type DeclaredWalk = Pick<SectionSearch, "at" | "vertexCount" | "animations" | "sounds">;

/**
 * Whether the declared sections, ending at `end`, end the file (or its padding), with or without the
 * anim→sound table after them — its entries are the table reader's to check, unless only the padding's
 * zeros let it end the file. Given the declared `walk`, a padded file's declared sounds must not start in
 * the padding: a sound header of zeros there is a sound a frame count stored too high pushed past the file.
 */
export function declaredEnds(view: DataView, end: number, walk?: DeclaredWalk): boolean {
  if (end < 0) return false;
  const ends = sectionEnds(view);
  if (walk && ends.length > 1 && soundInPadding(view, walk)) return false;
  // A last section ending in zero bytes puts where the padding seems to start before its end: the
  // declared sections ending anywhere in the padding's zeros end the file too.
  const inPadding = (e: number) => ends.length > 1 && e >= ends[1] && e <= ends[0];
  if (ends.some((e) => end === e || end + ANIM_SOUND_TABLE_BYTES === e) || inPadding(end)) return true;
  // A "table" whose last bytes are the padding's zeros: only a valid one ends the file there — a clip's
  // last frame stored one short, read where the table goes, is frame data running into the padding.
  return inPadding(end + ANIM_SOUND_TABLE_BYTES) &&
    (!walk || validTable(view, end, ANIM_SOUND_TABLE_BYTES, walk.sounds));
}

/** Whether a sound header the declared counts put is read from the file's padding (`soundHeaderInPadding`). */
function soundInPadding(view: DataView, walk: DeclaredWalk): boolean {
  let at = tailEnd(view, walk.at, walk.vertexCount, walk.animations, 0, { negativeKps: true });
  for (let s = 0; s < walk.sounds && at >= 0; s++) {
    if (soundHeaderInPadding(view, at)) return true;
    at = tailEnd(view, at, 0, 0, 1);
  }
  return false;
}

/** What {@link textureSize} searches: the file, where its texture starts and the header's counts. */
export interface TextureSizeSearch {
  readonly bytes: Uint8Array;
  /** The texture's first byte. */
  readonly textureAt: number;
  /** The texture size the header declares (bytes). */
  readonly declared: number;
  /** The model's vertex count (each frame holds as many). */
  readonly vertexCount: number;
  /** The declared clip and sound counts. */
  readonly animations: number;
  readonly sounds: number;
}

/**
 * The texture's size: the declared one, unless the sections after it do not end at the end of the file
 * (nor at the anim→sound table), no corrected clip or sound count or frame count makes them, and
 * exactly one other whole number of rows does (see `fittingTextureRows`) — then that, with a warning.
 * Several such heights are named in a warning and the declared size is read.
 */
export function textureSize(texture: TextureSizeSearch, warn: WarningSink): number {
  const { bytes, textureAt, declared, vertexCount, animations, sounds } = texture;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = textureAt + declared;
  const search: SectionSearch = {
    view,
    at,
    vertexCount,
    animations,
    sounds,
    tableBytes: ANIM_SOUND_TABLE_BYTES,
  };
  if (at <= bytes.length) {
    const end = tailEnd(view, at, vertexCount, animations, sounds, { negativeKps: true });
    if (declaredEnds(view, end, search)) return declared;
    if (fittingCounts(search)) return declared;
    if (fittingFrameCounts(search).kind !== "none") return declared;
  }
  const rows = fittingTextureRows(search, declared);
  if (rows.length === 0) return declared;
  const declaredRows = `${declared} (${
    Math.floor(declared / TEXTURE_ROW_BYTES)
  } rows of ${TEXTURE_ROW_BYTES} bytes)`;
  if (rows.length > 1) {
    warn(
      `texture size ${declaredRows} at byte 48 does not leave the clips and sounds ending at the end of the ` +
        `file, and more than one other height does (${
          rows.join(", ")
        } rows): the file does not tell which, ` +
        "so the declared size is read",
      { offset: 48, rows },
    );
    return declared;
  }
  warn(
    `texture size ${declaredRows} at byte 48 does not leave the clips and sounds ending at the end of the file ` +
      `(the game reads the size and takes texels for clips, or clips for texels); with ${rows[0]} rows ` +
      `(${
        rows[0] * TEXTURE_ROW_BYTES
      } bytes) every section ends there: read so (a converter wrote the size ` +
      "of another picture than the texture it wrote)",
    { offset: 48, declared, read: rows[0] * TEXTURE_ROW_BYTES },
  );
  return rows[0] * TEXTURE_ROW_BYTES;
}

/** What {@link sectionCounts} searches: the file, where its first clip starts and the header's counts. */
export interface SectionCountSearch {
  readonly bytes: Uint8Array;
  /** The first clip header's byte (the texture's end). */
  readonly at: number;
  /** The model's vertex count (each frame holds as many). */
  readonly vertexCount: number;
  /** The declared clip and sound counts. */
  readonly animations: number;
  readonly sounds: number;
  /** The model's points (file units): lets the searches ask whether frames track them. */
  readonly base?: Float32Array;
}

/**
 * The clip and sound counts to read: the declared ones, unless their sections do not end at the file's
 * end (or at the anim→sound table) and other counts' do (see `car_fitting_counts.ts`) — then those, with a
 * warning naming both. The game reads the declared counts and plays what follows as the wrong section.
 */
export function sectionCounts(counts: SectionCountSearch, warn: WarningSink): {
  animationCount: number;
  soundCount: number;
  frameFixes?: readonly FrameCountFix[];
  /** Where bytes taken as appended to the file start (see `car_appended.ts`). */
  appendedAt?: number;
} {
  const { bytes, at, vertexCount, animations: declaredAnimations, sounds: declaredSounds, base } = counts;
  const declared = { animationCount: declaredAnimations, soundCount: declaredSounds };
  if (at > bytes.length) return declared;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const exact: SectionSearch = {
    view,
    at,
    vertexCount,
    animations: declaredAnimations,
    sounds: declaredSounds,
    tableBytes: ANIM_SOUND_TABLE_BYTES,
    base,
  };
  const end = tailEnd(view, at, vertexCount, declaredAnimations, declaredSounds, { negativeKps: true });
  // The declared counts fit; the last clip's final frames may still be a sound a lowered sound count
  // left out and a raised frame count took in (car_hidden_sound.ts).
  // With no sounds, the last clip's final frame may be the anim→sound table and padding a count one too
  // high took in (car_table_frame.ts).
  if (declaredEnds(view, end, exact)) {
    const sections = exact;
    return hiddenSound(sections, warn) ?? tableFrameRepair(sections, warn) ?? tableSound(sections, warn) ??
      paddingFrameRepair(sections, warn) ?? unnamedSoundRepair(sections, warn) ?? declared;
  }
  // A sound where the table goes, its "table" running into the padding (car_table_sound.ts): read as
  // before, though such bytes no longer let the declared counts end the file.
  const sound = declaredEnds(view, end) ? tableSound(exact, warn) : undefined;
  if (sound) return sound;
  const left = end < 0 ? "one runs past it or has a bad header" : `${bytes.length - end} byte(s) are left`;
  // Readings ending exactly where a padded file's zeros start first; only when none does, readings whose
  // last section ends in a few zero bytes of its own (a wider window takes chance fits: a sound a few bytes
  // short of a whole frame, swallowed by a count stored one too high).
  const sections = fittingCounts(exact) || fittingFrameCounts(exact).kind !== "none"
    ? exact
    : { ...exact, trailingZeros: TRAILING_ZEROS };
  const fit = fittingCounts(sections);
  if (!fit) {
    const search = fittingFrameCounts(sections);
    const counts = (fixes: readonly FrameCountFix[]) =>
      fixes.map((f) => `animation ${f.clip} ${f.stored} → ${f.frames}`).join(", ");
    if (search.kind === "ambiguous") {
      // Equally few corrections fit more than one way: the file does not say which, so none is read.
      warn(
        `the clips' sections do not end at the end of the file (${left}); corrected frame counts make ` +
          `them end there (or at the anim→sound table) in more than one way (${
            search.candidates.map(counts).join("; or ")
          }): the file does not tell which, so the stored counts are read`,
        { offset: at, candidates: search.candidates.map((c) => c.map((f) => [f.clip, f.frames])) },
      );
      return declared;
    }
    // Two counts damaged (a clip or sound count and a frame count), or bytes appended to the file as
    // well: the last passes take them so when the file vouches for one reading.
    if (search.kind === "none") {
      return twoCountRepair(sections, warn) ?? appendedRepair(sections, warn) ?? declared;
    }
    if (search.fixes.length > MAX_EACH) {
      // Every clip corrected alike (one habit over the file): one warning, not one per clip.
      const changes = [...new Set(search.fixes.map((f) => f.frames - f.stored))];
      warn(
        `${search.fixes.length} animations' stored frame counts do not let the sections end at the end of ` +
          `the file (${left}); read at their stored count ${
            changes.map((c) => (c > 0 ? `+${c}` : `${c}`)).join(" or ")
          } (${counts(search.fixes.slice(0, 4))}${search.fixes.length > 4 ? ", …" : ""}; first at byte ${
            search.fixes[0].at
          }) they do (or at the anim→sound table): read so (a tool that stores every count as a .rsc ` +
          "does, one less than the frames; the game takes each next clip's header from frame data)",
        {
          offset: search.fixes[0].at,
          clips: search.fixes.length,
          change: changes.length === 1 ? changes[0] : null,
        },
      );
      return { ...declared, frameFixes: search.fixes };
    }
    // The last clip's count, as stored or as corrected, may take in a sound the sound count left out
    // (both edited by hand): read with that sound instead; its warning follows the corrections'.
    const held: [string, Parameters<WarningSink>[1]][] = [];
    const hidden = hiddenSound(sections, (message, detail) => held.push([message, detail]), search.fixes);
    const fixes = hidden?.frameFixes ?? search.fixes;
    for (const fix of fixes) {
      // The KPS beside it may be damaged too: the count is then decided by the data's size alone.
      const kps = view.getInt32(fix.at - 4, true);
      const damaged = kps < 0
        ? ` (its KPS ${kps} is damaged as well; the count is decided by the frame data's size alone, not by KPS)`
        : "";
      warn(
        `animation ${fix.clip} stores ${fix.stored} frame(s) at byte ${fix.at}, but the sections ` +
          `do not end at the end of the file (${left}); with ${fix.frames} frames${
            fixes.length > 1 ? ` (and ${counts(fixes.filter((f) => f !== fix))})` : ""
          }${hidden ? " and the sound below" : ""} they do (or at the anim→sound table)${damaged}: read so ` +
          "(the game reads the stored count and takes the next section's header from frame data — a count " +
          "stored as a .rsc stores it, one less than the frames, or edited by hand)",
        { offset: fix.at, stored: fix.stored, read: fix.frames },
      );
    }
    for (const [message, detail] of held) warn(message, detail);
    return hidden ?? { ...declared, frameFixes: search.fixes };
  }
  // Fewer sounds than declared fit because the last clip's frame count, raised too, took in a sound:
  // read with the header's sound count and the clip one frame shorter (car_hidden_sound.ts vouches).
  const hidden = fit.sounds < declaredSounds
    ? hiddenSound({ ...sections, animations: fit.animations, sounds: fit.sounds }, () => {})
    : undefined;
  if (hidden && hidden.soundCount === declaredSounds) {
    const fix = hidden.frameFixes.find((f) => f.clip === fit.animations - 1);
    warn(
      `the header declares ${declaredAnimations} animation(s) and ${declaredSounds} sound(s), but their ` +
        `sections do not end at the end of the file (${left}); ${fit.animations} animation(s) and ${fit.sounds} ` +
        `sound(s) end there only by reading the last sound as animation ${
          fit.animations - 1
        }'s last frame(s)` +
        (fix
          ? ` (its count at byte ${fix.at} stores ${fix.stored}, the frames before the sound are ${fix.frames})`
          : "") +
        `: read as ${fit.animations} animation(s) with ${declaredSounds} sound(s), the declared sound count ` +
        "(a clip count raised by hand, and the last clip's frame count raised over the sound's bytes)",
      {
        offset: 32,
        declared: [declaredAnimations, declaredSounds],
        read: [fit.animations, declaredSounds],
        other: [fit.animations, fit.sounds],
      },
    );
    return hidden;
  }
  warn(
    `the header declares ${declaredAnimations} animation(s) and ${declaredSounds} sound(s), but their ` +
      `sections do not end at the end of the file (${
        end < 0 ? "one runs past it or has a bad header" : `${bytes.length - end} byte(s) are left`
      }); ${fit.animations} animation(s) and ${fit.sounds} sound(s) end exactly at ${
        fit.table ? "the anim→sound table" : "the end"
      }: read so (the game reads the declared counts and takes what follows for the wrong section — ` +
      "a count edited by hand or by a tool, or a file cut where a section ends)",
    { offset: 32, declared: [declaredAnimations, declaredSounds], read: [fit.animations, fit.sounds] },
  );
  return { animationCount: fit.animations, soundCount: fit.sounds };
}
