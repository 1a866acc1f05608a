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
  let colorFrom = "the default white";
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
    const value = colorValue(channel, `${path}/diffuse/channel`, read, `${colorFrom} ${rgbText(color)}`);
    if (value) [color, colorFrom] = [value, "the definition's colour"];
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
 * has neither. A `null` colour, or one with a `null` component, is read as absent, with a warning
 * naming the null and what is used instead (`fallback` when neither value is read): Qt's JSON
 * writer (Daz Studio's, and its scripts') stores NaN and infinity as `null`, and a colour missing a
 * component has no meaning — reading the null as 0 would tint the surface.
 */
function colorValue(
  channel: JsonRecord,
  at: string,
  read: JsonReader,
  fallback: string,
): [number, number, number] | undefined {
  const nulls: { path: string; what: string }[] = [];
  for (const key of ["current_value", "value"]) {
    const value = channel[key];
    if (value === undefined) continue;
    const path = `${at}/${key}`;
    // A short array is malformed, not a NaN colour: refused below at its path.
    const component = Array.isArray(value) && value.length >= 3 ? value.slice(0, 3).indexOf(null) : -1;
    if (value === null || component >= 0) {
      nulls.push(
        value === null ? { path, what: `${key} null` } : {
          path: `${path}/${component}`,
          what: `${key} ${JSON.stringify((value as unknown[]).slice(0, 3))} with a null component`,
        },
      );
      continue;
    }
    const [r, g, b] = read.tuple(value, path, 3);
    const rgb: [number, number, number] = [clamp01(r), clamp01(g), clamp01(b)];
    nullsRead(read, at, nulls, `its ${key} ${rgbText(rgb)} is used`);
    return rgb;
  }
  nullsRead(read, at, nulls, `${fallback} is used`);
  return undefined;
}

/** Warns of a colour channel's `null` values read as absent; `used` says what was read instead. */
function nullsRead(
  read: JsonReader,
  at: string,
  nulls: readonly { path: string; what: string }[],
  used: string,
): void {
  if (nulls.length === 0) return;
  read.repair(
    nulls.length === 1 ? nulls[0].path : at,
    `${nulls.map((n) => n.what).join(" and ")} (how JSON writers store NaN or infinity) read as ` +
      `absent; ${used}`,
  );
}

function rgbText(rgb: readonly number[]): string {
  return `[${rgb.join(", ")}]`;
}

function clamp01(x: number): number {
  return Math.min(Math.max(x, 0), 1);
}

function imageMimeType(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  return undefined;
}
