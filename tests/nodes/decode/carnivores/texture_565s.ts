/**
 * A generator of Carnivores textures as tools write them: pictures (skin-like value noise over
 * gradients, hard-edged patches, per-texel grain, flat fills, one channel pinned, colour-key holes) packed in the games'
 * 555 — bit 15 clear, set on every texel (ARGB1555 with opaque alpha), or left as noise — or, by a
 * converter that writes Direct3D's common 16-bit format, in RGB565. Each says which it is.
 *
 * @module
 */
import type { Texture16 } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { prng } from "../../../support/prng.ts";

/** A generated texture and how it was packed. */
export interface PackedTexture {
  readonly texture: Texture16;
  readonly packing: "555" | "565";
  readonly label: string;
}

/** The texture of `seed`. */
export function packedTexture(seed: number): PackedTexture {
  const next = prng(seed);
  const height = [32, 64, 128, 256][Math.floor(next() * 4)];
  // 0 noise skin, 1 patches, 2 grain, 3 flat, 4 gradient, 5 skin with one channel pinned (a green or
  // blue-only picture, or red saturated)
  const style = Math.floor(next() * 6);
  const pinned = Math.floor(next() * 3);
  const pinnedTo = next() < 0.5 ? 0 : 1;
  const grain = style === 2 ? 0.6 : 0.04;
  const base = [next(), next(), next()];
  const tint = [next(), next(), next()];
  const lattice = Array.from({ length: 17 * 17 }, () => next());
  const noise = (x: number, y: number) => {
    const gx = (x / 256) * 16, gy = (y / height) * 16;
    const ix = Math.floor(gx), iy = Math.floor(gy), fx = gx - ix, fy = gy - iy;
    const at = (i: number, j: number) => lattice[Math.min(16, j) * 17 + Math.min(16, i)];
    const top = at(ix, iy) * (1 - fx) + at(ix + 1, iy) * fx;
    const bottom = at(ix, iy + 1) * (1 - fx) + at(ix + 1, iy + 1) * fx;
    return top * (1 - fy) + bottom * fy;
  };
  const holes = next() < 0.3;
  const packing: "555" | "565" = next() < 0.4 ? "565" : "555";
  const bit15 = Math.floor(next() * 3); // 555 only: 0 clear, 1 set, 2 random
  const words = new Uint16Array(256 * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < 256; x++) {
      if (holes && ((x >> 5) + (y >> 5)) % 5 === 0) continue; // colour-key 0
      const n = style === 3 ? 0.5 : style === 4 ? (x + y) / (256 + height) : noise(x, y);
      const patch = style === 1 ? (((x >> 4) ^ (y >> 4)) & 1) * 0.3 : 0;
      const rgb = [0, 1, 2].map((k) =>
        style === 5 && k === pinned
          ? pinnedTo
          : Math.min(1, Math.max(0, base[k] * 0.5 + tint[k] * n * 0.6 + patch + (next() - 0.5) * grain))
      );
      let word: number;
      if (packing === "565") {
        word = (Math.round(rgb[0] * 31) << 11) | (Math.round(rgb[1] * 63) << 5) | Math.round(rgb[2] * 31);
      } else {
        word = (Math.round(rgb[0] * 31) << 10) | (Math.round(rgb[1] * 31) << 5) | Math.round(rgb[2] * 31);
        if (bit15 === 1 || (bit15 === 2 && next() < 0.5)) word |= 0x8000;
      }
      words[y * 256 + x] = word || 1; // a black texel is not the colour key unless a hole
    }
  }
  return { texture: { height, words }, packing, label: `seed ${seed}: ${packing} style ${style} h${height}` };
}
