/**
 * A `.rsc` writer for fixtures: the C1 or C2 layout (see `rsc_layout.ts`), with code-built objects
 * (their 3DF bodies from `encode3df`), ground textures and the tail sections filled with counts the
 * tests choose.
 *
 * @module
 */
import { ByteWriter } from "../byte_writer.ts";
import { encode3df } from "./encode.ts";
import type { CarAnimation, Model3df } from "../../../nodes/decode/carnivores/codec/model.ts";

/** One object to write. */
export interface RscObjectSpec {
  readonly model: Model3df;
  /** TObjInfo.flags; the animated bit (0x80000000) is set when `animation` is given. */
  readonly flags?: number;
  /** TObjInfo's first seven int32 (Radius, YLo, YHi, linelength, lintensity, circlerad, cintensity). */
  readonly info?: readonly number[];
  /** The object's animation; written with the stored frame count one less than its frames. */
  readonly animation?: CarAnimation;
  /** Vertex count written in the animation header (default: the model's). */
  readonly animationVertexCount?: number;
  /** The C2 billboard's texel word (default 0x1234). */
  readonly billboardWord?: number;
}

/** What to write. */
export interface RscSpec {
  readonly version: "c1" | "c2";
  /** Ground textures: texel (x, y) of texture t is `ground(t, x, y)`. */
  readonly textures?: number;
  readonly ground?: (t: number, x: number, y: number) => number;
  readonly objects: readonly RscObjectSpec[];
  readonly fogs?: number;
  readonly randomSounds?: readonly number[];
  readonly ambientSounds?: readonly number[];
  readonly waters?: number;
}

/**
 * Encodes a `.rsc`.
 *
 * @example
 * ```ts
 * const bytes = encodeRsc({ version: "c2", objects: [{ model: limbModel() }] });
 * ```
 */
export function encodeRsc(spec: RscSpec): Uint8Array {
  const chunks: Uint8Array[] = [];
  const ints = (...values: number[]) => {
    const w = new ByteWriter(values.length * 4);
    for (const v of values) w.i32(v | 0);
    chunks.push(w.finish());
  };
  const textures = spec.textures ?? 0;
  ints(textures, spec.objects.length);
  const sets = spec.version === "c1" ? 1 : 3;
  for (let i = 0; i < sets * 2; i++) ints(10 * i + 1, 10 * i + 2, 10 * i + 3);
  for (let t = 0; t < textures; t++) {
    const w = new ByteWriter(128 * 128 * 2);
    for (let y = 0; y < 128; y++) for (let x = 0; x < 128; x++) w.u16(spec.ground?.(t, x, y) ?? t + 1);
    chunks.push(w.finish());
  }
  for (const object of spec.objects) {
    const flags = ((object.flags ?? 0) | (object.animation ? 0x80000000 : 0)) >>> 0;
    const info = new ByteWriter(64);
    for (const v of object.info ?? [10, -1, 20, 256, 30, 40, 50]) info.i32(v);
    info.u32(flags);
    info.i32(5); // GrRad
    info.i32(6); // DefLight
    info.i32(0); // LastAniTime
    info.f32(1.5); // BoundR
    info.at += 16; // reserved
    chunks.push(info.finish(), encode3df(object.model));
    if (spec.version === "c2") {
      const w = new ByteWriter(128 * 128 * 2);
      for (let i = 0; i < 128 * 128; i++) w.u16(object.billboardWord ?? 0x1234);
      chunks.push(w.finish());
    }
    if (object.animation) {
      const clip = object.animation;
      const vertices = object.animationVertexCount ?? object.model.points.count;
      const w = new ByteWriter(16 + clip.positions.length * 2);
      w.i32(vertices);
      w.i32(vertices);
      w.i32(clip.kps);
      w.i32(clip.frameCount - 1);
      for (const value of clip.positions) w.i16(value);
      chunks.push(w.finish());
    }
  }
  chunks.push(new Uint8Array(sets * 256 * 256 * 2 + 128 * 128));
  ints(spec.fogs ?? 0);
  chunks.push(new Uint8Array((spec.fogs ?? 0) * 20));
  ints((spec.randomSounds ?? []).length);
  for (const length of spec.randomSounds ?? []) {
    ints(length);
    chunks.push(new Uint8Array(length));
  }
  ints((spec.ambientSounds ?? []).length);
  for (const length of spec.ambientSounds ?? []) {
    ints(length);
    chunks.push(new Uint8Array(length + 16 * 16 + 8));
  }
  if (spec.version === "c2") {
    ints(spec.waters ?? 0);
    chunks.push(new Uint8Array((spec.waters ?? 0) * 16));
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
