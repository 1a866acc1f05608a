/**
 * Where things are in a `.car` the Carnivores generators write, and the seeded draws they share: the
 * generators (`tool_saves.ts`, `zero_tails.ts`, `hidden_sounds.ts`, `car_edits.ts`) and the count
 * tests each computed the first clip header's byte and walked the clips to a frame count's byte.
 *
 * @module
 */
import {
  FACE_BYTES,
  HEADER_CAR_BYTES,
  NAME_BYTES,
  POINT_BYTES,
} from "../../../../nodes/decode/carnivores/codec/model.ts";

/** Bytes of a clip header: name, KPS, frame count. */
const CLIP_HEADER_BYTES = NAME_BYTES + 8;

/** Byte of the first clip header of the `.car` in `bytes`, from its header's face, point and texture sizes. */
export function carClipsAt(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [points, faces, texture] = [40, 44, 48].map((at) => view.getInt32(at, true));
  return HEADER_CAR_BYTES + faces * FACE_BYTES + points * POINT_BYTES + texture;
}

/**
 * Byte of each clip header from `clipsAt` for clips of `frames` frames (their true counts) of `vertices`
 * points, and where the clips end: `[...headers, end]`.
 */
export function clipHeaders(clipsAt: number, vertices: number, frames: readonly number[]): number[] {
  const at = [clipsAt];
  for (const count of frames) at.push(at[at.length - 1] + CLIP_HEADER_BYTES + count * vertices * 6);
  return at;
}

/** Byte of a clip's stored frame count, its header at `headerAt`. */
export function frameCountAt(headerAt: number): number {
  return headerAt + NAME_BYTES + 4;
}

/** Seeded draws: an integer from `lo` to `hi` (both included) and an element of a list. */
export function draws(random: () => number): {
  int: (lo: number, hi: number) => number;
  pick: <T>(list: readonly T[]) => T;
} {
  return {
    int: (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(random() * list.length)],
  };
}
