/**
 * Seeded game-like pictures for the narrow-picture tests: painted-skin noise (several octaves of
 * smooth value noise with per-texel grain), gradients, skins tiled horizontally, and UV atlases (noisy
 * islands on black). Each is a picture of any width, packed linearly into X1R5G5B5 words as a tool
 * that writes `width × height × 2` bytes packs it.
 */

/** Kinds of picture {@link picture} paints. */
export const PICTURE_KINDS = ["skin_noise", "gradient", "tiled_skin", "atlas"] as const;

/** A seeded xorshift32 generator in [0, 1). */
export function seeded(seed: number): () => number {
  // The state lives in an Int32Array: a closure variable holding a 32-bit value past V8's small
  // integers is a heap number, allocated anew on every draw (3× slower; the zoo draws millions). The
  // shifts and xors see the same 32 bits either way, so the stream is the one an unsigned state gives.
  const state = new Int32Array([seed >>> 0 || 1]);
  return () => {
    let s = state[0];
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    state[0] = s;
    return (s >>> 0) / 4294967296;
  };
}

/** Smooth value noise on a lattice of `cell` texels, in [0, 1]. */
export function valueNoise(
  random: () => number,
  w: number,
  h: number,
  cell: number,
): (x: number, y: number) => number {
  const gw = Math.ceil(w / cell) + 2;
  const grid = Array.from({ length: gw * (Math.ceil(h / cell) + 2) }, random);
  return (x, y) => {
    const fx = x / cell, fy = y / cell;
    const x0 = Math.floor(fx), y0 = Math.floor(fy);
    const sx = (fx - x0) * (fx - x0) * (3 - 2 * (fx - x0)), sy = (fy - y0) * (fy - y0) * (3 - 2 * (fy - y0));
    // Indexed in place (no closure per call): the zoo samples millions of texels per run.
    const i = x0 + y0 * gw;
    const top = grid[i] * (1 - sx) + grid[i + 1] * sx;
    const bottom = grid[i + gw] * (1 - sx) + grid[i + gw + 1] * sx;
    return top * (1 - sy) + bottom * sy;
  };
}

/** A `w × h` picture of `kind` as X1R5G5B5 words, row after row. */
export function picture(kind: typeof PICTURE_KINDS[number], w: number, h: number, seed: number): Uint16Array {
  const random = seeded(seed);
  const grain = 0.02 + random() * 0.06;
  const base = [random(), random(), random()], tint = [random(), random(), random()];
  const angle = random() * Math.PI * 2;
  const period = [16, 32, 64][Math.floor(random() * 3)];
  const octaves = [4 + random() * 8, 16 + random() * 16, 48 + random() * 32].map((c) =>
    valueNoise(random, w, h, c)
  );
  const islands = Array.from({ length: 3 + Math.floor(random() * 5) }, () => {
    const x0 = Math.floor(random() * w * 0.7), y0 = Math.floor(random() * h * 0.7);
    const x1 = x0 + 8 + Math.floor(random() * w * 0.4), y1 = y0 + 2 + Math.floor(random() * h * 0.4);
    return {
      x0,
      y0,
      x1,
      y1,
      colour: [random(), random(), random()],
      noise: valueNoise(random, w, h, 3 + random() * 10),
    };
  });
  const words = new Uint16Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let rgb: number[];
      if (kind === "gradient") {
        const t = ((x / w) * Math.cos(angle) + (y / h) * Math.sin(angle)) * 0.5 + 0.5;
        rgb = [
          base[0] * (1 - t) + tint[0] * t,
          base[1] * (1 - t) + tint[1] * t,
          base[2] * (1 - t) + tint[2] * t,
        ];
      } else if (kind === "tiled_skin") {
        const scale = Math.abs(
          Math.sin((x % period) / period * Math.PI) * Math.sin((y % period) / period * Math.PI),
        );
        rgb = base.map((b, c) => b * 0.6 + tint[c] * 0.4 * scale);
      } else if (kind === "skin_noise") {
        const n = octaves[0](x, y) * 0.25 + octaves[1](x, y) * 0.35 + octaves[2](x, y) * 0.4;
        rgb = [
          base[0] * (1 - n) + tint[0] * n,
          base[1] * (1 - n) + tint[1] * n,
          base[2] * (1 - n) + tint[2] * n,
        ];
      } else {
        rgb = [0, 0, 0];
        for (const i of islands) {
          if (x >= i.x0 && x < i.x1 && y >= i.y0 && y < i.y1) {
            rgb = i.colour.map((c) => c * (0.5 + 0.5 * i.noise(x, y)));
          }
        }
      }
      // Channel by channel, red first (the grain's draws in that order), without a per-texel array.
      const r = Math.round(Math.min(1, Math.max(0, rgb[0] + (random() - 0.5) * grain)) * 31);
      const g = Math.round(Math.min(1, Math.max(0, rgb[1] + (random() - 0.5) * grain)) * 31);
      const b = Math.round(Math.min(1, Math.max(0, rgb[2] + (random() - 0.5) * grain)) * 31);
      words[y * w + x] = (r << 10) | (g << 5) | b;
    }
  }
  return words;
}

/**
 * A `w × h` brick or plank wall as X1R5G5B5 words: bricks `period` texels wide and `period / 4` rows
 * high, 2-texel mortar lines, every other course offset by half a brick when `running`, with grain.
 */
export function brickWall(w: number, h: number, period: number, running: boolean, seed: number): Uint16Array {
  const random = seeded(seed);
  const brick = [random(), random(), random()], mortar = [random() * 0.3, random() * 0.3, random() * 0.3];
  const course = Math.max(2, period / 4);
  const words = new Uint16Array(w * h);
  for (let y = 0; y < h; y++) {
    const offset = running && Math.floor(y / course) % 2 ? period / 2 : 0;
    for (let x = 0; x < w; x++) {
      const line = (x + offset) % period < 2 || y % course < 2;
      const [r, g, b] = (line ? mortar : brick).map((v) =>
        Math.round(Math.min(1, Math.max(0, v + (random() - 0.5) * 0.08)) * 31)
      );
      words[y * w + x] = (r << 10) | (g << 5) | b;
    }
  }
  return words;
}
