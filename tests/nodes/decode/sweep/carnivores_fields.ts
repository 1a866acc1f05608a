/**
 * The structural fields of Carnivores `.3df`, `.car` and `.rsc` files, as sweep cases: each field the
 * decoders read (counts, sizes, face indices, texels, owners, bone parents, frame counts, sound
 * lengths, the anim→sound table, `.rsc` section counts and object animations) set to its boundary
 * values. Offsets come from walking the valid seed file by the format's published layout
 * (`formats/carnivores-dson.md` A.2, A.8, A.9).
 *
 * @module
 */
import { type RscLayout, walkRsc } from "../../../../nodes/decode/carnivores/codec/rsc_layout.ts";
import { type Case, Cases, F32, I16, I32, U16, U32 } from "./cases.ts";

const FACE = 64;
const POINT = 16;
const BONE = 48;
const ROW = 512;

/** Boundary values of an int32 count of `unit`-byte elements, with `room` bytes of file left for them. */
function countValues(orig: number, unit: number, room: number): number[] {
  return [
    0,
    1,
    -1,
    I32.max,
    I32.min,
    orig - 1,
    orig + 1,
    Math.floor(room / unit),
    Math.floor(room / unit) + 1,
  ];
}

/** The fields of a 3DF body (header at `base`) into `cases`; `label` prefixes field names. */
export function bodyFields(bytes: Uint8Array, base: number, label: string, cases: Cases): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [v, f, b, t] = [0, 4, 8, 12].map((k) => view.getInt32(base + k, true));
  const room = bytes.byteLength - base - 16;
  cases.field(`${label}vertex count`, base, I32, countValues(v, POINT, room));
  cases.field(`${label}face count`, base + 4, I32, countValues(f, FACE, room));
  cases.field(`${label}bone count`, base + 8, I32, countValues(b, BONE, room));
  cases.field(`${label}texture size`, base + 12, I32, [
    0,
    1,
    -1,
    ROW - 1,
    ROW,
    ROW + 1,
    t - ROW,
    t - 1,
    t + 1,
    t + ROW,
    256 * ROW,
    257 * ROW,
    room,
    I32.max,
  ]);
  const faces = base + 16;
  const points = faces + f * FACE;
  const bones = points + v * POINT;
  const height = Math.max(1, t / ROW);
  for (const face of pick(f)) {
    const at = faces + face * FACE;
    for (let k = 0; k < 3; k++) {
      cases.field(`${label}face ${face} vertex ${k}`, at + 4 * k, I32, [-1, 0, v - 1, v, I32.max, I32.min]);
      cases.field(`${label}face ${face} u ${k}`, at + 12 + 4 * k, I32, [-1, 255, 256, I32.max, I32.min]);
      cases.field(`${label}face ${face} v ${k}`, at + 24 + 4 * k, I32, [-1, height - 1, height, I32.max]);
    }
    cases.field(`${label}face ${face} flags`, at + 36, U16, [0, 1, 4, 8, 12, 0x10, 0x30, 0x8000, 0xffff]);
    // Engine scratch words: a reader that follows them as links would loop or jump.
    cases.field(`${label}face ${face} next`, at + 44, I32, [face, -1, f, I32.max]);
  }
  // Every vertex of the small seeds degenerates one triangle when moved onto another: done by indices.
  for (const point of pick(v)) {
    const at = points + point * POINT;
    cases.field(`${label}point ${point} x`, at, F32, [NaN, Infinity, -Infinity, 3.4e38]);
    cases.field(`${label}point ${point} owner`, at + 12, I16, [-1, 0, b - 1, b, I16.max, I16.min]);
  }
  for (let bone = 0; bone < b; bone++) {
    const at = bones + bone * BONE + 44;
    cases.field(`${label}bone ${bone} parent`, at, I16, [-1, bone, bone + 1, b - 1, b, I16.max, I16.min]);
    cases.field(`${label}bone ${bone} pivot x`, at - 12, F32, [NaN, Infinity, 3.4e38]);
  }
  if (b >= 2) {
    // A two-bone cycle (0 → 1 → 0) and a cycle through the whole table (each bone's parent the next).
    cases.edits(`${label}bones 0 and 1 parent each other`, "cycle", [
      { at: bones + 44, type: I16, value: 1 },
      { at: bones + BONE + 44, type: I16, value: 0 },
    ]);
    cases.edits(
      `${label}every bone's parent the next`,
      "cycle",
      Array.from({ length: b }, (_, i) => ({ at: bones + i * BONE + 44, type: I16, value: (i + 1) % b })),
    );
    cases.edits(
      `${label}every bone a root`,
      "-1",
      Array.from({ length: b }, (_, i) => ({ at: bones + i * BONE + 44, type: I16, value: -1 })),
    );
  }
}

