/**
 * A texture written as RGB565 instead of the games' 555. The games read every texel as `0RRRRRGGGGGBBBBB`
 * (formats/carnivores-dson.md §A.4); a converter that writes the common Direct3D 16-bit format,
 * `RRRRRGGGGGGBBBBB`, makes a file the games load with wrong colours: red loses its top bit (bands
 * where red crosses half), green its top bit, and red's low bit comes from green. Nothing in the file
 * says which was meant, but a picture is smooth: side by side texels differ little in the layout it
 * was written in, and wrap in the other. When the texture wraps read as 555 and not as 565 the decoder
 * says so, with the counts of both readings; it still decodes as the games read it (what they show).
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { type Texture16, TEXTURE_WIDTH } from "./model.ts";

/** Wraps below which a picture says too little to tell. */
const MIN_WRAPS = 16;

/** The larger red or green step of two words read as 555 and as 565 (green on its 5-bit scale). */
function channelSteps(a: number, b: number): [number, number] {
  const big555 = Math.max(
    Math.abs(((a >> 10) & 31) - ((b >> 10) & 31)),
    Math.abs(((a >> 5) & 31) - ((b >> 5) & 31)),
  );
  const big565 = Math.max(
    Math.abs(((a >> 11) & 31) - ((b >> 11) & 31)),
    Math.abs(((a >> 5) & 63) - ((b >> 5) & 63)) / 2,
  );
  return [big555, big565];
}

/**
 * Wraps of each reading, as distinct pairs of words, and the share of coloured texels with bit 15
 * set: neighbouring texels (neither the colour key 0) whose red or green jumps by
 * at least 24 of 31 in one reading while every channel moves at most 2 in the other. A smooth picture
 * read in the layout it was not written in wraps where red or green crosses half its range; read in
 * its own layout it does not.
 */
export function wraps(texture: Texture16): { as555: number; as565: number; topBitShare: number } {
  const { words, height } = texture;
  // Distinct word pairs: a hard edge between two palette colours repeats one pair all along it.
  const as555 = new Set<number>(), as565 = new Set<number>();
  let top = 0, coloured = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < TEXTURE_WIDTH; x++) {
      const a = words[y * TEXTURE_WIDTH + x];
      if ((a & 0x7fff) === 0) continue;
      coloured++;
      if (a & 0x8000) top++;
      const right = x + 1 < TEXTURE_WIDTH ? words[y * TEXTURE_WIDTH + x + 1] : 0;
      const below = y + 1 < height ? words[(y + 1) * TEXTURE_WIDTH + x] : 0;
      for (const b of [right, below]) {
        if ((b & 0x7fff) === 0) continue;
        const [s555, s565] = channelSteps(a, b);
        const pair = Math.min(a, b) * 0x10000 + Math.max(a, b);
        if (s555 >= 24 && s565 <= 2) as555.add(pair);
        if (s565 >= 24 && s555 <= 2) as565.add(pair);
      }
    }
  }
  return { as555: as555.size, as565: as565.size, topBitShare: coloured ? top / coloured : 0 };
}

/** Warns when the texture wraps read as 555 and not as RGB565 (see the module doc). */
export function warnRgb565(texture: Texture16, warn: WarningSink): void {
  const { as555, as565, topBitShare } = wraps(texture);
  if (as555 < MIN_WRAPS || as555 < 8 * (as565 + 1)) return;
  // Read as 565, bit 15 is red's top bit: on where red is over half, off elsewhere. Never set (a 555
  // tool's X1R5G5B5) or always set (ARGB1555's opaque alpha), it is no colour: not a 565 picture.
  if (topBitShare < 0.01 || topBitShare > 0.99) return;
  warn(
    "the texture looks written as RGB565 (a converter's Direct3D 16-bit format), not the games' 555: " +
      `${as555} distinct neighbouring texel pairs jump by more than three quarters of red or green read as 555, ` +
      `and move by at most 2 read as 565 (${as565} the other way round). Decoded as the games read it, so ` +
      "its colours are wrong in the game too (bands where red or green crosses half): convert the picture " +
      "to 555 (X1R5G5B5)",
    { wraps_555: as555, wraps_565: as565 },
  );
}
