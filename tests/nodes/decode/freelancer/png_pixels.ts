/**
 * fast-png's decode, with an RGB PNG's pixels widened to RGBA (alpha 255): `decode.cmp` writes
 * opaque textures as RGB PNGs (v15), and glTF reads a missing alpha channel as 1, so tests compare
 * RGBA texels whatever the colour type. `channels` is then 4; the stored colour type is what
 * `opaque_png_test.ts` checks.
 *
 * @module
 */
import { decode } from "fast-png";

/** The PNG's 8-bit pixels as RGBA, with its size. */
export function decodePng(png: Uint8Array): ReturnType<typeof decode> {
  const image = decode(png);
  if (image.channels !== 3) return image;
  const rgb = image.data as Uint8Array;
  const data = new Uint8Array((rgb.length / 3) * 4);
  for (let i = 0, o = 0; i < rgb.length; i += 3, o += 4) data.set([rgb[i], rgb[i + 1], rgb[i + 2], 255], o);
  return { ...image, data, channels: 4 };
}
