/**
 * `.3df` parser: header → faces → points → bones → texture, no padding, no trailing data
 * (`formats/carnivores-dson.md` A.2). All block sizes are checked against the file size before
 * anything is allocated.
 *
 * @module
 */
import { readBones, readFaces, readPoints, readTexture, warnEngineLimits } from "./blocks.ts";
import {
  BONE_BYTES,
  FACE_BYTES,
  type FaceTable,
  HEADER_3DF_BYTES,
  type Model3df,
  POINT_BYTES,
  TEXTURE_ROW_BYTES,
} from "./model.ts";
import { NameReader } from "./names.ts";
import { ByteWindow } from "../../../../runtime/binary.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** The first word of Action Forms' Animator "3DF" files: "Kiev" (a different format, not the game's). */
export const ANIMATOR_3DF_MAGIC = 0x7665694b;

/** Where each `.3df` block starts, from the header counts. */
export interface Layout3df {
  /** V from the header. */
  readonly vertexCount: number;
  /** F from the header. */
  readonly faceCount: number;
  /** B from the header. */
  readonly boneCount: number;
  /** T from the header. */
  readonly textureBytes: number;
  /** Offset of the face block. */
  readonly faces: number;
  /** Offset of the point block. */
  readonly points: number;
  /** Offset of the bone block. */
  readonly bones: number;
  /** Offset of the texture block. */
  readonly texture: number;
  /** One past the last byte the header accounts for: `16 + 64F + 16V + 48B + T`. */
  readonly end: number;
}

/** Block offsets for the given counts (plain arithmetic: doubles hold any int32 product exactly). */
export function layout3df(
  vertexCount: number,
  faceCount: number,
  boneCount: number,
  textureBytes: number,
): Layout3df {
  const faces = HEADER_3DF_BYTES;
  const points = faces + faceCount * FACE_BYTES;
  const bones = points + vertexCount * POINT_BYTES;
  const texture = bones + boneCount * BONE_BYTES;
  return {
    vertexCount,
    faceCount,
    boneCount,
    textureBytes,
    faces,
    points,
    bones,
    texture,
    end: texture + textureBytes,
  };
}

/**
 * True when the bytes are certainly a `.3df`: the header's counts are positive and account for the
 * file size exactly (`16 + 64F + 16V + 48B + T == size`) with whole texture rows.
 *
 * @example
 * ```ts
 * if (is3df(bytes)) console.log("a Carnivores model");
 * ```
 */
export function is3df(bytes: Uint8Array): boolean {
  if (bytes.byteLength < HEADER_3DF_BYTES) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_3DF_BYTES);
  const [v, f, b, t] = [0, 4, 8, 12].map((at) => view.getInt32(at, true));
  if (v <= 0 || f <= 0 || b < 0 || t < 0 || t % TEXTURE_ROW_BYTES !== 0) return false;
  return layout3df(v, f, b, t).end === bytes.byteLength;
}

/**
 * Parses a `.3df` file. Bad structure throws a `DecodeError` with the byte offset; what the engine
 * tolerates (trailing bytes, partial texture rows, a texture the file ends inside, models over its
 * 1024-element arrays) is a warning.
 *
 * @example
 * ```ts
 * const model = parse3df(await Deno.readFile("palm.3df"), "palm.3df", console.warn);
 * console.log(model.points.count, model.bones.length);
 * ```
 */
