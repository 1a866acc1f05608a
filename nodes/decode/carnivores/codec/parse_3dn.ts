/**
 * `.3dn` parser: the model format of the mobile Carnivores games (Carnivores: Dinosaur Hunter), which
 * CarnivoresIO exports. The layout is taken from the writer in Tibbee/CarnivoresIO
 * (`parsers/export_3dn.py` with the dtypes of `core/core.py`, THREEDN_*) and its notes
 * (`doc/formats/specifications.md`, ".3DN File Format Specification"); little-endian, no padding:
 *
 * - header, 48 bytes: uint32 VCount, FCount, BoneCount; char ModelName[32]; uint32 HasSprite — then,
 *   when HasSprite is non-zero, char SpriteName[32];
 * - VCount vertices of 16 bytes: float x, y, z; int32 owner (the mobile games read the PC games'
 *   uint16 owner + uint16 hide as one int32; -1 is "no bone");
 * - FCount faces of 52 bytes: uint32 v1, v2, v3; int16 tax, tay, tbx, tby, tcx, tcy (pixel texels,
 *   pairs per corner); uint16 flags, dmask; uint32 distant, next, group, reserved[3];
 * - BoneCount bones of 48 bytes, as in a `.3df`.
 *
 * The texture, clips and sounds are other files. The notes' table puts an unknown uint32 at 0x2C and
 * HasSprite at 0x30 (a 52-byte header), against their own "48/80 bytes" and the writer; a file whose
 * size fits only that reading is read so, with a warning. Nothing else is guessed: the size must be
 * exactly what the counts say.
 *
 * @module
 */
import { type FaceRecord, readBones, readFaces, readPoints, warnEngineLimits } from "./blocks.ts";
import { BONE_BYTES, type Model3df, NAME_BYTES, POINT_BYTES } from "./model.ts";
import { NameReader } from "./names.ts";
import { ByteWindow } from "../../../../runtime/binary.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** Bytes per `.3dn` face. */
export const FACE_3DN_BYTES = 52;

/** The `.3dn` face: int16 texel pairs (u, v) per corner after the indices, flags at 24. */
const FACE_3DN: FaceRecord = {
  bytes: FACE_3DN_BYTES,
  texel: (r, at, k) => [r.i16(at + 12 + k * 4), r.i16(at + 14 + k * 4)],
  flagsAt: 24,
};

/** Where a `.3dn`'s blocks start. */
export interface Layout3dn {
  readonly vertexCount: number;
  readonly faceCount: number;
  readonly boneCount: number;
  /** Offset of the HasSprite field (44 as CarnivoresIO writes it; 48 in its notes' table). */
  readonly spriteFlagAt: number;
  /** Offset of the sprite name, or -1 when there is none. */
  readonly spriteNameAt: number;
  readonly points: number;
  readonly faces: number;
  readonly bones: number;
  readonly end: number;
}

/** The layouts `bytes` may have (the writer's first), whose blocks end exactly at the file's end. */
function layoutsOf(bytes: Uint8Array): Layout3dn[] {
  if (bytes.byteLength < 48) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [v, f, b] = [0, 4, 8].map((at) => view.getInt32(at, true));
  if (v <= 0 || f <= 0 || b < 0) return [];
  const out: Layout3dn[] = [];
  for (const flagAt of [44, 48]) {
    if (flagAt + 4 > bytes.byteLength) continue;
    const hasSprite = view.getUint32(flagAt, true) !== 0;
    const points = flagAt + 4 + (hasSprite ? NAME_BYTES : 0);
    const faces = points + v * POINT_BYTES;
    const bones = faces + f * FACE_3DN_BYTES;
    const end = bones + b * BONE_BYTES;
    if (end !== bytes.byteLength) continue;
    out.push({
      vertexCount: v,
      faceCount: f,
      boneCount: b,
      spriteFlagAt: flagAt,
      spriteNameAt: hasSprite ? flagAt + 4 : -1,
      points,
      faces,
      bones,
      end,
    });
  }
  return out;
}

/** True when the counts account for every byte of `bytes` (a `.3dn` has no magic number). */
export function is3dn(bytes: Uint8Array): boolean {
  return layoutsOf(bytes).length > 0;
}

