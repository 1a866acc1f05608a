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
import type { JsonReader, JsonRecord } from "./read_json.ts";
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
    const value = colorValue(channel, `${path}/diffuse/channel`, read);
    if (value) color = value;
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

/**
 * A diffuse channel's colour, `current_value` else `value`, clamped to [0, 1]; undefined when it
 * has neither. A `null` one is read as absent with a warning (Qt's JSON writer stores NaN as null).
 */
function colorValue(channel: JsonRecord, at: string, read: JsonReader): [number, number, number] | undefined {
  for (const key of ["current_value", "value"]) {
    if (channel[key] === undefined) continue;
    if (channel[key] === null) {
      read.repair(`${at}/${key}`, "null colour (how JSON writers store NaN) read as absent");
      continue;
    }
    const rgb = read.tupleArray([channel[key]], `${at}/${key}`, 3);
    return [clamp01(rgb[0]), clamp01(rgb[1]), clamp01(rgb[2])];
  }
  return undefined;
}

function clamp01(x: number): number {
  return Math.min(Math.max(x, 0), 1);
}

function imageMimeType(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  return undefined;
}