export function parse3df(bytes: Uint8Array, file: string | undefined, warn: WarningSink): Model3df {
  const r = ByteWindow.of(bytes, "3df", file);
  r.need(0, HEADER_3DF_BYTES, "3df header");
  // Animator's own "3DF" has a magic where the game's file has its vertex count. The games read it as
  // 1,986,357,579 vertices and cannot load it; say so rather than report a block past the file.
  if (r.u32(0) === ANIMATOR_3DF_MAGIC) {
    r.fail(
      0,
      "a game .3df (vertex count)",
      "the magic 'Kiev' (0x7665694B) of an Animator 3DF, a different format the games cannot load",
    );
  }
  const layout = layout3df(
    r.count(0, "vertex count"),
    r.count(4, "face count"),
    r.count(8, "bone count"),
    r.count(12, "texture size"),
  );
  // Every block against the file size first, so nothing is allocated for a count the file cannot hold.
  r.need(layout.faces, layout.faceCount * FACE_BYTES, `${layout.faceCount} faces`);
  r.need(layout.points, layout.vertexCount * POINT_BYTES, `${layout.vertexCount} points`);
  r.need(layout.bones, layout.boneCount * BONE_BYTES, `${layout.boneCount} bones`);
  warnEngineLimits(layout.vertexCount, layout.faceCount, 0, 4, warn);

  const faces = readFaces(r, layout.faces, layout.faceCount, layout.vertexCount, warn);
  // The texture is the last block: one an old tool cut short is repaired by readTexture; bytes after
  // it are the rest of the texture when the size field is short (see textureRowsAfter).
  const textureBytes = layout.textureBytes +
    textureRowsAfter(r.length - layout.end, layout.textureBytes, faces, warn);
  if (layout.texture + textureBytes < r.length) {
    warn(
      `${r.length - layout.end} byte(s) after the texture are ignored (the header accounts for ` +
        `${layout.end} of ${r.length})`,
      { offset: layout.end },
    );
  }
  const points = readPoints(r, layout.points, layout.vertexCount);
  const names = new NameReader(bytes);
  const bones = readBones(r, layout.bones, layout.boneCount, names);
  names.report(warn);
  if (bones.length === 0) warnOwnersWithoutBones(points.owners, layout.points, warn);
  const texture = readTexture(r, layout.texture, textureBytes, 12, warn);
  return { faces, points, bones, texture };
}

/**
 * Points of a `.3df` with an empty bone table that name a bone (an owner other than 0, or -1 "no
 * bone"): a converter from `.car`, whose points keep their owners and which has no bone table, writes
 * this. The games never read bones and draw the model static, as this decoder does; but the limbs the
 * owners group cannot be told, so the warning says so, with the first such point's owner field.
 */
function warnOwnersWithoutBones(owners: Int16Array, pointsAt: number, warn: WarningSink): void {
  let count = 0, first = -1;
  const named = new Set<number>();
  for (let v = 0; v < owners.length; v++) {
    if (owners[v] === 0 || owners[v] === -1) continue;
    count++;
    if (first < 0) first = v;
    named.add(owners[v]);
  }
  if (!count) return;
  const list = [...named].sort((a, b) => a - b);
  const shown = list.slice(0, 8).join(", ") + (list.length > 8 ? `, … (${list.length} in all)` : "");
  const offset = pointsAt + first * POINT_BYTES + 12;
  warn(
    `${count} point(s) name bones (${shown}) but the file has no bone table (bone count 0; a .car converted ` +
      `to .3df keeps its owners and no bones): drawn as a static mesh, as the games draw it, with no skin; ` +
      `the owners stay in the _OWNER attribute (the first, point ${first}, at byte ${offset})`,
    { offset },
  );
}

/**
 * Bytes after a `.3df`'s texture that are the rest of it: a tool that wrote the size field from
 * another picture (shorter than the texture it wrote) leaves whole rows after the declared ones, and
 * the faces sample them. The games read the declared rows and draw those faces from their zeroed
 * buffer (black); the rows are the model's own texture, so they are read, with a warning naming the
 * field and both sizes. 0 (the bytes stay ignored) unless the declared size and the bytes after it
 * are whole rows and some face's texel row falls in those after it and none past them.
 */
function textureRowsAfter(extra: number, declared: number, faces: FaceTable, warn: WarningSink): number {
  if (extra <= 0 || declared % TEXTURE_ROW_BYTES || extra % TEXTURE_ROW_BYTES) return 0;
  const rows = declared / TEXTURE_ROW_BYTES, more = extra / TEXTURE_ROW_BYTES;
  let maxRow = -1;
  for (let i = 1; i < faces.texels.length; i += 2) maxRow = Math.max(maxRow, faces.texels[i]);
  // A texel row may equal the height (one past the last row, as in a retail .car): not a row of its own.
  if (maxRow <= rows || maxRow > rows + more) return 0;
  warn(
    `texture size ${declared} at byte 12 holds ${rows} rows, but ${more} more whole rows follow it and the ` +
      `faces sample texel rows up to ${maxRow}: read with ${rows + more} rows (a tool wrote the size of ` +
      `another picture; the games read ${rows} rows and draw the faces beyond them black)`,
    { offset: 12, declared, read: declared + extra },
  );
  return extra;
}
