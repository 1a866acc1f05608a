/**
 * Textures whose PNG header declares another size than its image data holds. A header edited by hand,
 * or data cut short, decodes without an error in `fast-png` and in browsers, which draw the rows
 * there are: a header a few rows taller leaves the bottom blank, twice as tall half of it, one wider
 * or interlaced by mistake shears or scrambles every row.
 * Telling takes the length the data inflates to, so a PNG whose header declares at most
 * {@link WHOLE_DATA_BYTES} (a 1024² RGBA texture and a quarter more rows) is inflated whole: 3–16 ms
 * for the corpus airplane's 1024² texture, up to 50–75 ms for a noisy one on a loaded 2-core machine,
 * where a 4K texture whole takes 0.2–1.2 s. A larger header is checked only when its compressed data is
 * at most {@link SMALL_DATA_BYTES}: inflated up to the limit, data ending within it is named (a smooth
 * 1024² texture's data under a header of 16384 rows or columns); a real 2048² or 4K texture's data is
 * larger and is not inflated here (`export.gltf` checks its first rows). Data cut off mid-stream (a
 * truncated file) is named too.
 *
 * The texture is kept as it is — every viewer draws what its data holds — and named in a warning.
 *
 * @module
 */
import type { Texture } from "@gltf-transform/core";
import { pngDataBytes, pngDataSizeFault } from "../../../../runtime/scene/png_data_size.ts";

/**
 * Image data inflated at most per PNG: the rows of a 1024-wide RGBA texture 1280 rows tall, so a 1024²
 * texture whose header declares a few (up to 256) rows more is still read whole.
 */
export const WHOLE_DATA_BYTES = 1280 * (1 + 4 * 1024);

/** Compressed bytes of a PNG declaring more than {@link WHOLE_DATA_BYTES} that is still inflated (that far). */
export const SMALL_DATA_BYTES = 1024 * 1024;

/** Samples per pixel of each PNG colour type. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A warning per texture of `textures` whose PNG data is not the size its header declares (as far as
 * {@link WHOLE_DATA_BYTES} of inflation tells), naming it by `label`.
 *
 * @example
 * ```ts ignore
 * pngSizeProblems(doc.getRoot().listTextures(), (t) => `'${t.getName()}'`);
 * // ["texture 'skin': its PNG header declares another size than its data holds (png at byte 33: …) …"]
 * ```
 */
export function pngSizeProblems(textures: readonly Texture[], label: (texture: Texture) => string): string[] {
  const problems: string[] = [];
  for (const texture of textures) {
    const png = texture.getImage();
    if (!png || png.length < 33 || SIGNATURE.some((b, i) => png[i] !== b)) continue;
    if (declaredBytes(png) > WHOLE_DATA_BYTES && png.length > SMALL_DATA_BYTES) continue;
    const problem = pngDataSizeFault(png, WHOLE_DATA_BYTES)?.message;
    if (!problem) continue;
    problems.push(
      `texture ${label(texture)}: its PNG header declares another size than its data holds, or its data is ` +
        `cut short (${problem}); ` +
        "kept as it is, but viewers draw only the rows its data holds (the rest blank, or every row " +
        "sheared when the width is wrong)",
    );
  }
  return problems;
}

/** The image data bytes `png`'s header declares; 0 when it is not a header this reads. */
function declaredBytes(png: Uint8Array): number {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const channels = CHANNELS[png[25]];
  if (view.getUint32(12) !== 0x49484452 || !channels) return 0;
  return pngDataBytes(view.getUint32(16), view.getUint32(20), png[24] * channels, png[28] === 1);
}
