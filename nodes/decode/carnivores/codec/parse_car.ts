/**
 * `.car` parser: header → faces → points → texture → animations → sounds → optional anim→sound
 * table (`formats/carnivores-dson.md` A.8, the engine's `LoadCharacterInfo`). Sections are read in
 * file order and each is checked against the bytes left before it is allocated, so a bad count never
 * shifts (desyncs) what follows — it stops the decode at its own offset.
 *
 * @module
 */
import { readFaces, readPoints, readTexture, warnEngineLimits } from "./blocks.ts";
import {
  ANIM_SOUND_SLOTS,
  type CarAnimation,
  type CarModel,
  type CarSound,
  FACE_BYTES,
  HEADER_CAR_BYTES,
  NAME_BYTES,
  POINT_BYTES,
  TEXTURE_ROW_BYTES,
} from "./model.ts";
import { NameReader } from "./names.ts";
import { readableKps } from "./clip_rate.ts";
import {
  ANIMATION_HEADER_BYTES,
  blankClip,
  ENGINE_MAX_CLIPS,
  SOUND_HEADER_BYTES,
  tailEnd,
} from "./car_sections.ts";
import { ANIM_SOUND_TABLE_BYTES, declaredEnds, sectionCounts, textureSize } from "./car_repair.ts";
import { clipVertexCount } from "./clip_vertices.ts";
import { zeroTable } from "./car_zero_table.ts";
import { type CutClip, MAX_TOOL_FRAMES, warnCutOnFrame, wholeFramesAtCut } from "./car_cut_clip.ts";
import { ClipWarnings } from "./clip_warnings.ts";
import { ByteWindow, latin1 } from "../../../../runtime/binary.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/**
 * True when the bytes are certainly a `.car`: positive vertex and face counts, whole texture rows,
 * at most 64 animations and sounds, and the section sizes end exactly at the end of the file or 256
 * bytes (the anim→sound table) before it (a clip's KPS may be damaged). Walks only the section headers.
 *
 * @example
 * ```ts
 * if (isCar(bytes)) console.log("a Carnivores character");
 * ```
 */
export function isCar(bytes: Uint8Array): boolean {
  const size = bytes.byteLength;
  if (size < HEADER_CAR_BYTES) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, size);
  const i32 = (at: number) => view.getInt32(at, true);
  const [anims, sounds, v, f, t] = [32, 36, 40, 44, 48].map(i32);
  if (anims < 0 || anims > ENGINE_MAX_CLIPS || sounds < 0 || sounds > ENGINE_MAX_CLIPS) return false;
  if (v <= 0 || f <= 0 || t < 0 || t % TEXTURE_ROW_BYTES !== 0) return false;
  // A negative KPS where the counts put a header is a damaged field the decoder repairs (clip_rate.ts);
  // the sections still end exactly where they must.
  const end = tailEnd(view, HEADER_CAR_BYTES + f * FACE_BYTES + v * POINT_BYTES + t, v, anims, sounds, {
    negativeKps: true,
  });
  return end >= 0 && (end === size || end + ANIM_SOUND_TABLE_BYTES === size);
}

/**
 * Parses a `.car` file. Bad structure throws a `DecodeError` with the byte offset; what the engine
 * tolerates (partial texture rows, a missing or short anim→sound table, trailing bytes, a file cut
 * short after its points) is a warning.
 *
 * @example
 * ```ts
 * const model = parseCar(await Deno.readFile("allo.car"), "allo.car", console.warn);
 * console.log(model.name, model.animations.map((a) => a.name));
 * ```
 */
