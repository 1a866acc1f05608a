/**
 * Readers for the blocks `.3df` and `.car` share — faces, points, texture — and the bone block of
 * `.3df`. Each checks its block against the bytes left before allocating, validates what the engine
 * would crash on (face indices, non-finite coordinates) as errors and what it tolerates as warnings.
 *
 * @module
 */
import {
  type Bone,
  BONE_BYTES,
  ENGINE_MAX_ELEMENTS,
  ENGINE_TEXTURE_ROWS,
  FACE_BYTES,
  type FaceTable,
  NAME_BYTES,
  POINT_BYTES,
  type PointTable,
  type Texture16,
  TEXTURE_ROW_BYTES,
  TEXTURE_WIDTH,
} from "./model.ts";
import type { ByteWindow } from "../../../../runtime/binary.ts";
import type { WarningSink } from "../../../../runtime/node.ts";
import type { NameReader } from "./names.ts";
import { narrowPictureNote } from "./narrow_picture.ts";

/**
 * Where a face record keeps its fields: three int32 vertex indices first, then the texels (read by
 * `texel`), then flags (u16), dmask (u16), distant, next and group (int32) from `flagsAt`.
 */
export interface FaceRecord {
  /** Bytes per face. */
  readonly bytes: number;
  /** Corner `k`'s texel (u, v) of the face at `at`. */
  readonly texel: (r: ByteWindow, at: number, k: number) => [number, number];
  /** Offset of the flags within the record. */
  readonly flagsAt: number;
}

/** The PC games' 64-byte face: int32 tax, tbx, tcx then tay, tby, tcy, kept as (u, v) per corner. */
export const FACE_3DF: FaceRecord = {
  bytes: FACE_BYTES,
  texel: (r, at, k) => [r.i32(at + 12 + k * 4), r.i32(at + 24 + k * 4)],
  flagsAt: 36,
};

/**
 * Reads `count` faces at `offset` (laid out as `record` says; by default the PC games' 64 bytes). A face with a vertex index outside `[0, vertexCount)` is what a
 * 3DF editor or converter leaves when it deletes vertices but not the faces using them (the "no
 * vertex" sentinels 65535 of a uint16 index and -1, or an old index past the shortened table); the
 * games would read past their vertex array there. Such faces are marked `broken` (not drawn) with one
 * warning, when they are at most half of the faces; more is a damaged table, a `DecodeError` at the
 * first bad index.
 */
export function readFaces(
  r: ByteWindow,
  offset: number,
  count: number,
  vertexCount: number,
  warn: WarningSink,
  record: FaceRecord = FACE_3DF,
): FaceTable {
  const stride = record.bytes;
  r.need(offset, count * stride, `${count} faces`);
  const faces = {
    count,
    indices: new Int32Array(count * 3),
    texels: new Int32Array(count * 6),
    flags: new Uint16Array(count),
    dmask: new Uint16Array(count),
    distant: new Int32Array(count),
    next: new Int32Array(count),
    group: new Int32Array(count),
  };
  const broken = new Uint8Array(count);
  let brokenCount = 0, firstBad = -1;
  const badValues = new Set<number>();
  for (let f = 0; f < count; f++) {
    const at = offset + f * stride;
    for (let k = 0; k < 3; k++) {
      const index = r.i32(at + k * 4);
      if (index < 0 || index >= vertexCount) {
        if (!broken[f]) brokenCount++;
        broken[f] = 1;
        if (firstBad < 0) firstBad = at + k * 4;
        if (badValues.size < 8) badValues.add(index);
      }
      faces.indices[f * 3 + k] = index;
      const [u, v] = record.texel(r, at, k);
      faces.texels[f * 6 + k * 2] = u;
      faces.texels[f * 6 + k * 2 + 1] = v;
    }
    const tail = at + record.flagsAt;
    faces.flags[f] = r.u16(tail);
    faces.dmask[f] = r.u16(tail + 2);
    faces.distant[f] = r.i32(tail + 4);
    faces.next[f] = r.i32(tail + 8);
    faces.group[f] = r.i32(tail + 12);
  }
  if (!brokenCount) return faces;
  const face = Math.floor((firstBad - offset) / stride);
  if (brokenCount * 2 > count) {
    r.fail(
      firstBad,
      `face ${face} vertex index in [0, ${vertexCount}) (${brokenCount} of ${count} faces have one outside it)`,
      String(r.i32(firstBad)),
    );
  }
  const values = [...badValues].sort((a, b) => a - b).join(", ");
  warn(
    `${brokenCount} of ${count} face(s) name a vertex index outside [0, ${vertexCount}) (${values}; 65535 and ` +
      "-1 are the 'no vertex' an editor leaves when it deletes vertices but not their faces): not drawn " +
      `(the games would read past their vertex array); the first is face ${face}, index at byte ${firstBad}`,
    { offset: firstBad, faces: brokenCount },
  );
  return { ...faces, broken };
}

