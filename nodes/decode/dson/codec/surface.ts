/**
 * A surface's material from a DSON `material` definition and its scene `material_instance`: the
 * diffuse colour (`current_value ?? value`) and the diffuse image, looked up in the content roots
 * (PNG and JPEG are embedded; anything else, or a missing file, is a warning).
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import type { Surface } from "./model.ts";
import type { JsonRecord } from "./read_json.ts";
import { percentDecode } from "./uri.ts";

/**
 * Reads the surface of a material instance at JSON pointer `at` of `main`; the instance's
 * channels override its definition's. The returned name is empty (the caller names it per group).
 *
 * @example
 * ```ts
 * const surface = await readSurface(instance, "/scene/materials/0", definition, library, main);
 * ```
 */
export async function readSurface(
  instance: JsonRecord,
  at: string,
  definition: DsonEntry | undefined,
  library: ContentLibrary,
  main: DsonFile,
): Promise<Surface> {
  let color: [number, number, number] = [1, 1, 1];
  let imageUri: string | undefined;
  let imageAt = at;
  for (
    const [record, path, read] of [
      [definition?.value, definition?.path ?? "", definition?.file.read],
      [instance, at, main.read],
    ] as const
  ) {
    if (!record || !read) continue;
    const diffuse = read.optObject(record.diffuse, `${path}/diffuse`);
    const channel = diffuse ? read.optObject(diffuse.channel, `${path}/diffuse/channel`) : undefined;
    if (!channel) continue;
    const value = channel.current_value ?? channel.value;
    if (value !== undefined) {
      const rgb = read.tupleArray([value], `${path}/diffuse/channel/current_value`, 3);
      color = [clamp01(rgb[0]), clamp01(rgb[1]), clamp01(rgb[2])];
    }
    const image = read.optString(channel.image_file, `${path}/diffuse/channel/image_file`);
    if (image) {
      imageUri = image;
      imageAt = `${path}/diffuse/channel/image_file`;
    }
  }
  if (!imageUri) return { name: "", color };
  const bytes = await library.readContent(percentDecode(imageUri), main, imageAt);
  const mimeType = bytes ? imageMimeType(bytes) : undefined;
  if (bytes && !mimeType) {
    library.miss(imageUri, "image is neither PNG nor JPEG", main, imageAt);
  }
  return {
    name: "",
    color,
    imageUri,
    image: bytes && mimeType ? { uri: imageUri, bytes, mimeType } : undefined,
  };
}

function clamp01(x: number): number {
  return Math.min(Math.max(x, 0), 1);
}

function imageMimeType(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  return undefined;
}
