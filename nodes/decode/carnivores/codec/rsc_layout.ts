/**
 * The section layout of a Carnivores `.rsc` (area resources), walked from its counts without
 * allocating, for Carnivores (C1) and Carnivores 2 / Ice Age (C2) — the file does not say which game
 * wrote it (`formats/carnivores-dson.md` A.9; the games' `LoadResources`; webcarnivores `rsc.ksy`;
 * Omnivores `rsc.rs`):
 *
 * | section | C1 | C2 |
 * | --- | --- | --- |
 * | header | texture count, object count, sky RGB, sky-transparency RGB (32 B) | counts, dawn/day/night × the two RGBs (80 B) |
 * | ground textures | count × 128×128 u16 | same |
 * | objects | per object: 64-byte TObjInfo, a 3DF body (bones included), if `flags & 0x80000000` an animation (two vertex counts, KPS, stored frames F, (F+1)·V·6 bytes) | the same with a 128×128 u16 far billboard after the body |
 * | sky | one 256×256 u16 | three (dawn, day, night) |
 * | cloud map | 128×128 bytes | same |
 * | fogs | count, 20 B each | same |
 * | random sounds | count, each length + PCM | same |
 * | ambient sounds | count, each length + PCM + 16 × 16-byte TRD + 2 int32 | same |
 * | waters | — | count, 16 B each |
 *
 * A layout fits when every section lies inside the file and the last ends exactly at its end.
 *
 * @module
 */
import { BONE_BYTES, FACE_BYTES, HEADER_3DF_BYTES, POINT_BYTES } from "./model.ts";

/** Which game's layout. */
export type RscVersion = "c1" | "c2";

/** Bytes of a ground texture and of a C2 far billboard: 128×128 X1R5G5B5 words. */
export const RSC_TILE_BYTES = 128 * 128 * 2;
/** Bytes of one sky texture: 256×256 words. */
export const RSC_SKY_BYTES = 256 * 256 * 2;
/** Bytes of the cloud map: 128×128 bytes. */
export const RSC_CLOUD_MAP_BYTES = 128 * 128;
/** Bytes of an object's TObjInfo record. */
export const OBJ_INFO_BYTES = 64;
/** Bytes of an object animation's header: two vertex counts, KPS, stored frame count. */
export const OBJ_ANIMATION_HEADER_BYTES = 16;
/** `TObjInfo.flags` bit of animated objects (ofANIMATED). */
export const OF_ANIMATED = 0x80000000;

/** Bytes of one fog record. */
export const FOG_BYTES = 20;
const AMBIENT_TAIL_BYTES = 16 * 16 + 8;
const WATER_BYTES = 16;

/**
 * Where a walk stops fitting, thrown inside `walkRsc` and caught there. Not an `Error`: the texture
 * search (`rsc_texture_fix.ts`) walks many times, and an `Error` records a stack trace each time.
 */
class Misfit {
  constructor(readonly at: number, readonly expected: string, readonly found: string) {}
}

/** Header bytes of each layout. */
export function rscHeaderBytes(version: RscVersion): number {
  return version === "c1" ? 8 + 6 * 4 : 8 + 18 * 4;
}

/** Where one object's parts lie. */
export interface RscObjectLayout {
  /** Offset of its TObjInfo. */
  readonly info: number;
  /** Offset of its 3DF body (the 16-byte header). */
  readonly body: number;
  /** Offset of its far billboard (C2), or -1. */
  readonly billboard: number;
  /** Offset of its animation block, or -1. */
  readonly animation: number;
  /** One past its last byte. */
  readonly end: number;
  /** The texture bytes its body is read with (the stored size unless a repair read another). */
  readonly textureBytes: number;
  /** Its animation's frame count as stored (frames − 1; unless a repair read another), or -1. */
  readonly storedFrames: number;
}

/** A layout that fits the file. */
export interface RscLayout {
  readonly version: RscVersion;
  readonly textureCount: number;
  readonly objectCount: number;
  /** Offset of the first ground texture. */
  readonly textures: number;
  readonly objects: readonly RscObjectLayout[];
  /** Offset of the sky texture(s). */
  readonly sky: number;
  /** Counts of the sections after the cloud map. */
  readonly fogs: number;
  readonly randomSounds: number;
  readonly ambientSounds: number;
  readonly waters: number;
  /** Bytes after the last section (only with `allowTrailing`; the games never read them). */
  readonly trailing?: number;
  /** An object's texture size read instead of its stored one (set by `chooseRscLayout`). */
  readonly textureFix?: RscTextureFix & {
    readonly stored: number;
    readonly at: number;
    readonly maxRow: number;
  };
}