export function parseCar(bytes: Uint8Array, file: string | undefined, warn: WarningSink): CarModel {
  const r = ByteWindow.of(bytes, "car", file);
  r.need(0, HEADER_CAR_BYTES, "car header");
  const names = new NameReader(bytes);
  const { name, msc } = splitModelName(bytes.subarray(0, NAME_BYTES), names);
  const declaredAnimations = r.count(32, "animation count");
  const declaredSounds = r.count(36, "sound count");
  const vertexCount = r.count(40, "vertex count");
  const faceCount = r.count(44, "face count");
  const declaredTexture = r.count(48, "texture size");

  const facesAt = HEADER_CAR_BYTES;
  const pointsAt = facesAt + faceCount * FACE_BYTES;
  const textureAt = pointsAt + vertexCount * POINT_BYTES;
  r.need(facesAt, faceCount * FACE_BYTES, `${faceCount} faces`);
  r.need(pointsAt, vertexCount * POINT_BYTES, `${vertexCount} points`);
  warnEngineLimits(vertexCount, faceCount, 40, 44, warn);
  if (declaredAnimations > ENGINE_MAX_CLIPS || declaredSounds > ENGINE_MAX_CLIPS) {
    warn(
      `${declaredAnimations} animations / ${declaredSounds} sounds exceed the engine's ${ENGINE_MAX_CLIPS}; ` +
        "decoded anyway",
      { offset: 32 },
    );
  }

  const textureBytes = textureSize({
    bytes,
    textureAt,
    declared: declaredTexture,
    vertexCount,
    animations: declaredAnimations,
    sounds: declaredSounds,
  }, warn);
  const faces = readFaces(r, facesAt, faceCount, vertexCount, warn);
  const points = readPoints(r, pointsAt, vertexCount);
  const texture = readTexture(r, textureAt, textureBytes, 48, warn);
  // Clips of another vertex count than the model's (its mesh edited after them) with several clips
  // whose headers all hold names are read so before any count is corrected: with that count the
  // stored counts fit as they are. One clip's may also be a wrong frame count: those are tried first.
  const tailAt = textureAt + textureBytes;
  const vouched = declaredAnimations > 1
    ? frameVertexCount(bytes, tailAt, vertexCount, declaredAnimations, declaredSounds, points.positions, true)
    : undefined;
  const { animationCount, soundCount, frameFixes, appendedAt } = vouched === undefined
    ? sectionCounts({
      bytes,
      at: tailAt,
      vertexCount,
      animations: declaredAnimations,
      sounds: declaredSounds,
      base: points.positions,
    }, warn)
    : {
      animationCount: declaredAnimations,
      soundCount: declaredSounds,
      frameFixes: undefined,
      appendedAt: undefined,
    };
  const unchanged = !frameFixes && animationCount === declaredAnimations && soundCount === declaredSounds;
  const stride = vouched ??
    (unchanged
      ? frameVertexCount(bytes, tailAt, vertexCount, animationCount, soundCount, points.positions, false)
      : undefined) ??
    vertexCount;
  if (stride !== vertexCount) warnFrameVertices(tailAt, vertexCount, stride, warn);

  // Past the texture, a file that ends inside a section was cut short (by an old tool or a download):
  // the engine and C3Dit read on into zeroed buffers and CarnivoresIO skips the clip, so the whole
  // clips before the cut are kept and the rest is reported as missing, never read from elsewhere.
  const cutShort = (what: string, at: number, clipsLost: number, soundsLost: number, detail: string) => {
    const lost = [
      clipsLost ? `${clipsLost} animation(s)` : "",
      soundsLost ? `${soundsLost} sound(s)` : "",
    ].filter(Boolean).join(" and ");
    warn(
      `the file ends at byte ${r.length}, inside ${what} at byte ${at}: ${detail}` +
        (lost ? `; the ${lost} declared after it are missing` : "") +
        " (the file is cut short, or a count before the cut is wrong)",
      { offset: at },
    );
  };
  let at = textureAt + textureBytes;
  // readTexture has reported a texture the file ends inside; what was declared after it is lost too.
  let ended = at > r.length;
  if (ended && animationCount + soundCount > 0) {
    cutShort("the texture", textureAt, animationCount, soundCount, "nothing follows it");
  }
  const animations: CarAnimation[] = [];
  // Clips sharing a fault (64 empty names, KPS 0 throughout) are one warning per kind, not one per clip.
  const clipWarnings = new ClipWarnings(warn);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blanks: number[] = [];
  const headerAt: number[] = [];
  for (let a = 0; a < animationCount && !ended; a++) {
    if (at + ANIMATION_HEADER_BYTES > r.length) {
      cutShort(`the header of animation ${a}`, at, animationCount - a - 1, soundCount, "it is missing");
      ended = true;
      break;
    }
    const clipName = names.read(at, NAME_BYTES, `animation ${a} name`);
    let frameCount = frameFixes?.find((f) => f.clip === a)?.frames ??
      r.count(at + NAME_BYTES + 4, `animation ${a} frame count`);
    const dataAt = at + ANIMATION_HEADER_BYTES;
    if (dataAt + frameCount * stride * 6 > r.length) {
      const cut: CutClip = {
        clip: a,
        name: clipName,
        headerAt: at,
        dataAt,
        frames: frameCount,
        frameBytes: stride * 6,
        fileBytes: r.length,
        clipsAfter: animationCount - a - 1,
        soundsAfter: soundCount,
      };
      ended = true;
      // Ending on a frame boundary, cut or counts edited, the frames there are the clip's: kept.
      const whole = wholeFramesAtCut(cut);
      if (whole > 0) {
        warnCutOnFrame(cut, whole, warn);
        frameCount = whole;
      } else {
        const values = frameCount * stride * 3;
        cutShort(
          `animation ${a} ('${clipName}')`,
          at,
          animationCount - a - 1,
          soundCount,
          `its ${frameCount} frames × ${vertexCount} vertices need ${values * 2} bytes, ` +
            `${r.length - dataAt} are left; the clip is dropped` +
            // A count no tool writes, for a clip more than twice the whole file, is no clip a cut lost:
            // the header is damaged or read from elsewhere, and no repair of the counts was certain.
            (frameCount > MAX_TOOL_FRAMES && values * 2 > 2 * r.length
              ? ` (${frameCount} frames is a count no tool writes: the count is damaged, or the header is read ` +
                "from elsewhere — bytes appended, a count before it wrong — and no repair of the counts fits " +
                "with certainty)"
              : ""),
        );
        break;
      }
    }
    const values = frameCount * stride * 3;
    // A rate the game cannot time (KPS ≤ 0, AniTime 0 ms): the frames are whole; read at 1 frame per second.
    const clipWarn = clipWarnings.sink(`${a}`);
    const kps = readableKps(
      r.i32(at + NAME_BYTES),
      frameCount,
      `animation ${a} ('${clipName}')`,
      at + NAME_BYTES,
      clipWarn,
    );
    if (frameCount === 0) {
      clipWarn(`animation '${clipName}' has no frames; it is skipped`, { offset: at + NAME_BYTES + 4 });
    }
    if (!clipName.trim()) {
      clipWarn(`animation ${a} has an empty name; it is called 'anim${a}' in the scene`, { offset: at });
    }
    const positions = stride === vertexCount
      ? Int16Array.from({ length: values }, (_, i) => r.i16(dataAt + i * 2))
      : restrideFrames(r, dataAt, frameCount, stride, points.positions);
    animations.push({ name: clipName, kps, frameCount, positions });
    headerAt.push(at);
    if (frameCount === 0 && r.i32(at + NAME_BYTES) === 0 && blankClip(view, at)) blanks.push(a);
    at = dataAt + values * 2;
  }

  // Blank headers (no name, KPS 0, no frames) ending the clip list are zeros where the count puts
  // clips — a count raised for clips never added, over a tail of zeros — not clips: left out, named once.
  let first = animations.length;
  while (first > 0 && blanks.includes(first - 1)) first--;
  if (first < animations.length && first < animationCount) {
    const dropped = animations.length - first;
    clipWarnings.forget(Array.from({ length: dropped }, (_, i) => `${first + i}`));
    animations.length = first;
    warn(
      `animation${
        dropped > 1 ? `s ${first}..${first + dropped - 1}` : ` ${first}`
      } of the ${animationCount} ` +
        `declared ${dropped > 1 ? "are blank headers" : "is a blank header"} from byte ${
          headerAt[first]
        } — no name, KPS 0, no frames: zeros where the count puts clips (a count raised for clips never ` +
        "added, zeros after the file, or a wrong frame count before them), not clips; left out",
      { offset: headerAt[first], declared: animationCount, read: first },
    );
  }
  clipWarnings.flush();

  const sounds: CarSound[] = [];
  for (let s = 0; s < soundCount && !ended; s++) {
    if (at + SOUND_HEADER_BYTES > r.length) {
      cutShort(`the header of sound ${s}`, at, 0, soundCount - s - 1, "it is missing");
      ended = true;
      break;
    }
    const soundName = names.read(at, NAME_BYTES, `sound ${s} name`);
    const length = r.count(at + NAME_BYTES, `sound ${s} length`);
    const start = at + SOUND_HEADER_BYTES;
    const present = Math.min(length, r.length - start);
    if (present < length) {
      // The PCM is not carried into glTF; its description keeps the bytes the file holds.
      cutShort(
        `sound ${s} ('${soundName}')`,
        at,
        0,
        soundCount - s - 1,
        `${present} of its ${length} bytes are there and kept`,
      );
      ended = true;
    }
    sounds.push({ name: soundName, pcm: bytes.subarray(start, start + present) });
    at = start + present;
  }

  names.report(warn);
  // Bytes taken as appended (named by the repair that took them so) are no table and not warned again.
  const animSounds = ended
    ? undefined
    : appendedAt === undefined && zeroTable(view, at, soundCount, warn)
    ? undefined
    : readAnimSoundTable(r, at, appendedAt ?? r.length, soundCount, warn);
  return { name, msc, faces, points, texture, animations, sounds, animSounds };
}