/** Reads `count` points at `offset`; coordinates must be finite. */
export function readPoints(r: ByteWindow, offset: number, count: number): PointTable {
  r.need(offset, count * POINT_BYTES, `${count} points`);
  const points: PointTable = {
    count,
    positions: new Float32Array(count * 3),
    owners: new Int16Array(count),
    hides: new Uint16Array(count),
  };
  for (let v = 0; v < count; v++) {
    const at = offset + v * POINT_BYTES;
    for (let k = 0; k < 3; k++) {
      const value = r.f32(at + k * 4);
      if (!Number.isFinite(value)) r.fail(at + k * 4, `point ${v} finite coordinate`, String(value));
      points.positions[v * 3 + k] = value;
    }
    points.owners[v] = r.i16(at + 12);
    points.hides[v] = r.u16(at + 14);
  }
  return points;
}

/**
 * Reads `count` bones at `offset`, their names through `names` (code pages, see `names.ts`). Bone
 * values are checked by the resolver, which uses them.
 */
export function readBones(r: ByteWindow, offset: number, count: number, names: NameReader): Bone[] {
  r.need(offset, count * BONE_BYTES, `${count} bones`);
  const bones: Bone[] = [];
  for (let b = 0; b < count; b++) {
    const at = offset + b * BONE_BYTES;
    bones.push({
      name: names.read(r.start + at, NAME_BYTES, `bone ${b} name`),
      pivot: [r.f32(at + NAME_BYTES), r.f32(at + NAME_BYTES + 4), r.f32(at + NAME_BYTES + 8)],
      parent: r.i16(at + 44),
      hide: r.u16(at + 46),
    });
  }
  return bones;
}

/**
 * Reads a texture block of `declaredBytes` at `offset`. Like the engine (`TextureSize >> 9`), a size
 * that is not a whole number of 512-byte rows keeps the whole rows and ignores the rest, with a
 * warning. Returns undefined, with a warning, when there is not one whole row (a size of 0 included):
 * the scene builder then draws the faces as the game does, from texel 0x0000.
 *
 * A texture the file ends inside (an old tool or a download cut it short) keeps its declared height:
 * the engine reads what is there into a zeroed buffer, so the missing texels are 0x0000 (all of them
 * when the file ends where the texture starts), and the faces' texel rows still index the declared
 * height. Only a height the engine can hold (256 rows) is
 * repaired so; a larger one the file cannot hold is a damaged size field and a `DecodeError`.
 */
