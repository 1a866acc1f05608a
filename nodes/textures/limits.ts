/**
 * What the texture decoders share: the largest image they decode, and the typed error that names
 * the texture an image belongs to.
 *
 * @module
 */
import { DecodeError } from "../../runtime/errors.ts";

/**
 * The largest side decoded: 8192 px (a 256 MiB RGBA image), twice what real-time engines load,
 * checked in the image's header before a decoder sizes anything.
 */
export const MAX_TEXTURE_SIDE = 8192;

/** Throws a {@link DecodeError} of `format` at the texture's JSON `pointer`. */
export type ImageFail = (expected: string, found: string) => never;

/** The {@link ImageFail} of one image. */
export function imageFail(format: string, pointer: string): ImageFail {
  return (expected, found) => {
    throw new DecodeError({ format, at: { jsonPath: pointer }, expected, found });
  };
}

/** Refuses a size of 0 or over {@link MAX_TEXTURE_SIDE} a side, before anything is allocated for it. */
export function checkTextureSize(fail: ImageFail, width: number, height: number): void {
  if (!width || !height || width > MAX_TEXTURE_SIDE || height > MAX_TEXTURE_SIDE) {
    fail(`an image of 1–${MAX_TEXTURE_SIDE} px a side`, `${width} × ${height} px`);
  }
}
