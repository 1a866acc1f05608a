/**
 * Writers for `.3df` and `.car`, the inverse of the parsers: `parse3df(encode3df(m))` gives `m` back.
 * Used to build test fixtures and benchmarks in code, and by users who generate Carnivores models.
 *
 * @module
 */
import { ByteWriter } from "../byte_writer.ts";
import {
  ANIM_SOUND_SLOTS,
  BONE_BYTES,
  type CarModel,
  FACE_BYTES,
  HEADER_3DF_BYTES,
  HEADER_CAR_BYTES,
  type MeshData,
  type Model3df,
  NAME_BYTES,
  POINT_BYTES,
} from "../../../nodes/decode/carnivores/codec/model.ts";

/**
 * Encodes a `.3df` file.
 *
 * @example
 * ```ts
 * const bytes = encode3df({ faces, points, bones: [], texture });
 * await Deno.writeFile("model.3df", bytes);
 * ```
 */
export function encode3df(model: Model3df): Uint8Array {
  const textureBytes = textureByteLength(model);
  const size = HEADER_3DF_BYTES + model.faces.count * FACE_BYTES + model.points.count * POINT_BYTES +
    model.bones.length * BONE_BYTES + textureBytes;
  const w = new ByteWriter(size);
  w.i32(model.points.count);
  w.i32(model.faces.count);
  w.i32(model.bones.length);
  w.i32(textureBytes);
  writeFaces(w, model);
  writePoints(w, model);
  for (const bone of model.bones) {
    w.text(bone.name, NAME_BYTES);
    for (const value of bone.pivot) w.f32(value);
    w.i16(bone.parent);
    w.u16(bone.hide);
  }
  writeTexture(w, model);
  return w.finish();
}

/**
 * Encodes a `.car` file. Each animation's `positions` must hold `frameCount × vertexCount × 3`
 * values; the anim→sound table is written only when `animSounds` is set.
 *
 * @example
 * ```ts
 * const bytes = encodeCar({ name: "Dino", msc: "msc: 1", faces, points, texture,
 *   animations: [{ name: "walk", kps: 10, frameCount: 2, positions }], sounds: [] });
 * ```
 */
export function encodeCar(model: CarModel): Uint8Array {
  const textureBytes = textureByteLength(model);
  const vertexCount = model.points.count;
  for (const clip of model.animations) {
    if (clip.positions.length !== clip.frameCount * vertexCount * 3) {
      throw new RangeError(
        `animation '${clip.name}': ${clip.positions.length} values, expected ${
          clip.frameCount * vertexCount * 3
        }`,
      );
    }
  }
  const size = HEADER_CAR_BYTES + model.faces.count * FACE_BYTES + vertexCount * POINT_BYTES + textureBytes +
    model.animations.reduce((sum, a) => sum + NAME_BYTES + 8 + a.positions.length * 2, 0) +
    model.sounds.reduce((sum, s) => sum + NAME_BYTES + 4 + s.pcm.byteLength, 0) +
    (model.animSounds ? ANIM_SOUND_SLOTS * 4 : 0);
  const w = new ByteWriter(size);
  w.text(model.name, NAME_BYTES);
  if (model.msc) {
    w.at = 24;
    w.text(model.msc, NAME_BYTES - 24);
  }
  w.at = NAME_BYTES;
  w.i32(model.animations.length);
  w.i32(model.sounds.length);
  w.i32(vertexCount);
  w.i32(model.faces.count);
  w.i32(textureBytes);
  writeFaces(w, model);
  writePoints(w, model);
  writeTexture(w, model);
  for (const clip of model.animations) {
    w.text(clip.name, NAME_BYTES);
    w.i32(clip.kps);
    w.i32(clip.frameCount);
    for (const value of clip.positions) w.i16(value);
  }
  for (const sound of model.sounds) {
    w.text(sound.name, NAME_BYTES);
    w.i32(sound.pcm.byteLength);
    w.raw(sound.pcm);
  }
  if (model.animSounds) {
    for (let i = 0; i < ANIM_SOUND_SLOTS; i++) w.i32(model.animSounds[i] ?? -1);
  }
  return w.finish();
}

function textureByteLength(model: MeshData): number {
  return model.texture ? model.texture.words.length * 2 : 0;
}

function writeFaces(w: ByteWriter, { faces }: MeshData): void {
  for (let f = 0; f < faces.count; f++) {
    for (let k = 0; k < 3; k++) w.i32(faces.indices[f * 3 + k]);
    for (let k = 0; k < 3; k++) w.i32(faces.texels[f * 6 + k * 2]);
    for (let k = 0; k < 3; k++) w.i32(faces.texels[f * 6 + k * 2 + 1]);
    w.u16(faces.flags[f]);
    w.u16(faces.dmask[f]);
    w.i32(faces.distant[f]);
    w.i32(faces.next[f]);
    w.i32(faces.group[f]);
    w.at += 12; // reserved, zero
  }
}

function writePoints(w: ByteWriter, { points }: MeshData): void {
  for (let v = 0; v < points.count; v++) {
    for (let k = 0; k < 3; k++) w.f32(points.positions[v * 3 + k]);
    w.i16(points.owners[v]);
    w.u16(points.hides[v]);
  }
}

function writeTexture(w: ByteWriter, { texture }: MeshData): void {
  if (texture) { for (const word of texture.words) w.u16(word); }
}
