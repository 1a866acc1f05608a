/**
 * A texture that is a picture narrower than 256 written at its own width. io_carnivores (and other
 * community exporters) write the Blender image's pixels unscaled, `width × height × 2` bytes, where
 * the games read 256 texels to the row: a 128×128 picture becomes 64 rows of 256, each stored row
 * holding two picture rows side by side. The games show it scrambled, and so does the decoder (it
 * decodes as the games read); this module only recognises the packing, so a warning can say why.
 *
 * The test compares the texel array under both readings. In a W-wide picture packed this way, texels
 * W apart are vertical neighbours (close), texels 256 apart are 256/W picture rows apart (further),
 * and each stored row has a seam every W texels where one picture row's right edge meets the next
 * row's left edge. A true 256-wide texture has the opposite: texels 256 apart are neighbours, and no
 * seams. Seams are what tell a packed picture from a 256-wide texture that repeats or is flat
 * across (which also has close texels W apart). Only seams at odd multiples of W are counted (those
 * at even multiples would be a wider picture's too). Only a square picture is looked for (64, 16 or
 * 4 stored rows). White noise (no neighbour closer than another), and a picture whose left and right
 * edges match (no seam), cannot be told and are not flagged; a 256-wide grid of vertical lines every
 * W texels can be taken for a packed picture.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { type Texture16, TEXTURE_WIDTH } from "./model.ts";

/** Picture widths a tool may have written unscaled. */
const NARROW_WIDTHS = [32, 64, 128] as const;

/** Texels W apart must differ no more than this times the texels 256 apart. */
const ROW_RATIO = 1;
/** ... and at least this times the other horizontal neighbours (else the texture repeats every W). */
const REPEAT_RATIO = 0.5;
/** Seam texel pairs must differ this many times more than the other horizontal neighbours. */
const SEAM_RATIO = 2;
/** The seams must differ more than this times the most differing other column. */
const PEAK_RATIO = 1;
/** Below this mean difference (of r+g+b, 5-bit channels) a texture is too flat to judge. */
const MIN_CONTRAST = 0.5;

/** The picture a packed texture holds. */
export interface NarrowPicture {
  /** Picture width in texels (32, 64 or 128). */
  readonly width: number;
  /** Picture height (the picture is square). */
  readonly height: number;
}

/**
 * The narrow picture `texture` looks like, or undefined when it reads as a 256-wide texture (or
 * cannot be told).
 *
 * @example
 * ```ts
 * const packed = narrowPicture(model.texture!);
 * if (packed) console.warn(`a ${packed.width}×${packed.height} picture written at its own width`);
 * ```
 */
export function narrowPicture(texture: Texture16): NarrowPicture | undefined {
  const { words, height } = texture;
  // Tools write the image they are given, in practice a square power-of-two picture: its side is
  // fixed by the stored rows (64 → 128, 16 → 64, 4 → 32), and only that side is tested.
  const width = NARROW_WIDTHS.find((w) => w * w === height * TEXTURE_WIDTH);
  if (width === undefined) return undefined;
  const lum = new Float32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    lum[i] = ((w >> 10) & 31) + ((w >> 5) & 31) + (w & 31);
  }
  const dRow = meanShiftDiff(lum, TEXTURE_WIDTH);
  if (dRow < MIN_CONTRAST) return undefined;
  const dWidth = meanShiftDiff(lum, width);
  if (dWidth > ROW_RATIO * dRow) return undefined;
  const { seam, inside, peak } = seamDiffs(lum, height, width);
  if (dWidth < REPEAT_RATIO * inside) return undefined;
  if (seam <= SEAM_RATIO * Math.max(inside, MIN_CONTRAST / 2)) return undefined;
  // A 256-wide texture of vertical lines (planks, a brick grid) has them at other columns too.
  if (seam <= PEAK_RATIO * peak) return undefined;
  return { width, height: width };
}

/** Mean |lum[i] − lum[i + shift]| over the whole array. */
function meanShiftDiff(lum: Float32Array, shift: number): number {
  let sum = 0;
  const n = lum.length - shift;
  for (let i = 0; i < n; i++) sum += Math.abs(lum[i] - lum[i + shift]);
  return n > 0 ? sum / n : 0;
}

/**
 * Mean difference of horizontal neighbours across the seams at odd multiples of `width` (column
 * `x − 1` and `x`), of every other horizontal neighbour pair, and the largest mean of one such other
 * column (a vertical line in a 256-wide texture).
 */
function seamDiffs(
  lum: Float32Array,
  height: number,
  width: number,
): { seam: number; inside: number; peak: number } {
  let seam = 0, seams = 0, inside = 0, insides = 0, peak = 0;
  for (let x = 1; x < TEXTURE_WIDTH; x++) {
    let column = 0;
    for (let r = 0; r < height; r++) {
      const at = r * TEXTURE_WIDTH + x;
      column += Math.abs(lum[at] - lum[at - 1]);
    }
    if (x % width === 0 && (x / width) % 2 === 1) [seam, seams] = [seam + column, seams + height];
    else if (x % width !== 0) {
      [inside, insides] = [inside + column, insides + height];
      peak = Math.max(peak, column / height);
    }
  }
  return { seam: seams ? seam / seams : 0, inside: insides ? inside / insides : 0, peak };
}

/**
 * One warning when `texture` looks like a narrow picture written at its own width (see
 * {@link narrowPicture}); the texture is decoded unchanged, as the games read it.
 */
export function warnNarrowPicture(texture: Texture16, warn: WarningSink): void {
  const packed = narrowPicture(texture);
  if (!packed) return;
  const { width, height } = packed;
  warn(
    `the texture's ${texture.height} rows of ${TEXTURE_WIDTH} look like a ${width}×${height} picture ` +
      `written at its own width (io_carnivores and other tools write a picture narrower than ` +
      `${TEXTURE_WIDTH} unscaled, ${TEXTURE_WIDTH / width} of its rows side by side in each stored row): ` +
      `decoded as the games read it, ${TEXTURE_WIDTH} texels to the row, so it shows scrambled as in the ` +
      `game — resize the picture to ${TEXTURE_WIDTH} wide before exporting`,
    { picture_width: width, picture_height: height },
  );
}
