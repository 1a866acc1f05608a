/**
 * Textures in image formats glTF does not carry, as converters leave them: Assimp and hand-edited
 * files reference a game's `.tga`, `.bmp` or `.dds` as they are, and Flight Simulator 2024 packages
 * block-compressed (BC1–BC7) `.KTX2`, which is not the Basis Universal KTX2 glTF carries. Blender reads them; three.js draws
 * such a material untextured; the Khronos validator refuses the file. Each is decoded and stored as
 * PNG, with a warning naming the image. What cannot be decoded is left out, its materials drawn with
 * their factors, as the export leaves out unreadable images.
 *
 * Rows come out top first, as glTF samples them: a Targa's origin is honoured (its rows are stored
 * bottom first unless the descriptor says otherwise), a bitmap's too (bottom first unless its height
 * is negative); a DDS is stored top first.
 *
 * @module
 */
import { ImageUtils, type Texture } from "@gltf-transform/core";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { loadPngEncoder, pngOfEncodedImage, type RgbaPixels } from "../../../../runtime/scene/png.ts";
import { decodeBmp } from "../../../../runtime/image/bmp.ts";
import { ddsUnexplainedBytes, decodeDds } from "../../../../runtime/image/dds.ts";
import { decodeKtx2, isBlockKtx2 } from "../../../../runtime/image/ktx2.ts";
import { decodeTga, targaTopLeft } from "../../../../runtime/image/tga.ts";

interface LegacyFormat {
  /** The format's name in warnings. */
  readonly name: string;
  /** What the in-process and disk memo of PNGs know its decoder by (bumped when pixels change). */
  readonly memo: string;
  readonly decode: (image: ByteWindow) => RgbaPixels;
}

const TARGA: LegacyFormat = { name: "Targa", memo: "gltf tga v1", decode: topFirstTga };
const BITMAP: LegacyFormat = { name: "BMP", memo: "gltf bmp v2", decode: decodeBmp };
const DDS: LegacyFormat = { name: "DDS", memo: "gltf dds v1", decode: decodeDds };
const BLOCK_KTX2: LegacyFormat = { name: "block-compressed KTX2", memo: "gltf ktx2 v1", decode: decodeKtx2 };

/**
 * Converts the textures of `textures` whose images are Targa, BMP or DDS to PNG, and leaves out those
 * that cannot be decoded; returns a message for each. `label` names a texture for messages.
 */
export async function convertLegacyImages(
  textures: readonly Texture[],
  label: (texture: Texture) => string,
): Promise<string[]> {
  const legacy = textures.flatMap((texture) => {
    const image = texture.getImage();
    // glTF-Transform knows KTX2 by its signature, but only Basis Universal KTX2 is glTF's.
    const format = image && isBlockKtx2(image)
      ? BLOCK_KTX2
      : image && !ImageUtils.getMimeType(image)
      ? legacyFormat(image, texture.getMimeType())
      : undefined;
    return format ? [{ texture, image: image!, format }] : [];
  });
  if (!legacy.length) return [];
  await loadPngEncoder();
  return legacy.map(({ texture, image, format }) => {
    let png: Uint8Array;
    try {
      png = pngOfEncodedImage(image, format.memo, () => format.decode(ByteWindow.of(image, format.name)));
    } catch (cause) {
      if (!(cause instanceof DecodeError)) throw cause;
      texture.dispose();
      return `image ${
        label(texture)
      } is a ${format.name} that cannot be read (${cause.expected}, found ${cause.found}); ` +
        "materials are drawn without it";
    }
    texture.setImage(png).setMimeType("image/png");
    const leftover = format === DDS ? ddsUnexplainedBytes(ByteWindow.of(image, format.name)) : undefined;
    return `image ${label(texture)} is a ${format.name}, which glTF does not carry: stored as PNG` +
      (leftover ? `; it ${leftover}` : "");
  });
}

/** The legacy format `image` is in, by its signature, or for Targa (which has none) its header. */
function legacyFormat(image: Uint8Array, declared: string): LegacyFormat | undefined {
  if (image[0] === 0x44 && image[1] === 0x44 && image[2] === 0x53 && image[3] === 0x20) return DDS;
  if (image[0] === 0x42 && image[1] === 0x4d) return BITMAP;
  if (/tga|targa/i.test(declared) || looksLikeTarga(image)) return TARGA;
  return undefined;
}

/** A plausible Targa header: a known image type, colour-map type and depth, and a non-empty size. */
function looksLikeTarga(image: Uint8Array): boolean {
  if (image.length < 18) return false;
  const mapType = image[1], type = image[2] & ~8, depth = image[16];
  const width = image[12] | image[13] << 8, height = image[14] | image[15] << 8;
  return (mapType === 0 || mapType === 1) && [1, 2, 3].includes(type) && (type === 1) === (mapType === 1) &&
    [8, 15, 16, 24, 32].includes(depth) && width > 0 && height > 0;
}

/** A Targa's pixels, top row first whatever origin its descriptor declares. */
function topFirstTga(image: ByteWindow): RgbaPixels {
  const decoded = decodeTga(image);
  if (targaTopLeft(image)) return decoded;
  const { width, height, data } = decoded;
  const flipped = new Uint8Array(data.length);
  const row = 4 * width;
  for (let y = 0; y < height; y++) flipped.set(data.subarray(y * row, (y + 1) * row), (height - 1 - y) * row);
  return { width, height, data: flipped };
}