/**
 * The vertex count each clip's frames hold when the declared sections end nowhere right with the
 * model's and exactly one other count makes them (`clip_vertices.ts`); undefined otherwise.
 */
function frameVertexCount(
  bytes: Uint8Array,
  at: number,
  vertexCount: number,
  animations: number,
  sounds: number,
  base: Float32Array,
  named: boolean,
): number | undefined {
  if (at > bytes.length) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = tailEnd(view, at, vertexCount, animations, sounds, { negativeKps: true });
  if (declaredEnds(view, end, { at, vertexCount, animations, sounds })) return undefined;
  const search = { view, at, vertexCount, animations, sounds, tableBytes: ANIM_SOUND_TABLE_BYTES, base };
  return clipVertexCount(search, named);
}

/** Names clips read with `stride` vertices a frame for a model of `vertexCount` points. */
function warnFrameVertices(at: number, vertexCount: number, stride: number, warn: WarningSink): void {
  const kept = Math.min(stride, vertexCount);
  warn(
    `the clips' frames hold ${stride} vertices each, the model ${vertexCount}: with ${stride} every clip and ` +
      `sound ends exactly at the end of the file (or at the anim→sound table) and the frames track the ` +
      `model's points, with ${vertexCount} they do not (the mesh was edited after the clips were made). ` +
      `Each frame's first ${kept} vertices are read as the model's` +
      (stride < vertexCount ? `, points ${stride}..${vertexCount - 1} stay at rest` : "") +
      ` — right only if the points removed or added were the last ones; the game reads ${vertexCount} a ` +
      "frame and plays the frames shifted",
    { offset: at, vertices: vertexCount, frame_vertices: stride },
  );
}

