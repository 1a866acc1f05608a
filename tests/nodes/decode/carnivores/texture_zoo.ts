/**
 * A seeded zoo of texture content for the narrow-picture detector: what modders paint or paste into a
 * Carnivores texture — photo-like scenes (1/f noise with hard-edged shapes and a light gradient), white
 * noise, flat colours, gradients, painted skins, UV atlases on black, camouflage blobs, brick and
 * plank walls, grids, checker and diamond tiles. Every kind paints a picture of any width and height
 * as X1R5G5B5 words, row after row, as a tool that writes `width × height × 2` bytes lays it out.
 *
 * The detector's confusion matrix is measured over {@link zooCases}: 256-wide textures of every
 * height a file holds (negatives) and pictures 32, 64 or 128 wide, square or not, packed at their
 * own width (positives).
 */
import { picture, seeded, valueNoise } from "./pictures.ts";

/** Kinds of content {@link zooPicture} paints. */
export const ZOO_KINDS = [
  "photo",
  "white_noise",
  "flat",
  "gradient",
  "skin",
  "atlas",
  "camo",
  "bricks",
  "planks",
  "grid",
  "checker",
  "diamond",
] as const;

/** One kind of content. */
export type ZooKind = typeof ZOO_KINDS[number];

type Rgb = [number, number, number];

/** Rounds an RGB triple in [0, 1] (clamped) with grain to an X1R5G5B5 word. */
function toWord(rgb: readonly number[], grain: number, random: () => number): number {
  // Channel by channel, red first (the grain's draws in that order), without a per-texel array.
  const r = Math.round(Math.min(1, Math.max(0, rgb[0] + (random() - 0.5) * grain)) * 31);
  const g = Math.round(Math.min(1, Math.max(0, rgb[1] + (random() - 0.5) * grain)) * 31);
  const b = Math.round(Math.min(1, Math.max(0, rgb[2] + (random() - 0.5) * grain)) * 31);
  return (r << 10) | (g << 5) | b;
}

const mix = (a: readonly number[], b: readonly number[], t: number): Rgb => [
  a[0] * (1 - t) + b[0] * t,
  a[1] * (1 - t) + b[1] * t,
  a[2] * (1 - t) + b[2] * t,
];

/** A `w × h` picture of `kind` as X1R5G5B5 words, row after row. */
export function zooPicture(kind: ZooKind, w: number, h: number, seed: number): Uint16Array {
  const random = seeded(seed * 2654435761 + 17);
  const colour = (): Rgb => [random(), random(), random()];
  const a = colour(), b = colour(), c = colour();
  const grain = 0.01 + random() * 0.08;
  const period = [8, 16, 32, 64, 128][Math.floor(random() * 5)];
  const line = 1 + Math.floor(random() * 3);
  const words = new Uint16Array(w * h);
  let paint: (x: number, y: number) => readonly number[];
  switch (kind) {
    case "photo": {
      // Octaves with amplitude growing with their cell (a 1/f spectrum), a light gradient, and
      // hard-edged ellipses and boxes (objects) shaded by their own noise.
      const octaves = [3, 7, 15, 31, 63].map((cell) => ({ cell, n: valueNoise(random, w, h, cell) }));
      const light = random() * Math.PI * 2;
      const shapes = Array.from({ length: 2 + Math.floor(random() * 6) }, () => ({
        cx: random() * w,
        cy: random() * h,
        rx: 4 + random() * w * 0.3,
        ry: 4 + random() * h * 0.3,
        box: random() < 0.4,
        rgb: colour(),
      }));
      paint = (x, y) => {
        let n = 0, total = 0;
        for (const o of octaves) {
          n += o.n(x, y) * o.cell;
          total += o.cell;
        }
        const t = (x / w) * Math.cos(light) + (y / h) * Math.sin(light);
        let rgb = mix(a, b, n / total);
        for (const s of shapes) {
          const dx = (x - s.cx) / s.rx, dy = (y - s.cy) / s.ry;
          if (s.box ? Math.abs(dx) < 1 && Math.abs(dy) < 1 : dx * dx + dy * dy < 1) {
            rgb = mix(s.rgb, rgb, 0.3 * octaves[1].n(x, y));
          }
        }
        return [rgb[0] * (0.7 + 0.3 * t), rgb[1] * (0.7 + 0.3 * t), rgb[2] * (0.7 + 0.3 * t)];
      };
      break;
    }
    case "white_noise": {
      const amount = 0.1 + random() * 0.8;
      paint = () => [
        a[0] + (random() - 0.5) * amount,
        a[1] + (random() - 0.5) * amount,
        a[2] + (random() - 0.5) * amount,
      ];
      break;
    }
    case "flat":
      paint = () => a;
      break;
    case "gradient":
      return picture("gradient", w, h, seed);
    case "skin":
      return picture("skin_noise", w, h, seed);
    case "atlas":
      return picture("atlas", w, h, seed);
    case "camo": {
      const n = valueNoise(random, w, h, 6 + random() * 20);
      const m = valueNoise(random, w, h, 4 + random() * 12);
      paint = (x, y) => {
        const v = n(x, y) * 0.7 + m(x, y) * 0.3;
        return v < 0.4 ? a : v < 0.55 ? b : c;
      };
      break;
    }
    case "bricks": {
      const course = Math.max(3, Math.round(period / (2 + random() * 3)));
      const running = random() < 0.6;
      const shade = valueNoise(random, w, h, 5 + random() * 10);
      paint = (x, y) => {
        const offset = running && Math.floor(y / course) % 2 ? period / 2 : 0;
        const mortar = (x + offset) % period < line || y % course < line;
        return mortar ? c.map((v) => v * 0.4) : a.map((v) => v * (0.75 + 0.25 * shade(x, y)));
      };
      break;
    }
    case "planks": {
      // Vertical planks with grain streaks running down them.
      const streaks = valueNoise(random, w * 8, h, 12);
      paint = (x, y) => {
        const seam = x % period < line;
        return seam ? a.map((v) => v * 0.3) : mix(a, b, streaks(x * 8, y / 6) * 0.6);
      };
      break;
    }
    case "grid":
      paint = (x, y) => (x % period < line || y % period < line ? b : a);
      break;
    case "checker":
      paint = (x, y) => ((Math.floor(x / period) + Math.floor(y / period)) % 2 ? b : a);
      break;
    case "diamond":
      paint = (x, y) => {
        const u = (x % period) / period - 0.5, v = (y % period) / period - 0.5;
        return Math.abs(u) + Math.abs(v) < 0.35 ? b : a;
      };
      break;
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) words[y * w + x] = toWord(paint(x, y), grain, random);
  }
  return words;
}