/** The first, second and last element of `n` (all of them when few): where off-by-ones show. */
function pick(n: number): number[] {
  return [...new Set([0, 1, n - 1].filter((i) => i >= 0 && i < n))];
}

/** The cases of a `.3df`. */
export function cases3df(bytes: Uint8Array): Case[] {
  const cases = new Cases(bytes);
  bodyFields(bytes, 0, "", cases);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [v, f, b] = [0, 4, 8].map((k) => view.getInt32(k, true));
  const texture = 16 + f * FACE + v * POINT + b * BONE;
  cases.truncations("file length", [
    0,
    15,
    16,
    16 + f * FACE - 1,
    texture,
    texture + ROW - 1,
    bytes.byteLength - 1,
  ]);
  return cases.list;
}

/** The cases of a `.car`. */
export function casesCar(bytes: Uint8Array): Case[] {
  const cases = new Cases(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i32 = (at: number) => view.getInt32(at, true);
  const [anims, sounds, v, f, t] = [32, 36, 40, 44, 48].map(i32);
  const room = bytes.byteLength - 52;
  cases.field("animation count", 32, I32, [...countValues(anims, 40, room), 64, 65]);
  cases.field("sound count", 36, I32, [...countValues(sounds, 36, room), 64, 65]);
  // The body fields as a 3DF sees them do not apply (different header): the same sweep by hand.
  cases.field("vertex count", 40, I32, countValues(v, POINT, room));
  cases.field("face count", 44, I32, countValues(f, FACE, room));
  cases.field("texture size", 48, I32, [
    0,
    1,
    -1,
    ROW - 1,
    ROW + 1,
    t - 1,
    t + 1,
    t + ROW,
    257 * ROW,
    I32.max,
  ]);
  const faces = 52;
  const points = faces + f * FACE;
  for (const face of pick(f)) {
    for (let k = 0; k < 3; k++) {
      cases.field(`face ${face} vertex ${k}`, faces + face * FACE + 4 * k, I32, [-1, v - 1, v, I32.max]);
    }
    cases.field(`face ${face} flags`, faces + face * FACE + 36, U16, [4, 8, 12, 0xffff]);
  }
  for (const point of pick(v)) {
    cases.field(`point ${point} owner`, points + point * POINT + 12, I16, [-1, 1, 1024, I16.max, I16.min]);
  }
  let at = points + v * POINT + t;
  for (let a = 0; a < anims && at + 40 <= bytes.byteLength; a++) {
    const frames = i32(at + 36);
    const left = bytes.byteLength - at - 40;
    cases.field(`animation ${a} frames per second`, at + 32, I32, [0, 1, -1, 1000, 1001, I32.max, I32.min]);
    cases.field(`animation ${a} frame count`, at + 36, I32, [
      ...countValues(frames, v * 6, left),
      frames * 2,
    ]);
    at += 40 + frames * v * 6;
  }
  for (let s = 0; s < sounds && at + 36 <= bytes.byteLength; s++) {
    const length = i32(at + 32);
    const left = bytes.byteLength - at - 36;
    cases.field(`sound ${s} length`, at + 32, I32, [
      0,
      1,
      -1,
      length - 1,
      length + 1,
      left,
      left + 1,
      I32.max,
    ]);
    at += 36 + length;
  }
  if (at + 256 <= bytes.byteLength) {
    for (const slot of [0, anims - 1, 63].filter((s) => s >= 0)) {
      cases.field(`anim→sound slot ${slot}`, at + slot * 4, I32, [
        -1,
        0,
        sounds - 1,
        sounds,
        I32.max,
        I32.min,
      ]);
    }
  }
  cases.truncations("file length", [52, points, points + v * POINT, at, at + 255, bytes.byteLength - 1]);
  return cases.list;
}

/** The cases of a `.rsc` (either layout: the one its encoder wrote is found by walking it). */
export function casesRsc(bytes: Uint8Array): Case[] {
  const cases = new Cases(bytes);
  const layout = [walkRsc(bytes, "c1"), walkRsc(bytes, "c2")].find((l): l is RscLayout => "objects" in l);
  if (!layout) throw new Error("the seed .rsc fits neither layout");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const room = bytes.byteLength - layout.textures;
  cases.field("texture count", 0, I32, countValues(layout.textureCount, 128 * 128 * 2, room));
  cases.field("object count", 4, I32, countValues(layout.objectCount, 64 + 16, room));
  layout.objects.forEach((o, index) => {
    const flags = view.getUint32(o.info + 28, true);
    cases.field(`object ${index} flags`, o.info + 28, U32, [0, flags ^ 0x80000000, 0xffffffff]);
    bodyFields(bytes, o.body, `object ${index} `, cases);
    if (o.animation < 0) return;
    const at = o.animation;
    const vertices = view.getInt32(at + 4, true);
    const stored = view.getInt32(at + 12, true);
    const left = o.end - at - 16;
    cases.field(`object ${index} animation vc0`, at, I32, [0, -1, vertices + 1, I32.max]);
    cases.field(`object ${index} animation vertex count`, at + 4, I32, [
      0,
      1,
      -1,
      vertices - 1,
      vertices + 1,
      I32.max,
    ]);
    cases.field(`object ${index} animation frames per second`, at + 8, I32, [0, 1, -1, I32.max, I32.min]);
    cases.field(`object ${index} animation stored frames`, at + 12, I32, [
      ...countValues(stored, Math.max(1, vertices * 6), left),
      -2,
    ]);
  });
  // The tail sections: counts found by walking past the sky and cloud map, as the layout does.
  const skies = layout.version === "c1" ? 1 : 3;
  let at = layout.sky + skies * 256 * 256 * 2 + 128 * 128;
  cases.field("fog count", at, I32, countValues(layout.fogs, 20, bytes.byteLength - at));
  at += 4 + layout.fogs * 20;
  cases.field("random sound count", at, I32, countValues(layout.randomSounds, 4, bytes.byteLength - at));
  at += 4;
  for (let s = 0; s < layout.randomSounds; s++) {
    const length = view.getInt32(at, true);
    cases.field(`random sound ${s} length`, at, I32, [0, -1, length - 1, length + 1, I32.max]);
    at += 4 + length;
  }
  cases.field("ambient sound count", at, I32, countValues(layout.ambientSounds, 268, bytes.byteLength - at));
  at += 4;
  for (let s = 0; s < layout.ambientSounds; s++) {
    const length = view.getInt32(at, true);
    cases.field(`ambient sound ${s} length`, at, I32, [0, -1, length - 1, length + 1, I32.max]);
    at += 4 + length + 264;
  }
  if (layout.version === "c2") {
    cases.field("water count", at, I32, countValues(layout.waters, 16, bytes.byteLength - at));
  }
  cases.truncations("file length", [8, layout.textures, layout.sky, bytes.byteLength - 1]);
  return cases.list;
}