/**
 * Frames of `stride` vertices at `at` as frames of the model's points (`base`, file units): the first
 * `min(stride, points)` vertices of each, and points past the frames at rest (×16, as frames store).
 */
function restrideFrames(
  r: ByteWindow,
  at: number,
  frames: number,
  stride: number,
  base: Float32Array,
): Int16Array {
  const points = base.length / 3, kept = Math.min(stride, points);
  const out = new Int16Array(frames * points * 3);
  for (let f = 0; f < frames; f++) {
    for (let v = 0; v < points; v++) {
      for (let k = 0; k < 3; k++) {
        out[(f * points + v) * 3 + k] = v < kept
          ? r.i16(at + ((f * stride + v) * 3 + k) * 2)
          : Math.max(-32768, Math.min(32767, Math.round(base[v * 3 + k] * 16)));
      }
    }
  }
  return out;
}

/**
 * The model name field: the name before its first NUL, and the `"msc: N"` tail stored in the field by
 * convention — at byte 24 in Carnivores and Carnivores 2 files, at byte 20 in many Ice Age ones
 * (`Bear.car`: `"msc: 4\0: 5"`). A name that reaches the tail has no NUL before it, so the two run
 * together ("Tyrannosaurus Rex Femalemsc: 3"); they are split where the tail starts. The tail ends at
 * its own NUL, and a field without `"msc:"` (EXPLO.CAR holds binary there) has no tail. The name's
 * bytes are decoded by `names` (a mod's Cyrillic name is Windows-1251); `field` starts the file.
 */
