/**
 * Writes a model as a `.3dn`, the way CarnivoresIO's `export_3dn` lays it out (Tibbee/CarnivoresIO
 * `parsers/export_3dn.py`, dtypes in `core/core.py`): a 48-byte header (counts, model name, HasSprite),
 * the sprite name when set, 16-byte vertices (int32 owner), 52-byte faces (int16 texel pairs per
 * corner), 48-byte bones. `headerBytes: 52` writes the reading of CarnivoresIO's notes table (an
 * unknown uint32 at 0x2C, HasSprite at 0x30).
 *
 * @module
 */
import type { Model3df } from "../../../nodes/decode/carnivores/codec/model.ts";

/** Options of {@link encode3dn}. */
export interface Encode3dnOptions {
  readonly name?: string;
  readonly sprite?: string;
  readonly headerBytes?: 48 | 52;
}

function putName(bytes: Uint8Array, at: number, name: string): void {
  bytes.set(new TextEncoder().encode(name).subarray(0, 31), at);
}

/** The `.3dn` bytes of `model` (its texture, if any, is left out: a .3dn holds none). */
export function encode3dn(model: Model3df, options: Encode3dnOptions = {}): Uint8Array {
  const header = options.headerBytes ?? 48;
  const { faces, points, bones } = model;
  const sprite = options.sprite !== undefined;
  const pointsAt = header + (sprite ? 32 : 0);
  const facesAt = pointsAt + points.count * 16;
  const bonesAt = facesAt + faces.count * 52;
  const bytes = new Uint8Array(bonesAt + bones.length * 48);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, points.count, true);
  view.setUint32(4, faces.count, true);
  view.setUint32(8, bones.length, true);
  putName(bytes, 12, options.name ?? "model");
  view.setUint32(header - 4, sprite ? 1 : 0, true);
  if (sprite) putName(bytes, header, options.sprite!);
  for (let v = 0; v < points.count; v++) {
    const at = pointsAt + v * 16;
    for (let k = 0; k < 3; k++) view.setFloat32(at + k * 4, points.positions[v * 3 + k], true);
    view.setInt32(at + 12, points.owners[v], true);
  }
  for (let f = 0; f < faces.count; f++) {
    const at = facesAt + f * 52;
    for (let k = 0; k < 3; k++) {
      view.setUint32(at + k * 4, faces.indices[f * 3 + k], true);
      view.setInt16(at + 12 + k * 4, faces.texels[f * 6 + k * 2], true);
      view.setInt16(at + 14 + k * 4, faces.texels[f * 6 + k * 2 + 1], true);
    }
    view.setUint16(at + 24, faces.flags[f], true);
    view.setUint16(at + 26, faces.dmask[f], true);
    view.setInt32(at + 28, faces.distant[f], true);
    view.setInt32(at + 32, faces.next[f], true);
    view.setInt32(at + 36, faces.group[f], true);
  }
  bones.forEach((bone, b) => {
    const at = bonesAt + b * 48;
    putName(bytes, at, bone.name);
    for (let k = 0; k < 3; k++) view.setFloat32(at + 32 + k * 4, bone.pivot[k], true);
    view.setInt16(at + 44, bone.parent, true);
    view.setUint16(at + 46, bone.hide, true);
  });
  return bytes;
}
