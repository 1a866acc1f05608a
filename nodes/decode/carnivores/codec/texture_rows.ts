/**
 * Texture rows a face samples past a short texture. The Direct3D and Glide renderers of Carnivores,
 * Carnivores 2 and Ice Age read every model texture into a zeroed buffer of 256 rows
 * (`LoadModel`, `LoadCharacterInfo`: `TextureHeight = 256` when `HARD3D`), and the Direct3D path
 * maps a texel row to `v = row / 256` of that buffer. A texture of H < 256 rows is therefore followed
 * by rows of texel 0x0000, and a face whose texel row lies past H shows them: black, or transparent
 * where the model colour-keys. Files with such faces exist because converters crop textures that
 * the UVs were made on (the faces then reach below the stored rows).
 *
 * @module
 */
import { ENGINE_TEXTURE_ROWS, type FaceTable, type Texture16, TEXTURE_WIDTH } from "./model.ts";

/** The first face corner that samples past the stored rows, and how many do. */
export interface RowsPastTexture {
  /** Face corners whose texel row lies past the stored rows (within the engine's 256). */
  readonly corners: number;
  /** Source face of the first such corner. */
  readonly face: number;
  /** Its corner, 0-based in the file's order (v1, v2, v3). */
  readonly corner: number;
  /** Largest texel row any corner reaches (may be past 256; the image stops there). */
  readonly maxRow: number;
}

/** Result of {@link padSampledRows}. */
export interface SampledTexture {
  /** The texture as the faces sample it: the stored rows, then any zero rows they reach. */
  readonly texture: Texture16;
  /** Set when rows were added. */
  readonly past?: RowsPastTexture;
}

/**
 * The texture grown by the zero rows its faces reach, up to the engine's 256 (texel rows are
 * corners, so a row of exactly H is the bottom edge and adds nothing). Textures of 256 rows or more
 * are returned as they are.
 *
 * @example
 * ```ts
 * const { texture: image, past } = padSampledRows(model.texture!, model.faces);
 * if (past) console.warn(`${past.corners} corners sample rows past ${model.texture!.height}`);
 * ```
 */
export function padSampledRows(texture: Texture16, faces: FaceTable): SampledTexture {
  const stored = texture.height;
  if (stored >= ENGINE_TEXTURE_ROWS) return { texture };
  let corners = 0;
  let face = -1;
  let corner = -1;
  let maxRow = stored;
  for (let f = 0; f < faces.count; f++) {
    if (faces.broken?.[f]) continue;
    for (let k = 0; k < 3; k++) {
      const row = faces.texels[f * 6 + k * 2 + 1];
      if (row <= stored) continue;
      if (corners++ === 0) [face, corner] = [f, k];
      maxRow = Math.max(maxRow, row);
    }
  }
  if (!corners) return { texture };
  const height = Math.min(maxRow, ENGINE_TEXTURE_ROWS);
  const words = new Uint16Array(TEXTURE_WIDTH * height);
  words.set(texture.words);
  return { texture: { height, words }, past: { corners, face, corner, maxRow } };
}
