/**
 * A texture that is a picture narrower than 256 written at its own width. io_carnivores (and other
 * community exporters) write the Blender image's pixels unscaled, `width × height × 2` bytes, where
 * the games read 256 texels to the row: a 128×128 picture becomes 64 rows of 256, each stored row
 * holding two picture rows side by side. The games show it scrambled, and so does the decoder (it
 * decodes as the games read); this module only recognises the packing, so a warning can say why.
 *
 * The test compares the texel array under both readings, for each width W of 32, 64 and 128 (smallest
 * first) whose picture, `stored rows × 256 / W` high, is at most four times as tall as wide or as wide
 * as tall (128×256 is 128 rows, 64×256 is 64, 128×64 is 32). In a W-wide picture packed this way,
 * texels W apart are vertical neighbours (close), texels 256 apart are 256/W picture rows apart
 * (further), texels W/2 apart are half a row apart (further too), and each stored row has a seam every
 * W texels where one picture row's right edge meets the next row's left edge: a single step, with
 * ordinary columns beside it. A true 256-wide texture has the opposite: texels 256 apart are
 * neighbours, and no seams. What else has close texels W apart and a step every W is a 256-wide
 * pattern that repeats every W (bricks, planks, a grid, tiles); it is told apart three ways: its lines
 * have a step on each side (a line is a few texels wide) and at other columns too, and its pairs W
 * apart that wrap to the next row differ more than those within a row, which repeat exactly. Only seams
 * at odd multiples of W are counted (those at even multiples would be a wider picture's too). White
 * noise, a flat colour, a picture whose left and right edges match (an atlas on black, a tiled skin)
 * and a picture that itself repeats every few texels cannot be told, and are not flagged.
 *
 * A picture of a width that does not divide 256 (96, 160, 192, 200, 240 …) written so runs its rows on
 * across the stored rows; it is recognised in the texel stream instead of by columns (see `oddPicture`).
 *
 * A picture wider than 256 (512 or 1024) written so spreads each of its rows over 2 or 4 stored rows;
 * it is recognised the other way round (see `spreadAt`): texels a picture row apart are closer than
 * those a stored row apart, and stored rows run on into each other except where a picture row ends.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { ENGINE_TEXTURE_ROWS, type Texture16, TEXTURE_WIDTH } from "./model.ts";

/** Picture widths a tool may have written unscaled, smallest first. */
const NARROW_WIDTHS = [32, 64, 128] as const;
/** Picture widths past 256 a tool may have written unscaled (each picture row over 2 or 4 stored rows). */
const WIDE_WIDTHS = [512, 1024] as const;
/** Texels a picture row apart must differ at most this times the texels one stored row apart. */
const WIDE_RATIO = 0.7;
/** The picture's height is at most this many times its width, and at least its reciprocal. */
const MAX_ASPECT = 4;
/** Narrowest picture of a width that does not divide 256 tried (see `oddPicture`). */
const ODD_MIN_WIDTH = 24;
/** For such a width, texels W apart must differ at most this times the texels 256 apart. */
const ODD_ROW_RATIO = 0.6;
/** Candidates whose texels W apart differ within this factor of the closest are a tie. */
const ODD_TIE = 1.1;
/** Fewer stored rows than this are too few to judge. */
const MIN_ROWS = 4;

/** Texels W apart must differ no more than this times the texels 256 apart. */
const ROW_RATIO = 1;
/** ... and at least this times the other horizontal neighbours (else the texture repeats every W). */
const REPEAT_RATIO = 0.5;
/** Seam texel pairs must differ this many times more than the other horizontal neighbours (and than
 * the columns where a narrower picture's seams would be) ... */
const SEAM_RATIO = 2;
/** ... and this many times more than the columns beside each seam. */
const LOCAL_RATIO = 1.3;
/** How many columns on each side of a seam count as beside it (a line may be a few texels wide). */
const LOCAL_SPAN = 3;
/** W-apart pairs that wrap to the next row may differ at most this much more than the others. */
const SEGMENT_RATIO = 1.25;
/** Below this mean difference (of r+g+b, 5-bit channels) a texture is too flat to judge. */
const MIN_CONTRAST = 0.5;