/** Picture widths a tool may write unscaled (32, 64, 128), with the heights tried for each. */
export const PACKED_SHAPES: readonly { width: number; height: number }[] = [32, 64, 128].flatMap((width) =>
  [width / 4, width / 2, width, width * 2, width * 4]
    .filter((height) => (width * height) / 256 >= 4 && (width * height) / 256 <= 256)
    .map((height) => ({ width, height }))
);

/** Pictures wider than 256 a tool may write unscaled (each row over 2 or 4 stored rows). */
export const WIDE_SHAPES: readonly { width: number; height: number }[] = [
  { width: 512, height: 128 },
  { width: 512, height: 256 },
  { width: 512, height: 512 },
  { width: 1024, height: 256 },
];

/** Every kind × wide shape, and 256-wide textures of 256, 512 and 1024 rows, `perCell` seeds each. */
export function* wideZooCases(firstSeed: number, perCell: number): Generator<ZooCase> {
  for (const kind of ZOO_KINDS) {
    for (let i = 0; i < perCell; i++) {
      const seed = firstSeed + i;
      for (const shape of WIDE_SHAPES) {
        const words = zooPicture(kind, shape.width, shape.height, seed * 1019 + shape.width + shape.height);
        yield { kind, rows: (shape.width * shape.height) / 256, words, packed: shape };
      }
      for (const rows of [256, 512, 1024]) {
        yield { kind, rows, words: zooPicture(kind, 256, rows, seed * 1021 + rows) };
      }
    }
  }
}

/** Stored rows of 256-wide textures tried as negatives. */
export const WIDE_HEIGHTS = [4, 8, 16, 32, 64, 128, 256] as const;

/** One texture: its words as stored (256 to the row), and the picture it packs, if any. */
export interface ZooCase {
  readonly kind: ZooKind;
  readonly rows: number;
  readonly words: Uint16Array;
  /** The packed picture's size; undefined for a 256-wide texture. */
  readonly packed?: { width: number; height: number };
}

/** Every kind × shape (packed and 256-wide), `perCell` seeds each from `firstSeed`. */
export function* zooCases(firstSeed: number, perCell: number): Generator<ZooCase> {
  for (const kind of ZOO_KINDS) {
    for (let i = 0; i < perCell; i++) {
      const seed = firstSeed + i;
      for (const shape of PACKED_SHAPES) {
        const words = zooPicture(
          kind,
          shape.width,
          shape.height,
          seed * 1009 + shape.width * 7 + shape.height,
        );
        yield { kind, rows: (shape.width * shape.height) / 256, words, packed: shape };
      }
      for (const rows of WIDE_HEIGHTS) {
        yield { kind, rows, words: zooPicture(kind, 256, rows, seed * 1013 + rows) };
      }
    }
  }
}

/**
 * Pictures of widths that do not divide 256 (a modder's 96×96 or 200×256 skin) that a tool may write
 * unscaled: their rows run on across the stored rows.
 */
export const ODD_SHAPES: readonly { width: number; height: number }[] = [
  [48, 48],
  [96, 96],
  [96, 128],
  [96, 192],
  [160, 160],
  [160, 128],
  [192, 192],
  [192, 256],
  [200, 256],
  [224, 224],
  [240, 240],
  [240, 128],
  [144, 144],
  [80, 80],
  [120, 160],
  [176, 176],
].map(([width, height]) => ({ width, height }));

/** Stored rows of 256-wide negatives whose texel count a width not dividing 256 also divides. */
export const ODD_HEIGHTS = [9, 36, 48, 80, 100, 120, 144, 192, 196, 200, 225, 81, 250] as const;

/** Every kind × odd shape, and 256-wide textures of {@link ODD_HEIGHTS} rows, `perCell` seeds each. */
export function* oddZooCases(firstSeed: number, perCell: number): Generator<ZooCase> {
  for (const kind of ZOO_KINDS) {
    for (let seed = firstSeed; seed < firstSeed + perCell; seed++) {
      for (const shape of ODD_SHAPES) {
        const words = zooPicture(
          kind,
          shape.width,
          shape.height,
          seed * 1009 + shape.width * 7 + shape.height,
        );
        yield { kind, rows: (shape.width * shape.height) / 256, words, packed: shape };
      }
      for (const rows of ODD_HEIGHTS) {
        yield { kind, rows, words: zooPicture(kind, 256, rows, seed * 1013 + rows) };
      }
    }
  }
}