/** Where and why a layout does not fit. */
export interface RscMisfit {
  readonly version: RscVersion;
  readonly at: number;
  readonly expected: string;
  readonly found: string;
  /**
   * The 3DF body offsets of the objects the walk reached (the last may be the one it stopped in); with
   * a resumed walk, those it reached after resuming.
   */
  readonly bodies: readonly number[];
  /**
   * The objects the walk completed before it stopped (with a resumed walk, after resuming); not
   * `objects`, which names a layout that fits.
   */
  readonly walked: readonly RscObjectLayout[];
}

/** Where a walk resumes: the objects before it as walked already, and the next TObjInfo's offset. */
export interface RscResume {
  readonly objects: readonly RscObjectLayout[];
  readonly at: number;
}

/**
 * An object's texture size, or its animation's stored frame count, read instead of the stored one
 * (see `rsc_texture_fix.ts`).
 */
export interface RscTextureFix {
  readonly object: number;
  /** The texture bytes read (a texture size fix). */
  readonly textureBytes?: number;
  /** The animation frame count read, as stored (one less than the frames; a frame count fix). */
  readonly storedFrames?: number;
}

/**
 * Walks the file as `version` lays it out: the layout, or where it stops fitting. Every step is
 * checked against the bytes left before it is taken, and each moves at least 4 bytes on, so huge
 * counts end at the end of the file rather than looping or allocating. The last section must end at
 * the end of the file, unless `allowTrailing` (then the bytes after it are counted in `trailing`).
 * With `textureFix`, every object after the one it changes must have points and faces, and every
 * sound samples.
 *
 * @example
 * ```ts
 * const walked = walkRsc(bytes, "c2");
 * if ("objects" in walked) console.log(walked.objects.length);
 * ```
 */