/** The picture a packed texture holds. */
export interface NarrowPicture {
  /** Picture width in texels (32, 64, 128, a width that does not divide 256, 512 or 1024). */
  readonly width: number;
  /** Picture height: the stored rows × 256 / width. */
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
  const { words, height: rows } = texture;
  if (rows < MIN_ROWS) return undefined;
  // r + g + b of 5-bit channels is at most 93: bytes, which the loops below read fastest.
  const lum = new Int8Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    lum[i] = ((w >> 10) & 31) + ((w >> 5) & 31) + (w & 31);
  }
  const dRow = meanShiftDiff(lum, TEXTURE_WIDTH);
  if (dRow < MIN_CONTRAST) return undefined;
  const columns = columnDiffs(lum, rows);
  // Smallest first: a W-wide picture also has a seam at every multiple of W, so a wider candidate's
  // seams are among its seams, never the other way round.
  for (const width of NARROW_WIDTHS) {
    const height = (rows * TEXTURE_WIDTH) / width;
    if (height > width * MAX_ASPECT || height * MAX_ASPECT < width) continue;
    if (packedAt(lum, rows, width, dRow, columns)) return { width, height };
  }
  const odd = oddPicture(lum, rows, dRow);
  if (odd) return odd;
  for (const width of WIDE_WIDTHS) {
    const spread = width / TEXTURE_WIDTH;
    const height = rows / spread;
    if (!Number.isInteger(height) || height > width * MAX_ASPECT || height * MAX_ASPECT < width) continue;
    if (spreadAt(lum, rows, spread, dRow, columns)) return { width, height };
  }
  return undefined;
}

/**
 * Whether `lum` reads as a picture `spread` × 256 wide written at its own width, each picture row
 * over `spread` stored rows: texels a picture row apart (`spread` stored rows) are closer than those
 * one stored row apart (256 picture columns apart), and a stored row's last texel runs on into the
 * next row's first (horizontal neighbours in the picture) except where a picture row ends.
 */
function spreadAt(
  lum: Int8Array,
  rows: number,
  spread: number,
  dRow: number,
  columns: Float64Array,
): boolean {
  if (meanShiftDiff(lum, spread * TEXTURE_WIDTH) > WIDE_RATIO * dRow) return false;
  let runOn = 0, runOns = 0, breaks = 0, breaksN = 0;
  for (let r = 0; r + 1 < rows; r++) {
    const step = Math.abs(lum[r * TEXTURE_WIDTH + TEXTURE_WIDTH - 1] - lum[(r + 1) * TEXTURE_WIDTH]);
    if (r % spread === spread - 1) {
      breaks += step;
      breaksN++;
    } else {
      runOn += step;
      runOns++;
    }
  }
  let inside = 0;
  for (let x = 1; x < TEXTURE_WIDTH; x++) inside += columns[x];
  inside = Math.max(inside / (TEXTURE_WIDTH - 1), MIN_CONTRAST / 2);
  runOn /= runOns;
  breaks /= breaksN;
  return runOn <= LOCAL_RATIO * inside && breaks > SEAM_RATIO * Math.max(runOn, inside);
}

