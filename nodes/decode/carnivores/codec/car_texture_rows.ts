/**
 * A `.car` texture whose size field was written from another picture than the texture the file holds
 * (a converter that writes the source image's size and the texture it resized): every clip and sound
 * after it is then read from the wrong byte. The rows that make the declared sections end the file
 * are the texture's.
 *
 * @module
 */
import { TEXTURE_ROW_BYTES } from "./model.ts";
import { type SectionSearch, tailEnd } from "./car_sections.ts";
import { endsFile } from "./car_section_ends.ts";

/** The most texture rows {@link fittingTextureRows} tries (a 1024×512 picture written unscaled). */
const MAX_TEXTURE_ROWS = 2048;

/**
 * The texture heights (whole rows, other than the declared `declaredBytes`, which end at `search.at`)
 * from which the declared clips and sounds, at their stored frame counts and lengths, end exactly at
 * the end of the file or at a valid anim→sound table. Empty when none does. At most two are returned:
 * more than one is ambiguous.
 *
 * @example
 * ```ts
 * fittingTextureRows({ view, at: textureAt + 65536, vertexCount: 120, animations: 2, sounds: 0, tableBytes: 256 }, 65536);
 * // [64]: 64 rows of 256 are written
 * ```
 */
export function fittingTextureRows(search: SectionSearch, declaredBytes: number): number[] {
  const { view, vertexCount, animations, sounds } = search;
  const textureAt = search.at - declaredBytes;
  const size = view.byteLength;
  const found: number[] = [];
  for (let rows = 0; rows <= MAX_TEXTURE_ROWS && found.length < 2; rows++) {
    const at = textureAt + rows * TEXTURE_ROW_BYTES;
    if (at > size) break;
    if (rows * TEXTURE_ROW_BYTES === declaredBytes) continue;
    // Another texture size moves every header: texels or frames of zeros read as one are blank.
    const end = tailEnd(view, at, vertexCount, animations, sounds, { noBlanks: true });
    if (endsFile({ ...search, appended: undefined }, end)) found.push(rows);
  }
  return found;
}