/** A parsed `.3dn`: the model (no texture: it is another file) and its header's names. */
export interface Model3dn extends Model3df {
  /** ModelName from the header. */
  readonly name: string;
  /** SpriteName, when the header says the model has one. */
  readonly sprite?: string;
  /** Byte offsets of the face and point blocks, for warnings. */
  readonly facesAt: number;
  readonly pointsAt: number;
}

/**
 * Parses a `.3dn` file. A size the counts do not account for exactly is a `DecodeError`; faces naming
 * no vertex and owners outside the bone table are warnings, as for a `.3df`.
 *
 * @example
 * ```ts
 * const model = parse3dn(await Deno.readFile("raptor.3dn"), "raptor.3dn", console.warn);
 * ```
 */
export function parse3dn(bytes: Uint8Array, file: string | undefined, warn: WarningSink): Model3dn {
  const r = ByteWindow.of(bytes, "3dn", file);
  r.need(0, 48, "3dn header");
  const [vertexCount, faceCount, boneCount] = [
    r.count(0, "vertex count"),
    r.count(4, "face count"),
    r.count(8, "bone count"),
  ];
  const layout = layoutsOf(bytes)[0];
  if (!layout) {
    const written = 48 + (r.u32(44) ? NAME_BYTES : 0) + vertexCount * POINT_BYTES +
      faceCount * FACE_3DN_BYTES + boneCount * BONE_BYTES;
    r.fail(
      0,
      `a file of ${written} bytes (48-byte header${
        r.u32(44) ? " + 32-byte sprite name" : ""
      } + 16·${vertexCount} ` +
        `vertices + 52·${faceCount} faces + 48·${boneCount} bones)`,
      `${bytes.byteLength} bytes`,
    );
  }
  if (layout.spriteFlagAt !== 44) {
    warn(
      "the header is 52 bytes (HasSprite at byte 48, as CarnivoresIO's notes tabulate), not the 48 its " +
        "writer makes: read so, as the size fits only that",
      { offset: 44 },
    );
  }
  warnEngineLimits(vertexCount, faceCount, 0, 4, warn);
  const names = new NameReader(bytes);
  const name = names.read(12, NAME_BYTES, "model name");
  const sprite = layout.spriteNameAt >= 0
    ? names.read(layout.spriteNameAt, NAME_BYTES, "sprite name")
    : undefined;
  const faces = readFaces(r, layout.faces, faceCount, vertexCount, warn, FACE_3DN);
  const read = readPoints(r, layout.points, vertexCount);
  // The owner is an int32 here; the PC reader took its low half as the owner and its high half as hide.
  // A converter that copied a .3df's point records as they are leaves Designer 2's hide flag in the high
  // half: the int32 then names no bone, but its low half does — C3Dit (`Load3DNFile`) reads the record
  // as int16 bone + int16 hidden, so such a point keeps that bone.
  const owners = new Int16Array(vertexCount);
  const hides = new Uint16Array(vertexCount);
  let wide = 0, split = 0, firstSplit = -1;
  for (let v = 0; v < vertexCount; v++) {
    const at = layout.points + v * POINT_BYTES + 12;
    const owner = r.i32(at);
    if (owner >= -1 && owner < 0x8000) {
      owners[v] = owner;
      continue;
    }
    const low = r.i16(at);
    if (low >= -1 && low < boneCount) {
      owners[v] = low;
      hides[v] = r.u16(at + 2);
      if (split++ === 0) firstSplit = at;
      continue;
    }
    owners[v] = -1;
    wide++;
  }
  if (split) {
    warn(
      `${split} point record(s) read as the PC games' int16 owner + uint16 hide (a converter copied them ` +
        "from a .3df; C3Dit reads a .3dn so): their high half is a hide flag, so the int32 the mobile games " +
        `read names no bone; each keeps the bone its low half names (the first at byte ${firstSplit})`,
      { offset: firstSplit, points: split },
    );
  }
  if (wide) {
    warn(`${wide} vertex owner(s) are outside [-1, 32767]: no bone can have them; read as -1 (no bone)`, {
      offset: layout.points + 12,
    });
  }
  const points = { ...read, owners, hides };
  const bones = readBones(r, layout.bones, boneCount, names);
  names.report(warn);
  return { name, sprite, faces, points, bones, facesAt: layout.faces, pointsAt: layout.points };
}