/** Whether `lum` reads as a `width`-wide picture packed 256 to the row (see the module notes). */
function packedAt(
  lum: Int8Array,
  rows: number,
  width: number,
  dRow: number,
  columns: Float64Array,
): boolean {
  const dWidth = meanShiftDiff(lum, width);
  if (dWidth > ROW_RATIO * dRow) return false;
  // Texels W/2 apart are half a row apart in a W-wide picture, one row apart in a W/2-wide one.
  if (width > NARROW_WIDTHS[0] && meanShiftDiff(lum, width / 2) < dWidth) return false;
  let seam = 0, seams = 0, inside = 0, insides = 0, local = 0, narrower = 0;
  for (let x = 1; x < TEXTURE_WIDTH; x++) {
    if (x % width === 0) {
      if ((x / width) % 2 === 0) continue;
      seam += columns[x];
      seams++;
      // The columns beside a seam: a picture's edge columns are ordinary texels, a line drawn down a
      // 256-wide texture has a step on each of its sides.
      for (let d = 1; d <= LOCAL_SPAN; d++) local = Math.max(local, columns[x - d], columns[x + d] ?? 0);
    } else {
      inside += columns[x];
      insides++;
      // A narrower picture's seams (multiples of 32) must be ordinary columns.
      if (x % NARROW_WIDTHS[0] === 0) narrower = Math.max(narrower, columns[x]);
    }
  }
  seam /= seams;
  inside /= insides;
  if (dWidth < REPEAT_RATIO * inside) return false;
  if (seam <= SEAM_RATIO * Math.max(inside, MIN_CONTRAST / 2)) return false;
  if (seam <= LOCAL_RATIO * local || seam <= SEAM_RATIO * narrower) return false;
  // A pattern of lines (a grid, tiles, planks) has steps as strong as the seams at other columns too;
  // a picture's own vertical edges seldom run down most of its rows.
  let strong = 0;
  for (let x = 1; x < TEXTURE_WIDTH; x++) if (x % width !== 0 && LOCAL_RATIO * columns[x] >= seam) strong++;
  if (strong > seams + 2) return false;
  // In a packed picture every pair W apart is one picture row apart, whichever segment of the row it
  // starts in; in a 256-wide texture that repeats every W, the pairs that wrap to the next row (those
  // starting in the last segment) differ more than the others, which repeat.
  const segments = segmentDiffs(lum, rows, width);
  const wrap = segments.pop()!;
  const others = segments.reduce((a, b) => a + b, 0) / segments.length;
  return wrap <= SEGMENT_RATIO * Math.max(others, MIN_CONTRAST / 2);
}

/**
 * The picture of a width that does not divide 256 (48, 96, 160, 192, 200, 240 …) that `lum` reads as,
 * written at its own width: its rows run on across the stored rows, so its seams (a picture row's right
 * edge meeting the next one's left edge) fall every W texels of the stream, at a different column in
 * each stored row — no column test finds them. A width is a candidate when the stored texels make a
 * whole number of its rows, `W × H`, of a plausible shape. It reads as packed when texels W apart in
 * the stream (vertical neighbours in the picture) are much closer than texels 256 apart (one stored
 * row), closer than texels W/2 apart (half a picture row), the stream's steps at multiples of W are far
 * larger than its other steps, and pairs W apart that wrap into the next stored row differ no more than
 * the others (in a 256-wide texture that repeats every W they differ more). Of several candidates, the
 * narrowest whose neighbours W apart are about the closest wins. A 256-wide texture's columns do not line up with the
 * stream's multiples of W, so a pattern of lines does not pass for seams.
 */
function oddPicture(lum: Int8Array, rows: number, dRow: number): NarrowPicture | undefined {
  const texels = rows * TEXTURE_WIDTH;
  const passed: { picture: NarrowPicture; diff: number }[] = [];
  for (let width = ODD_MIN_WIDTH; width < TEXTURE_WIDTH; width++) {
    if (TEXTURE_WIDTH % width === 0 || texels % width !== 0) continue;
    const height = texels / width;
    if (height < MIN_ROWS || height > width * MAX_ASPECT || height * MAX_ASPECT < width) continue;
    const dWidth = meanShiftDiff(lum, width);
    if (dWidth > ODD_ROW_RATIO * dRow) continue;
    if (meanShiftDiff(lum, Math.floor(width / 2)) < dWidth) continue;
    const { seam, inside } = streamSteps(lum, width);
    if (seam <= SEAM_RATIO * inside) continue;
    let wrap = 0, wraps = 0, other = 0, others = 0;
    for (let i = 0; i + width < lum.length; i++) {
      const d = Math.abs(lum[i] - lum[i + width]);
      if ((i % TEXTURE_WIDTH) + width >= TEXTURE_WIDTH) {
        wrap += d;
        wraps++;
      } else {
        other += d;
        others++;
      }
    }
    if (wraps && others && wrap / wraps > SEGMENT_RATIO * Math.max(other / others, MIN_CONTRAST / 2)) {
      continue;
    }
    passed.push({ picture: { width, height }, diff: dWidth });
  }
  // A picture's rows two apart are close too, and its seams are among every other one's (a 96-wide
  // picture passes for 192): the narrowest whose neighbours W apart are about the closest wins.
  const closest = Math.min(...passed.map((p) => p.diff));
  return passed.find((p) => p.diff <= ODD_TIE * closest)?.picture;
}

