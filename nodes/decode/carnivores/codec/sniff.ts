/**
 * Telling a `.car` or `.3df` by its content when its sizes no longer add up exactly: a file a tool
 * saved with padding after it (to 512 or 4,096 bytes, a DOS end-of-file byte), whose counts were
 * edited by hand, or that was saved under another extension (`.3df`, `.bin`, none). Neither format
 * has a magic number, so the evidence is the layout itself: counts a model can have, the face and
 * point blocks inside the file, and faces that read as faces — corners naming points of the model,
 * mostly three different ones, texel coordinates on a texture. Another format's bytes read at the
 * same offsets give counts far off or faces of zeros and huge indices.
 *
 * @module
 */
import { FACE_BYTES, HEADER_3DF_BYTES, HEADER_CAR_BYTES, POINT_BYTES, TEXTURE_ROW_BYTES } from "./model.ts";
import { is3df, layout3df } from "./parse_3df.ts";
import { isCar } from "./parse_car.ts";
import { is3dn } from "./parse_3dn.ts";

/** Most faces read for the evidence (spread over the table): enough to see a layout, quick on any file. */
const SAMPLED_FACES = 512;
/** Share of the sampled faces that must read as faces (a deleted vertex or a stray texel is allowed). */
const FACE_SHARE = 0.9;
/** Largest vertex count taken for a model (the engine's is 1,024; converters write up to 65,535). */
const MAX_VERTICES = 65_535;
/** Largest face count taken for a model. */
const MAX_FACES = 262_144;
/** Texel coordinates further outside the texture than this are not a face's. */
const TEXEL_RANGE = 4096;
/** Largest clip or sound count taken: the engine's 64, and hand-edited counts a little past it. */
const MAX_SECTIONS = 256;

/**
 * The share (0..1) of up to {@link SAMPLED_FACES} faces from `at` that read as faces of a model of
 * `vertices` points: three indices below `vertices` (not all one) and six texel coordinates within
 * ±{@link TEXEL_RANGE}. The points must be finite too: -1 when any sampled point is not.
 */
export function faceEvidence(view: DataView, at: number, faces: number, vertices: number): number {
  const step = Math.max(1, Math.floor(faces / SAMPLED_FACES));
  let good = 0, seen = 0;
  for (let f = 0; f < faces; f += step, seen++) {
    const face = at + f * FACE_BYTES;
    const [a, b, c] = [0, 4, 8].map((o) => view.getInt32(face + o, true));
    const inside = [a, b, c].every((i) => i >= 0 && i < vertices) && !(a === b && b === c);
    let texels = true;
    for (let o = 12; o < 36 && texels; o += 4) {
      const t = view.getInt32(face + o, true);
      texels = t > -TEXEL_RANGE && t < TEXEL_RANGE;
    }
    if (inside && texels) good++;
  }
  const points = at + faces * FACE_BYTES;
  const pointStep = Math.max(1, Math.floor(vertices / SAMPLED_FACES));
  for (let v = 0; v < vertices; v += pointStep) {
    for (let k = 0; k < 3; k++) {
      const x = view.getFloat32(points + v * POINT_BYTES + k * 4, true);
      if (!Number.isFinite(x) || Math.abs(x) > 1e7) return -1;
    }
  }
  return seen ? good / seen : 0;
}

/**
 * How much a file reads as a `.car` whose sizes need not add up: the share of its sampled faces that
 * read as faces, or 0 when the header's counts are not a model's or its faces and points do not fit.
 *
 * @example
 * ```ts
 * if (carEvidence(bytes) >= 0.9) console.log("a .car, padded or edited");
 * ```
 */
export function carEvidence(bytes: Uint8Array): number {
  if (bytes.byteLength < HEADER_CAR_BYTES) return 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [anims, sounds, v, f, t] = [32, 36, 40, 44, 48].map((at) => view.getInt32(at, true));
  if (anims < 0 || anims > MAX_SECTIONS || sounds < 0 || sounds > MAX_SECTIONS) return 0;
  if (v <= 0 || v > MAX_VERTICES || f <= 0 || f > MAX_FACES) return 0;
  if (t < 0 || t % TEXTURE_ROW_BYTES !== 0) return 0;
  if (HEADER_CAR_BYTES + f * FACE_BYTES + v * POINT_BYTES > bytes.byteLength) return 0;
  return Math.max(0, faceEvidence(view, HEADER_CAR_BYTES, f, v));
}

/** The same for a `.3df` (bones and texture may be cut or followed by padding). */
export function evidence3df(bytes: Uint8Array): number {
  if (bytes.byteLength < HEADER_3DF_BYTES) return 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [v, f, b, t] = [0, 4, 8, 12].map((at) => view.getInt32(at, true));
  if (v <= 0 || v > MAX_VERTICES || f <= 0 || f > MAX_FACES || b < 0 || b > 4096) return 0;
  if (t < 0 || t % TEXTURE_ROW_BYTES !== 0) return 0;
  if (layout3df(v, f, b, 0).texture > bytes.byteLength) return 0;
  return Math.max(0, faceEvidence(view, HEADER_3DF_BYTES, f, v));
}

/** True when the layout evidence says `.car` (and more than it says `.3df`). */
export function looksLikeCar(bytes: Uint8Array): boolean {
  const car = carEvidence(bytes);
  return car >= FACE_SHARE && car >= evidence3df(bytes);
}

/** True when the layout evidence says `.3df` (and more than it says `.car`). */
export function looksLike3df(bytes: Uint8Array): boolean {
  const model = evidence3df(bytes);
  return model >= FACE_SHARE && model > carEvidence(bytes);
}

/**
 * `decode.auto`'s sniff for `.3df`: the exact size check, else the layout evidence when the bytes are
 * no `.car` or `.3dn` by their exact sizes (those are told apart first).
 */
export function sniff3df(bytes: Uint8Array): boolean {
  return is3df(bytes) || (!isCar(bytes) && !is3dn(bytes) && looksLike3df(bytes));
}

/** `decode.auto`'s sniff for `.car`: the exact size check, else the layout evidence (not a `.3dn`). */
export function sniffCar(bytes: Uint8Array): boolean {
  return isCar(bytes) || (!is3dn(bytes) && looksLikeCar(bytes));
}