export function splitModelName(field: Uint8Array, names: NameReader): { name: string; msc: string } {
  // The whole field, NULs included, so a tail after the name's NUL is found too.
  let raw = "";
  for (const byte of field) raw += String.fromCharCode(byte);
  const end = raw.indexOf("\0") < 0 ? raw.length : raw.indexOf("\0");
  // Not at byte 0: a field that is only a tail is a name ("msc: 1"), not an empty name.
  const tailAt = raw.slice(1).search(/msc:/i) + 1;
  const name = (length: number) => names.decode(field.subarray(0, length), 0, "model name");
  if (tailAt <= 0) return { name: name(end), msc: "" };
  return { name: name(Math.min(end, tailAt)), msc: latin1(field.subarray(tailAt)) };
}

/** More anim→sound entries naming no sound than this are one warning: the bytes are not a table. */
const MAX_ENTRY_WARNINGS = 8;

/** The optional table after the sounds; the engine fills -1 when fewer than 256 bytes remain. */
function readAnimSoundTable(
  r: ByteWindow,
  at: number,
  end: number,
  soundCount: number,
  warn: WarningSink,
): Int32Array | undefined {
  const left = end - at;
  if (left === 0) return undefined;
  if (left < ANIM_SOUND_TABLE_BYTES) {
    warn(
      `${left} byte(s) after the sounds are too few for the anim→sound table ` +
        `(${ANIM_SOUND_TABLE_BYTES}); ignored, no clip has a sound (as in the engine)`,
      { offset: at },
    );
    return undefined;
  }
  if (left > ANIM_SOUND_TABLE_BYTES) {
    warn(`${left - ANIM_SOUND_TABLE_BYTES} byte(s) after the anim→sound table are ignored`, {
      offset: at + ANIM_SOUND_TABLE_BYTES,
    });
  }
  const table = new Int32Array(ANIM_SOUND_SLOTS);
  const bad: number[] = [];
  for (let i = 0; i < ANIM_SOUND_SLOTS; i++) {
    table[i] = r.i32(at + i * 4);
    if (table[i] < -1 || table[i] >= soundCount) bad.push(i);
  }
  // Bytes a tool appended (or junk) read as the table name no sound in most entries: one warning
  // says so, rather than one per entry (64 for a table of junk).
  if (bad.length > MAX_ENTRY_WARNINGS) {
    warn(
      `the ${ANIM_SOUND_TABLE_BYTES} bytes at byte ${at}, where the anim→sound table goes, name no sound of ` +
        `the file's ${soundCount} in ${bad.length} of ${ANIM_SOUND_SLOTS} entries (${
          bad.slice(0, 3).map((i) => `entry ${i} = ${table[i]}`).join(", ")
        }, …): not a table the file's tools wrote (appended bytes?); those entries are treated as none`,
      { offset: at, entries: bad.length },
    );
    return table;
  }
  for (const i of bad) {
    warn(`anim→sound entry ${i} names sound ${table[i]}, but the file has ${soundCount}; treated as none`, {
      offset: at + i * 4,
    });
  }
  return table;
}
