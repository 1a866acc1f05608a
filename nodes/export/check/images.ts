/**
 * Image bytes against their declared type, as the validator reads them: it recognises PNG and
 * JPEG by signature and parses headers up to the first image data (PNG `IDAT`, JPEG start of
 * frame). An image that is not a plain, well-formed PNG or JPEG of its declared type is left to
 * the validator, which names its error.
 *
 * @module
 */
import { outside } from "./verdict.ts";
import { crc32 } from "../../../runtime/scene/png.ts";
import { pngDataPrefixProblem } from "../../../runtime/scene/png_data_size.ts";

/** PNG chunks whose length the validator insists on. */
const PNG_FIXED_LENGTHS: Readonly<Record<string, number>> = {
  IHDR: 13,
  cHRM: 32,
  sRGB: 1,
  pHYs: 9,
  gAMA: 4,
};

/**
 * What a walk of an image's headers found wrong: `unreadable` when no reader can decode it (its bytes
 * end first, or a PNG's first chunk is not its header).
 */
interface ImageProblem {
  readonly reason: string;
  readonly unreadable: boolean;
}

/**
 * Checks one image's bytes against its mime type.
 *
 * @example
 * ```ts ignore
 * checkImage(bytes, "image/png", "/images/0");
 * ```
 */
export function checkImage(bytes: Uint8Array, mimeType: string, pointer: string): void {
  // The validator needs 14 bytes to recognise any format.
  if (bytes.byteLength < 14) outside("image too short to recognise", pointer);
  const png = isPng(bytes), jpeg = isJpeg(bytes);
  const problem = mimeType === "image/png" && png
    ? pngProblem(bytes)
    : mimeType === "image/jpeg" && jpeg
    ? jpegProblem(bytes)
    : { reason: "image bytes not of the declared type", unreadable: false };
  if (problem) outside(problem.reason, pointer);
}

/**
 * Why a PNG or JPEG (by its signature) surely cannot be read: its bytes end before its image data (a
 * cut download, an exporter that wrote a short buffer view), or a PNG's first chunk is not its
 * header (damaged bytes; the Khronos validator crashed on one, taking the process with it) or is one
 * no decoder accepts, or a JPEG's frame declares no pixels or no components, or a PNG's data is
 * surely not the size its header declares (`pngDataPrefixProblem`: a small image's whole data, a
 * large one's first rows; decoders draw it sheared or cut short).
 * Undefined for any other image, and for one the check is merely unsure of. `export.gltf`'s repair
 * leaves such an image out.
 *
 * @example
 * ```ts
 * unreadableImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])); // "PNG ends …"
 * ```
 */
export function unreadableImage(bytes: Uint8Array): string | undefined {
  const png = isPng(bytes);
  const problem = png ? pngProblem(bytes) : isJpeg(bytes) ? jpegProblem(bytes) : undefined;
  if (problem?.unreadable) return problem.reason;
  // A header of another size than the data (one pixel wider: drawn sheared), as far as is cheap to tell.
  return png ? pngDataPrefixProblem(bytes) : undefined;
}

function isPng(bytes: Uint8Array): boolean {
  return bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47 &&
    bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a;
}

function isJpeg(bytes: Uint8Array): boolean {
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** The bit depths PNG allows for each colour type (PNG specification, 11.2.2). */
const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * What makes a whole 13-byte IHDR (at `at`) one no decoder accepts: a size of 0 or past 2³¹ − 1, a
 * colour type and bit depth PNG does not define together, an unknown compression, filter or
 * interlace method, or a checksum that does not match (libpng and browsers refuse a critical
 * chunk's CRC error).
 */
function ihdrProblem(bytes: Uint8Array, view: DataView, at: number): string | undefined {
  const width = view.getUint32(at + 8), height = view.getUint32(at + 12);
  const [depth, colour, compression, filter, interlace] = bytes.subarray(at + 16, at + 21);
  if (!width || !height || width > 0x7fffffff || height > 0x7fffffff) {
    return `PNG header declares ${width}×${height} pixels`;
  }
  if (!PNG_DEPTHS[colour]?.includes(depth)) {
    return `PNG header declares colour type ${colour} at bit depth ${depth}`;
  }
  if (compression || filter || interlace > 1) {
    return `PNG header declares compression, filter and interlace methods ${compression}, ${filter}, ${interlace}`;
  }
  if (crc32(bytes, at + 4, at + 21) !== view.getUint32(at + 21)) {
    return "PNG header's checksum does not match";
  }
  return undefined;
}

/**
 * IHDR first (and one a decoder accepts, {@link ihdrProblem}), then whole chunks (fixed-length ones
 * at their length) up to the first IDAT.
 */
function pngProblem(bytes: Uint8Array): ImageProblem | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8, first = true; at + 8 <= bytes.byteLength; first = false) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
    if (first !== (type === "IHDR")) return { reason: "PNG without IHDR first", unreadable: first };
    // A header of the wrong length is no header to a decoder either (the validator refuses the file).
    if (first && length !== 13) return { reason: "PNG IHDR chunk of the wrong length", unreadable: true };
    if (first && at + 25 <= bytes.byteLength) {
      const reason = ihdrProblem(bytes, view, at);
      if (reason) return { reason, unreadable: true };
    }
    if (type === "IDAT") return undefined;
    if (PNG_FIXED_LENGTHS[type] !== undefined && PNG_FIXED_LENGTHS[type] !== length) {
      return { reason: `PNG ${type} chunk of the wrong length`, unreadable: false };
    }
    at += 12 + length;
  }
  return { reason: "PNG ends before its image data", unreadable: true };
}

/** Marker segments up to a start of frame with 1 or 3 components. */
function jpegProblem(bytes: Uint8Array): ImageProblem | undefined {
  let at = 2;
  while (at + 4 <= bytes.byteLength) {
    if (bytes[at] !== 0xff) return { reason: "JPEG marker expected", unreadable: false };
    const marker = bytes[at + 1];
    // Markers without a segment (fill bytes, restart markers, SOI, EOI, TEM) carry no length.
    if (
      marker === 0xff || marker === 0x01 || (marker & 0xf8) === 0xd0 || marker === 0xd8 || marker === 0xd9
    ) {
      return { reason: "JPEG marker the check does not follow", unreadable: false };
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2) return { reason: "JPEG segment length", unreadable: false };
    if (at + 2 + length > bytes.byteLength) return { reason: "JPEG ends inside a segment", unreadable: true };
    const frame = ((marker & 0xf0) === 0xc0 && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) ||
      marker === 0xde;
    if (frame) {
      if (length < 8) return { reason: "JPEG frame header", unreadable: false };
      // No size or no components: no decoder draws it (a height of 0, to be given by a DNL marker
      // later, libjpeg and browsers refuse too).
      const height = (bytes[at + 5] << 8) | bytes[at + 6], width = (bytes[at + 7] << 8) | bytes[at + 8];
      if (!width || !height || !bytes[at + 9]) {
        return {
          reason: `JPEG frame header declares ${width}×${height} pixels of ${bytes[at + 9]} components`,
          unreadable: true,
        };
      }
      if (bytes[at + 9] !== 1 && bytes[at + 9] !== 3) {
        return { reason: "JPEG frame header", unreadable: false };
      }
      return undefined;
    }
    at += 2 + length;
  }
  return { reason: "JPEG ends before its frame header", unreadable: true };
}