/**
 * Mean step between stream neighbours at multiples of `width` (`seam`), and elsewhere (`inside`, at
 * least half the contrast floor).
 */
function streamSteps(lum: Int8Array, width: number): { seam: number; inside: number } {
  let seam = 0, seams = 0, inside = 0, insides = 0;
  for (let i = 1; i < lum.length; i++) {
    const step = Math.abs(lum[i] - lum[i - 1]);
    if (i % width === 0) {
      seam += step;
      seams++;
    } else {
      inside += step;
      insides++;
    }
  }
  return { seam: seam / seams, inside: Math.max(inside / insides, MIN_CONTRAST / 2) };
}

/** Mean |lum[i] − lum[i + shift]| over the whole array. */
function meanShiftDiff(lum: Int8Array, shift: number): number {
  let sum = 0;
  const n = lum.length - shift;
  for (let i = 0; i < n; i++) sum += Math.abs(lum[i] - lum[i + shift]);
  return n > 0 ? sum / n : 0;
}

/** Per column x (1…255), the mean |lum| difference between columns x − 1 and x over all rows. */
function columnDiffs(lum: Int8Array, rows: number): Float64Array {
  const columns = new Float64Array(TEXTURE_WIDTH);
  for (let x = 1; x < TEXTURE_WIDTH; x++) {
    let sum = 0;
    for (let r = 0; r < rows; r++) {
      sum += Math.abs(lum[r * TEXTURE_WIDTH + x] - lum[r * TEXTURE_WIDTH + x - 1]);
    }
    columns[x] = sum / rows;
  }
  return columns;
}

/** Mean |lum[i] − lum[i + width]| over the pairs starting in each `width`-wide segment of a row. */
function segmentDiffs(lum: Int8Array, rows: number, width: number): number[] {
  const out: number[] = [];
  for (let start = 0; start < TEXTURE_WIDTH; start += width) {
    let sum = 0, n = 0;
    for (let r = 0; r < rows; r++) {
      for (let x = start; x < start + width; x++) {
        const at = r * TEXTURE_WIDTH + x;
        if (at + width >= lum.length) break;
        sum += Math.abs(lum[at] - lum[at + width]);
        n++;
      }
    }
    out.push(n ? sum / n : 0);
  }
  return out;
}

/**
 * What `texture` looks like when it reads as a picture of another width written at its own width (see
 * {@link narrowPicture}), as a sentence for a warning; undefined when it reads as 256 wide.
 */
export function narrowPictureNote(
  texture: Texture16,
): { note: string; width: number; height: number } | undefined {
  const packed = narrowPicture(texture);
  if (!packed) return undefined;
  const { width, height } = packed;
  const note =
    `the texture's ${texture.height} rows of ${TEXTURE_WIDTH} look like a ${width}×${height} picture ` +
    `written at its own width (io_carnivores and other tools write a picture ${
      width < TEXTURE_WIDTH ? "narrower" : "wider"
    } than ${TEXTURE_WIDTH} unscaled, ${
      width < TEXTURE_WIDTH
        ? TEXTURE_WIDTH % width === 0
          ? `${TEXTURE_WIDTH / width} of its rows side by side in each stored row`
          : `its rows running on across the stored rows, ${(TEXTURE_WIDTH / width).toFixed(2)} to each`
        : `each of its rows over ${width / TEXTURE_WIDTH} stored rows`
    }): ` +
    `decoded as the games read it, ${TEXTURE_WIDTH} texels to the row, so it shows scrambled as in the ` +
    `game — resize the picture to ${TEXTURE_WIDTH} wide before exporting`;
  return { note, width, height };
}

/**
 * One warning when `texture` looks like a picture of another width written at its own width (see
 * {@link narrowPicture}); the texture is decoded unchanged, as the games read it. A texture taller
 * than the engine's 256 rows is left to `readTexture`, whose one warning about it names the picture.
 */
export function warnNarrowPicture(texture: Texture16, warn: WarningSink): void {
  if (texture.height > ENGINE_TEXTURE_ROWS) return;
  const found = narrowPictureNote(texture);
  if (found) warn(found.note, { picture_width: found.width, picture_height: found.height });
}
