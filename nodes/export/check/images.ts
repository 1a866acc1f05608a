/**
 * Image bytes against their declared type, as the validator reads them: it recognises PNG and
 * JPEG by signature and parses headers up to the first image data (PNG `IDAT`, JPEG start of
 * frame). An image that is not a plain, well-formed PNG or JPEG of its declared type is left to
 * the validator, which names its error.
 *
 * @module
 */
import { outside } from "./verdict.ts";

/** PNG chunks whose length the validator insists on. */
const PNG_FIXED_LENGTHS: Readonly<Record<string, number>> = {
  IHDR: 13,
  cHRM: 32,
  sRGB: 1,
  pHYs: 9,
  gAMA: 4,
};

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
  const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47 &&
    bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (mimeType === "image/png" && png) checkPng(bytes, pointer);
  else if (mimeType === "image/jpeg" && jpeg) checkJpeg(bytes, pointer);
  else outside("image bytes not of the declared type", pointer);
}

/** IHDR first, then whole chunks (fixed-length ones at their length) up to the first IDAT. */
function checkPng(bytes: Uint8Array, pointer: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8, first = true; at + 8 <= bytes.byteLength; first = false) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
    if (first !== (type === "IHDR")) outside("PNG without IHDR first", pointer);
    if (type === "IDAT") return;
    if (PNG_FIXED_LENGTHS[type] !== undefined && PNG_FIXED_LENGTHS[type] !== length) {
      outside(`PNG ${type} chunk of the wrong length`, pointer);
    }
    at += 12 + length;
  }
  outside("PNG ends before its image data", pointer);
}

/** Marker segments up to a start of frame with 1 or 3 components. */
function checkJpeg(bytes: Uint8Array, pointer: string): void {
  let at = 2;
  while (at + 4 <= bytes.byteLength) {
    if (bytes[at] !== 0xff) outside("JPEG marker expected", pointer);
    const marker = bytes[at + 1];
    // Markers without a segment (fill bytes, restart markers, SOI, EOI, TEM) carry no length.
    if (
      marker === 0xff || marker === 0x01 || (marker & 0xf8) === 0xd0 || marker === 0xd8 || marker === 0xd9
    ) {
      outside("JPEG marker the check does not follow", pointer);
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2 || at + 2 + length > bytes.byteLength) outside("JPEG segment length", pointer);
    const frame = ((marker & 0xf0) === 0xc0 && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) ||
      marker === 0xde;
    if (frame) {
      if (length < 8 || (bytes[at + 9] !== 1 && bytes[at + 9] !== 3)) outside("JPEG frame header", pointer);
      return;
    }
    at += 2 + length;
  }
  outside("JPEG ends before its frame header", pointer);
}
