/**
 * `.rsc` parser: the area's ground textures and its objects (each a 3DF body with its TObjInfo,
 * C2 far billboard and animation), after choosing the layout (C1 or C2) that fits the file exactly.
 * The sky, cloud map, fogs, sounds and waters are walked (so the layout is checked to the last byte)
 * and counted, not decoded.
 *
 * @module
 */
import { NameReader } from "./names.ts";
import { readableKps } from "./clip_rate.ts";
import { readBones, readFaces, readPoints, readTexture } from "./blocks.ts";
import { type CarAnimation, type Model3df, TEXTURE_ROW_BYTES } from "./model.ts";
import { fittingObjectTexture } from "./rsc_texture_fix.ts";
import { layout3df } from "./parse_3df.ts";
import {
  OBJ_ANIMATION_HEADER_BYTES,
  OF_ANIMATED,
  RSC_TILE_BYTES,
  type RscLayout,
  type RscMisfit,
  type RscVersion,
  walkRsc,
} from "./rsc_layout.ts";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** TObjInfo as stored (the games double Radius, YLo and YHi on load; these are the file's values). */
export interface ObjInfo {
  readonly radius: number;
  readonly y_lo: number;
  readonly y_hi: number;
  readonly line_length: number;
  readonly l_intensity: number;
  readonly circle_rad: number;
  readonly c_intensity: number;
  readonly flags: number;
  readonly gr_rad: number;
  readonly def_light: number;
  readonly last_ani_time: number;
  readonly bound_r: number;
}

/** One map object. */
export interface RscObject {
  readonly index: number;
  readonly info: ObjInfo;
  readonly model: Model3df;
  /** Offset of the 3DF body's header in the file. */
  readonly bodyOffset: number;
  /** The C2 far billboard: 128×128 words, row 0 first; absent in C1 files. */
  readonly billboard?: Uint16Array;
  /** The animation of an animated object (ofANIMATED), frames as stored + 1 as the games read them. */
  readonly animation?: CarAnimation;
}

/** A parsed `.rsc`. */
export interface RscFile {
  readonly layout: RscLayout;
  /** Header colours: C1 one sky and one transparency RGB; C2 dawn, day, night of each. */
  readonly skyRgb: readonly (readonly number[])[];
  readonly transparencyRgb: readonly (readonly number[])[];
  /** Ground textures, 128×128 words each, row 0 first. */
  readonly textures: readonly Uint16Array[];
  readonly objects: readonly RscObject[];
}

/** Object flag names (TObjInfo.flags), as the games' `Hunt.h` defines them. */
export const OBJECT_FLAGS: readonly [number, string][] = [
  [0x1, "place_water"],
  [0x2, "place_ground"],
  [0x4, "place_user"],
  [0x8, "circle"],
  [0x10, "bound"],
  [0x20, "no_bmp"],
  [0x40, "no_light"],
  [0x80, "def_light"],
  [0x100, "ground_light"],
  [0x200, "no_soft"],
  [0x400, "no_soft2"],
  [OF_ANIMATED, "animated"],
];

/**
 * Chooses the layout: `version` when given, else the one of C1 and C2 whose sections end exactly at
 * the end of the file. When neither does, the one layout whose sections all fit with bytes left after
 * the last (a tool appended them; the games read the sections in order and never reach them) is taken,
 * with `trailing` set. Neither, or both, is a `DecodeError` that says where each stopped fitting.
 */
export function chooseRscLayout(bytes: Uint8Array, version: "auto" | RscVersion, file?: string): RscLayout {
  const versions = version === "auto" ? ["c2", "c1"] as const : [version];
  const tried = versions.map((v) => walkRsc(bytes, v));
  const fits = tried.filter((t): t is RscLayout => "objects" in t);
  if (fits.length === 1) return fits[0];
  if (fits.length === 0) {
    // An object's texture at its written height fitting exactly is tried before bytes after the last
    // section: a wrong size field can leave a walk that fits with bytes over, reading the objects after
    // it from the wrong bytes, while appended bytes are not made to fit by another texture height.
    const repaired = objectTextureRepair(bytes, tried as RscMisfit[], file);
    if (repaired) return repaired;
    const loose = versions.map((v) => walkRsc(bytes, v, true)).filter((t): t is RscLayout => "objects" in t);
    if (loose.length === 1) return loose[0];
  }
  if (fits.length === 2) {
    throw new DecodeError({
      format: "rsc",
      at: { offset: 0 },
      expected: "a file only one of the C1 and C2 layouts fits",
      found: "both fit exactly; set the decoder's version parameter",
      file,
    });
  }
  const misfits = tried as RscMisfit[];
  const furthest = misfits.reduce((a, b) => (b.at > a.at ? b : a));
  throw new DecodeError({
    format: "rsc",
    at: { offset: furthest.at },
    expected: `a ${version === "auto" ? "C1 or C2" : version.toUpperCase()} .rsc whose sections end at the ` +
      `end of the file (${bytes.byteLength} bytes)`,
    found: misfits.map((m) =>
      `${m.version.toUpperCase()} layout at byte ${m.at}: expected ${m.expected}, found ${m.found}`
    )
      .join("; "),
    file,
  });
}

/**
 * The layout read with one object's texture at another height than its field stores, when exactly one
 * such height (over both layouts) fits the file (see `rsc_texture_fix.ts`); undefined when none does.
 * Several are a `DecodeError` naming them: the file does not say which.
 */
function objectTextureRepair(
  bytes: Uint8Array,
  misfits: readonly RscMisfit[],
  file: string | undefined,
): RscLayout | undefined {
  const searches = misfits.map((m) => fittingObjectTexture(bytes, m.version, m));
  const fixed = searches.flatMap((s) => s.kind === "fixed" ? [s.fix] : []);
  const ambiguous = searches.flatMap((s) => s.kind === "ambiguous" ? s.candidates : []);
  if (fixed.length === 1 && !ambiguous.length) {
    const { layout, object, textureBytes, storedFrames, stored, at, maxRow } = fixed[0];
    return { ...layout, textureFix: { object, textureBytes, storedFrames, stored, at, maxRow } };
  }
  const all = [...fixed, ...ambiguous];
  if (!all.length) return undefined;
  throw new DecodeError({
    format: "rsc",
    at: { offset: all[0].at },
    expected:
      "one object texture size or animation frame count with which the sections end at the end of the file",
    found: `several: ${
      all.map((c) =>
        `${c.layout.version.toUpperCase()} object ${c.object} ${
          c.storedFrames === undefined ? "texture size" : "stored frame count"
        } ${c.stored} → ${c.textureBytes ?? c.storedFrames} (field at byte ${c.at})`
      ).join("; ")
    } — the file does not tell which`,
    file,
  });
}

/**
 * Parses a `.rsc`. Bad structure is a `DecodeError` with its byte offset; an animation whose vertex
 * count is not its object's is one too (the games would read frames of the wrong size).
 *
 * @example
 * ```ts
 * const rsc = parseRsc(await Deno.readFile("AREA1.RSC"), "AREA1.RSC", "auto", console.warn);
 * console.log(rsc.layout.version, rsc.objects.length);
 * ```
 */
export function parseRsc(
  bytes: Uint8Array,
  file: string | undefined,
  version: "auto" | RscVersion,
  warn: WarningSink,
): RscFile {
  const layout = chooseRscLayout(bytes, version, file);
  if (layout.trailing) {
    const end = bytes.byteLength - layout.trailing;
    warn(
      `${layout.trailing} byte(s) after the last section (byte ${end}) are ignored, as the games ignore them ` +
        `(only the ${layout.version.toUpperCase()} layout fits the sections before them)`,
      { offset: end },
    );
  }
  const fix = layout.textureFix;
  if (fix?.storedFrames !== undefined) {
    warn(
      `object ${fix.object}: the animation's stored frame count ${fix.stored} at byte ${fix.at} (${
        fix.stored + 1
      } frames, as the games add one) does not leave the area's later sections ending at the end of the ` +
        `file (in neither layout); stored as ${fix.storedFrames} (${
          fix.storedFrames + 1
        } frames) every section ends there: read so (a converter that stores the count as a .car does, ` +
        "the frames themselves, or one edited by hand; the games read the stored count and the rest of the " +
        "area from the wrong bytes)",
      { offset: fix.at, declared: fix.stored, read: fix.storedFrames },
    );
  } else if (fix?.textureBytes !== undefined) {
    const rows = (n: number) =>
      `${n} (${Math.floor(n / TEXTURE_ROW_BYTES)} rows of ${TEXTURE_ROW_BYTES} bytes)`;
    warn(
      `object ${fix.object}: texture size ${rows(fix.stored)} at byte ${fix.at} does not leave the area's ` +
        `later sections ending at the end of the file (in neither layout); with ${
          fix.textureBytes / TEXTURE_ROW_BYTES
        } rows (${fix.textureBytes} bytes) every section ends there and its faces sample rows up to ${fix.maxRow}: ` +
        `read so (a map tool wrote the size of another picture than the texture it wrote; the games read the ` +
        "stored size and the rest of the area from the wrong bytes)",
      { offset: fix.at, declared: fix.stored, read: fix.textureBytes },
    );
  }
  const r = ByteWindow.of(bytes, "rsc", file);
  const rgb = (at: number) => [r.i32(at), r.i32(at + 4), r.i32(at + 8)];
  const sets = layout.version === "c1" ? 1 : 3;
  const skyRgb = Array.from({ length: sets }, (_, i) => rgb(8 + i * 12));
  const transparencyRgb = Array.from({ length: sets }, (_, i) => rgb(8 + sets * 12 + i * 12));
  const textures = Array.from(
    { length: layout.textureCount },
    (_, t) => words(bytes, layout.textures + t * RSC_TILE_BYTES, 128 * 128),
  );
  const objects = layout.objects.map((o, index): RscObject => {
    const at = o.info;
    const info: ObjInfo = {
      radius: r.i32(at),
      y_lo: r.i32(at + 4),
      y_hi: r.i32(at + 8),
      line_length: r.i32(at + 12),
      l_intensity: r.i32(at + 16),
      circle_rad: r.i32(at + 20),
      c_intensity: r.i32(at + 24),
      flags: r.u32(at + 28),
      gr_rad: r.i32(at + 32),
      def_light: r.i32(at + 36),
      last_ani_time: r.i32(at + 40),
      bound_r: r.f32(at + 44),
    };
    const body = layout3df(r.i32(o.body), r.i32(o.body + 4), r.i32(o.body + 8), o.textureBytes);
    const shifted = (offset: number) => o.body + offset;
    const objectWarn: WarningSink = (message, detail) => warn(`object ${index}: ${message}`, detail);
    const names = new NameReader(bytes);
    const model: Model3df = {
      faces: readFaces(r, shifted(body.faces), body.faceCount, body.vertexCount, objectWarn),
      points: readPoints(r, shifted(body.points), body.vertexCount),
      bones: readBones(r, shifted(body.bones), body.boneCount, names),
      texture: readTexture(r, shifted(body.texture), body.textureBytes, o.body + 12, objectWarn),
    };
    names.report(objectWarn);
    const billboard = o.billboard >= 0 ? words(bytes, o.billboard, 128 * 128) : undefined;
    let animation: CarAnimation | undefined;
    const vertices = o.animation >= 0 ? r.i32(o.animation + 4) : 0;
    if (o.animation >= 0 && info.flags & OF_ANIMATED && vertices !== body.vertexCount) {
      // An animation of another version of the body (a tool re-exported the model, not its .vtl): the
      // block's own count sized it, so the sections after it are read right, but its frames cannot be
      // matched to the object's points. As a .vtl of another vertex count, it is skipped.
      objectWarn(
        `the animation's vertex count ${vertices} at byte ${o.animation + 4} is not the object's ` +
          `${body.vertexCount}: its frames belong to another version of the model; the animation is skipped`,
        { offset: o.animation + 4 },
      );
    } else if (o.animation >= 0 && info.flags & OF_ANIMATED) {
      // The games add one to the stored count (LoadAnimation: vtl.FramesCount++), and the frames are there.
      const frameCount = o.storedFrames + 1;
      // A rate the games cannot time (KPS ≤ 0, AniTime 0 ms): the object and its frames kept, at 1 frame
      // per second.
      const kps = readableKps(
        r.i32(o.animation + 8),
        frameCount,
        "the animation",
        o.animation + 8,
        objectWarn,
      );
      const values = frameCount * vertices * 3;
      const positions = new Int16Array(values);
      const view = new DataView(
        bytes.buffer,
        bytes.byteOffset + o.animation + OBJ_ANIMATION_HEADER_BYTES,
        values * 2,
      );
      for (let i = 0; i < values; i++) positions[i] = view.getInt16(i * 2, true);
      animation = { name: objectName(index), kps, frameCount, positions };
    }
    return { index, info, model, bodyOffset: o.body, billboard, animation };
  });
  return { layout, skyRgb, transparencyRgb, textures, objects };
}

/** The scene name of object `index`: `obj_07` (the games' source ports name overrides `<area>_obj_07`). */
export function objectName(index: number): string {
  return `obj_${String(index).padStart(2, "0")}`;
}

/** `count` little-endian u16 words at `offset` (in range: the layout walk checked it). */
function words(bytes: Uint8Array, offset: number, count: number): Uint16Array {
  const out = new Uint16Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, count * 2);
  for (let i = 0; i < count; i++) out[i] = view.getUint16(i * 2, true);
  return out;
}