export function readTexture(
  r: ByteWindow,
  offset: number,
  declaredBytes: number,
  sizeFieldOffset: number,
  warn: WarningSink,
): Texture16 | undefined {
  const height = Math.floor(declaredBytes / TEXTURE_ROW_BYTES);
  const present = Math.max(0, Math.min(declaredBytes, r.length - offset));
  if (present < declaredBytes && height > ENGINE_TEXTURE_ROWS) {
    r.need(offset, declaredBytes, `texture of ${declaredBytes} bytes`);
  }
  const spare = declaredBytes - height * TEXTURE_ROW_BYTES;
  if (spare) {
    warn(
      `texture size ${declaredBytes} is not a multiple of ${TEXTURE_ROW_BYTES}; ` +
        `the last ${spare} byte(s) are ignored, as the engine does`,
      { offset: sizeFieldOffset },
    );
  }
  if (height === 0) {
    // The hardware renderers of C1, C2 and Ice Age read every texture into a zeroed 256-row buffer
    // (LoadModel, LoadCharacterInfo), so a model without one is drawn from texel 0x0000: black, and
    // not at all where that texel is colour-keyed. The scene builder draws it so.
    warn(
      `texture size ${declaredBytes} at byte ${sizeFieldOffset} holds no whole row: the game draws the ` +
        "faces from its zeroed 256-row texture buffer, black (colour-keyed sfOpacity faces not at all); " +
        "so does the scene",
      { offset: sizeFieldOffset },
    );
    return undefined;
  }
  const words = new Uint16Array(TEXTURE_WIDTH * height);
  const stored = Math.min(words.length, Math.floor(present / 2));
  if (stored < words.length) {
    const tail = stored === 0
      ? `there is no texel: all ${words.length} texels are 0x0000 (black), as the engine's zeroed buffer ` +
        "leaves them"
      : `the last ${words.length - stored} of ${words.length} texels are 0x0000 (black), as the engine's ` +
        "zeroed buffer leaves them";
    warn(
      `the file ends ${present} byte(s) into the ${declaredBytes}-byte texture at byte ${offset}: ${tail}`,
      { offset: offset + present },
    );
  }
  for (let i = 0; i < stored; i++) words[i] = r.u16(offset + i * 2);
  if (height > ENGINE_TEXTURE_ROWS) {
    // One warning for the texture: the picture its texels show, else the one its size suggests.
    const picture = narrowPictureNote({ height, words });
    warn(
      `texture has ${height} rows; the engine holds ${ENGINE_TEXTURE_ROWS} — decoded in full` +
        (picture ? `; ${picture.note}` : squarePictureHint(declaredBytes)),
      {
        offset: sizeFieldOffset,
        ...(picture ? { picture_width: picture.width, picture_height: picture.height } : {}),
      },
    );
  }
  return { height, words };
}

/**
 * A hint for a texture of `bytes` as many as a square picture of a power-of-two side other than 256
 * has: io_carnivores writes the Blender image at its own size (a 512×512 picture is 1,024 rows of 256),
 * which the games read 256 texels to the row, so the picture comes out in strips. Only the size says
 * so — a 256-wide texture of 1,024 rows, or a 1024×256 picture, has as many bytes — so the hint says
 * it may be one; a texture whose texels show the picture is named by `narrowPictureNote` instead.
 * Empty for other sizes.
 */
export function squarePictureHint(bytes: number): string {
  const side = Math.round(Math.sqrt(bytes / 2));
  if (side === TEXTURE_WIDTH || side * side * 2 !== bytes || (side & (side - 1)) !== 0) return "";
  return `; its ${bytes} bytes are as many as a ${side}×${side} picture's, which a tool may have written ` +
    `at its own size (io_carnivores writes the Blender image unscaled) — its texels do not show which: ` +
    `if it is one, the games read it ${TEXTURE_WIDTH} texels to the row and cut it into strips; resize it ` +
    `to ${TEXTURE_WIDTH} wide`;
}

/** Warns when a model is larger than the engine's fixed `TModel` arrays. */
export function warnEngineLimits(
  vertexCount: number,
  faceCount: number,
  vertexCountOffset: number,
  faceCountOffset: number,
  warn: WarningSink,
): void {
  if (vertexCount > ENGINE_MAX_ELEMENTS) {
    warn(`${vertexCount} vertices exceed the engine's ${ENGINE_MAX_ELEMENTS}; decoded anyway`, {
      offset: vertexCountOffset,
    });
  }
  if (faceCount > ENGINE_MAX_ELEMENTS) {
    warn(`${faceCount} faces exceed the engine's ${ENGINE_MAX_ELEMENTS}; decoded anyway`, {
      offset: faceCountOffset,
    });
  }
}