export function walkRsc(
  bytes: Uint8Array,
  version: RscVersion,
  allowTrailing = false,
  textureFix?: RscTextureFix,
  resume?: RscResume,
): RscLayout | RscMisfit {
  const size = bytes.byteLength;
  const view = new DataView(bytes.buffer, bytes.byteOffset, size);
  // `what` is a function where its text is built from numbers: the texture search walks objects
  // hundreds of thousands of times, and a message made for every check that passes was most of its time.
  const need = (at: number, n: number, what: string | (() => string)) => {
    if (at + n > size) {
      throw new Misfit(
        at,
        `${n} bytes of ${typeof what === "string" ? what : what()}`,
        `${Math.max(0, size - at)} bytes left`,
      );
    }
  };
  const int = (at: number, what: string | (() => string)) => {
    need(at, 4, what);
    return view.getInt32(at, true);
  };
  const count = (at: number, what: string | (() => string)) => {
    const value = int(at, what);
    if (value < 0) throw new Misfit(at, `${typeof what === "string" ? what : what()} ≥ 0`, String(value));
    return value;
  };
  // A repair's walk reads no empty sound either: a run of zero lengths is a picture's or a silence's
  // bytes read as sounds, four bytes a step.
  const emptySound = (at: number, length: number, what: () => string) => {
    if (textureFix && length === 0) {
      throw new Misfit(at, `${what()}'s samples (a repaired layout reads no empty sound)`, "none");
    }
  };
  const objects: RscObjectLayout[] = [];
  const bodies: number[] = [];
  try {
    const textureCount = count(0, "texture count");
    const objectCount = count(4, "object count");
    const textures = rscHeaderBytes(version);
    need(0, textures, `the ${version.toUpperCase()} header`);
    need(textures, textureCount * RSC_TILE_BYTES, `${textureCount} ground textures`);
    let at = resume ? resume.at : textures + textureCount * RSC_TILE_BYTES;
    // With `resume`, the objects before it are the same in this walk (a search that changes only a
    // later one): they are not walked again, and joined to the rest only when the layout fits.
    const first = resume ? resume.objects.length : 0;
    for (let o = first; o < objectCount; o++) {
      const info = at;
      need(info, OBJ_INFO_BYTES, () => `object ${o}'s TObjInfo`);
      const flags = view.getUint32(info + 28, true);
      const body = info + OBJ_INFO_BYTES;
      bodies.push(body);
      const header = () => `object ${o}'s 3DF header`;
      const v = count(body, header), f = count(body + 4, header), b = count(body + 8, header);
      const stored = count(body + 12, header);
      // A repair's walk reads only real objects after the one it changes: an empty header there is
      // bytes of a picture (a transparent billboard is zero words) read as an object.
      if (textureFix && o > textureFix.object && (v === 0 || f === 0)) {
        throw new Misfit(
          body,
          `object ${o}'s points and faces (a repaired layout reads no empty object)`,
          "none",
        );
      }
      const fixed = textureFix?.object === o ? textureFix : undefined;
      const t = fixed?.textureBytes ?? stored;
      const bodyBytes = HEADER_3DF_BYTES + f * FACE_BYTES + v * POINT_BYTES + b * BONE_BYTES + t;
      need(
        body,
        bodyBytes,
        () => `object ${o}'s 3DF body (${v} points, ${f} faces, ${b} bones, ${t}-byte texture)`,
      );
      at = body + bodyBytes;
      const billboard = version === "c2" ? at : -1;
      if (version === "c2") {
        need(at, RSC_TILE_BYTES, () => `object ${o}'s far billboard`);
        at += RSC_TILE_BYTES;
      }
      let animation = -1, storedFrames = -1;
      if (flags & OF_ANIMATED) {
        animation = at;
        const vertices = count(at + 4, () => `object ${o}'s animation vertex count`);
        storedFrames = fixed?.storedFrames ?? count(at + 12, () => `object ${o}'s animation frame count`);
        const stored = storedFrames;
        const frameBytes = (stored + 1) * vertices * 6;
        need(
          at + OBJ_ANIMATION_HEADER_BYTES,
          frameBytes,
          () => `object ${o}'s ${stored + 1} animation frames`,
        );
        at += OBJ_ANIMATION_HEADER_BYTES + frameBytes;
      }
      objects.push({ info, body, billboard, animation, end: at, textureBytes: t, storedFrames });
    }
    const sky = at;
    const skies = version === "c1" ? 1 : 3;
    need(sky, skies * RSC_SKY_BYTES + RSC_CLOUD_MAP_BYTES, `${skies} sky texture(s) and the cloud map`);
    at = sky + skies * RSC_SKY_BYTES + RSC_CLOUD_MAP_BYTES;
    const fogs = count(at, "fog count");
    need(at + 4, fogs * FOG_BYTES, `${fogs} fogs`);
    at += 4 + fogs * FOG_BYTES;
    const randomSounds = count(at, "random sound count");
    // Every sound takes at least its length field (an ambient one its table too): a count the bytes
    // left cannot hold ends the walk here, not after a step per sound through the rest of the file.
    need(at + 4, randomSounds * 4, () => `${randomSounds} random sounds' lengths`);
    at += 4;
    for (let s = 0; s < randomSounds; s++) {
      const length = count(at, () => `random sound ${s}'s length`);
      emptySound(at, length, () => `random sound ${s}`);
      need(at + 4, length, () => `random sound ${s}'s PCM`);
      at += 4 + length;
    }
    const ambientSounds = count(at, "ambient sound count");
    need(
      at + 4,
      ambientSounds * (4 + AMBIENT_TAIL_BYTES),
      () => `${ambientSounds} ambient sounds' lengths and random-sound tables`,
    );
    at += 4;
    for (let s = 0; s < ambientSounds; s++) {
      const length = count(at, () => `ambient sound ${s}'s length`);
      emptySound(at, length, () => `ambient sound ${s}`);
      need(at + 4, length + AMBIENT_TAIL_BYTES, () => `ambient sound ${s}'s PCM and random-sound table`);
      at += 4 + length + AMBIENT_TAIL_BYTES;
    }
    let waters = 0;
    if (version === "c2") {
      waters = count(at, "water count");
      need(at + 4, waters * WATER_BYTES, `${waters} waters`);
      at += 4 + waters * WATER_BYTES;
    }
    if (at !== size && !allowTrailing) {
      throw new Misfit(at, "the end of the file after the last section", `${size - at} more byte(s)`);
    }
    return {
      version,
      textureCount,
      objectCount,
      textures,
      objects: resume ? [...resume.objects, ...objects] : objects,
      sky,
      fogs,
      randomSounds,
      ambientSounds,
      waters,
      ...(at !== size ? { trailing: size - at } : {}),
    };
  } catch (error) {
    if (!(error instanceof Misfit)) throw error;
    return {
      version,
      at: error.at,
      expected: error.expected,
      found: error.found,
      bodies,
      walked: objects,
    };
  }
}
