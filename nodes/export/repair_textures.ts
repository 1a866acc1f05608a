/**
 * Export repairs of textures: an image no viewer can read is left out, and one whose declared MIME type
 * contradicts its bytes takes the bytes' type. Follows `repair.ts`: it reports what needs repair, and
 * repairs it when `apply`.
 *
 * @module
 */
import { ImageUtils, type Texture } from "@gltf-transform/core";
import { unreadableImage } from "./check/images.ts";

/**
 * The repair texture `index` needs, as a warning message: left out when unreadable, else its MIME type
 * set to its bytes'; made in place when `apply` is true.
 */
export function textureRepairs(texture: Texture, index: number, apply: boolean, messages: string[]): void {
  if (!unreadableRepair(texture, index, apply, messages)) mimeRepair(texture, index, apply, messages);
}

/** A texture's name for messages: its own, or its index. */
function textureLabel(texture: Texture, index: number): string {
  return texture.getName() ? `'${texture.getName()}'` : `#${index}`;
}

/**
 * A PNG or JPEG whose bytes end before its image data (a cut download, a short buffer view), a PNG
 * whose first chunk is not its header or whose header no decoder accepts, or an image whose bytes are no image format at all, cannot be drawn by any viewer: the texture is left
 * out, and the materials that used it keep their factors. True when the texture is (to be) left out.
 */
function unreadableRepair(texture: Texture, index: number, apply: boolean, messages: string[]): boolean {
  const image = texture.getImage();
  const reason = image && (unreadableImage(image) ?? unknownBytes(image, texture.getMimeType()));
  if (!reason) return false;
  messages.push(
    `image ${textureLabel(texture, index)} cannot be read (${reason}); materials are drawn without it`,
  );
  if (apply) texture.dispose();
  return true;
}

/**
 * Why an image cannot be read when its bytes are none of the types glTF-Transform recognises (PNG,
 * JPEG, and WebP, AVIF and KTX2 through their extensions): a view pointing at the wrong bytes, or a
 * format glTF does not carry (a GIF, a Photoshop file) that `decode.gltf` could not store as PNG. No
 * viewer the file is meant for draws it, and the validator refuses the file.
 */
function unknownBytes(image: Uint8Array, declared: string): string | undefined {
  if (ImageUtils.getMimeType(image)) return undefined;
  const format = otherFormat(image);
  return `its bytes are ${format ? `${format}, ` : ""}no image format glTF carries, ${
    declared ? `though declared '${declared}'` : "and no type is declared"
  }`;
}

/** Signatures of image formats glTF does not carry, for messages. */
const OTHER_FORMATS: readonly [string, string][] = [
  ["GIF8", "a GIF"],
  ["8BPS", "a Photoshop file"],
  ["II*\0", "a TIFF"],
  ["MM\0*", "a TIFF"],
  ["DDS ", "a DDS"],
  ["BM", "a BMP"],
];

function otherFormat(image: Uint8Array): string | undefined {
  const start = String.fromCharCode(...image.subarray(0, 4));
  return OTHER_FORMATS.find(([signature]) => start.startsWith(signature))?.[1];
}

/** A MIME type that contradicts the image's bytes (a PNG declared `image/jpeg`) takes the bytes' type. */
function mimeRepair(texture: Texture, index: number, apply: boolean, messages: string[]): void {
  const image = texture.getImage();
  // glTF-Transform's own recognition (PNG and JPEG; WebP, AVIF and KTX2 once their extensions are
  // registered, which `gltfIO()` does before `export.gltf` repairs): the types it reads files by.
  const found = image && ImageUtils.getMimeType(image);
  const declared = texture.getMimeType();
  if (!found || found === declared) return;
  messages.push(
    `image ${textureLabel(texture, index)} ${
      declared ? `is declared '${declared}' but holds` : "has no MIME type and holds"
    } ${found}; written as ${found}`,
  );
  if (apply) texture.setMimeType(found);
}
