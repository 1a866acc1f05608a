/**
 * Self-contained glTF: a `.gltf` file's external buffers and images (relative URIs) are read and
 * embedded as data URIs, so the bytes that flow on carry the whole asset and the cache keys it by
 * every file it is made of.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { DecodeError } from "../../runtime/errors.ts";

/** True for a file name that is glTF JSON (as opposed to GLB or another format). */
export function isGltfJsonName(name: string): boolean {
  return name.toLowerCase().endsWith(".gltf");
}

/**
 * Returns the glTF with every external resource embedded, or the same bytes when there is nothing
 * to embed. `readFile` reads a path relative to the working directory (through the run context,
 * so each resource is recorded).
 *
 * @example
 * ```ts
 * const bytes = await bundleGltf(await Deno.readFile("plane.gltf"), "plane.gltf", Deno.readFile);
 * ```
 */
export async function bundleGltf(
  bytes: Uint8Array,
  path: string,
  readFile: (path: string) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  let json: { buffers?: { uri?: string }[]; images?: { uri?: string; mimeType?: string }[] };
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (cause) {
    throw new DecodeError({
      format: "gltf",
      at: { offset: 0 },
      expected: "glTF JSON",
      found: cause instanceof Error ? cause.message : String(cause),
      file: path,
    }, { cause });
  }
  const external = (uri: unknown): uri is string => typeof uri === "string" && !uri.startsWith("data:");
  const items = [
    ...(json.buffers ?? []).map((item, i) => ({
      item,
      at: `/buffers/${i}/uri`,
      mime: "application/octet-stream",
    })),
    ...(json.images ?? []).map((item, i) => ({
      item,
      at: `/images/${i}/uri`,
      mime: item.mimeType ?? mimeOf(item.uri),
    })),
  ].filter(({ item }) => external(item.uri));
  if (!items.length) return bytes;
  for (const { item, at, mime } of items) {
    const uri = item.uri!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) {
      throw new DecodeError({
        format: "gltf",
        at: { jsonPath: at },
        expected: "a relative file URI",
        found: uri,
        file: path,
      });
    }
    let resource: Uint8Array;
    try {
      resource = await readFile(join(dirname(path), decodeURIComponent(uri)));
    } catch (cause) {
      throw new DecodeError({
        format: "gltf",
        at: { jsonPath: at },
        expected: "a readable file beside the .gltf",
        found: `'${uri}': ${cause instanceof Error ? cause.message : cause}`,
        file: path,
      }, { cause });
    }
    item.uri = `data:${mime};base64,${resource.toBase64()}`;
  }
  return new TextEncoder().encode(JSON.stringify(json));
}

function mimeOf(uri: string | undefined): string {
  const lower = (uri ?? "").toLowerCase();
  if (lower.endsWith(".png")) return "image/png";
  if (lower.endsWith(".jpg") || lower.endsWith(".jpeg")) return "image/jpeg";
  if (lower.endsWith(".webp")) return "image/webp";
  if (lower.endsWith(".ktx2")) return "image/ktx2";
  return "application/octet-stream";
}
