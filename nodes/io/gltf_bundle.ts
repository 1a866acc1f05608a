/**
 * Self-contained glTF: a `.gltf` file's external buffers and images (relative URIs) are read and
 * embedded as data URIs, so the bytes that flow on carry the whole asset and the cache keys it by
 * every file it is made of; an image without a name is named after its file (without the extension).
 * A relative URI resolves only inside the model's folder (or a folder
 * the caller names as a resource root): `../` and `%2e%2e/` and symlinks leading out are refused, and
 * of an absolute path only the file name is looked for beside the model, so a downloaded model cannot
 * pull a private file into its output; and only regular files are read, so one cannot hang the run
 * on a pipe beside it.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { DecodeError } from "../../runtime/errors.ts";
import { maxJsonDepth } from "../../runtime/depth.ts";
import { MAX_GLTF_DEPTH } from "../../runtime/scene/gltf_io.ts";
import { utf16Note, utf16Order } from "../../runtime/utf16.ts";
import { isBlankName } from "../../runtime/scene/derived_names.ts";
import { findInFolders, type TextureFolders, textureFolders } from "./texture_folders.ts";

/** True for a file name that is glTF JSON (as opposed to GLB or another format). */
export function isGltfJsonName(name: string): boolean {
  return name.toLowerCase().endsWith(".gltf");
}

/** How {@link bundleGltf} reads resources and where they may live. */
export interface BundleOptions {
  /** Reads a path relative to the working directory (through the run context, so each read is recorded). */
  readonly readFile: (path: string) => Promise<Uint8Array>;
  /** Folders besides the model's own that resources may resolve into; default none. */
  readonly roots?: readonly string[];
  /**
   * Lists a folder (sorted names, empty when absent; through the run context, so the listing is
   * recorded). Given, a resource missing in the URI's case is looked for ignoring case.
   */
  readonly listDir?: (path: string) => Promise<string[]>;
  /** Where a resource found in another case than its URI's, or an image left out, is reported. */
  readonly warn?: (message: string) => void;
  /**
   * An image file that is not there is left out (the textures using it lose their source) rather than
   * an error; default false.
   */
  readonly leaveOutMissingImages?: boolean;
}

type JsonItem = { uri?: unknown; mimeType?: unknown };

/**
 * Returns the glTF with every external resource embedded, or the same bytes when there is nothing
 * to embed.
 *
 * @example
 * ```ts
 * const bytes = await bundleGltf(await Deno.readFile("plane.gltf"), "plane.gltf", { readFile: Deno.readFile });
 * ```
 */
export async function bundleGltf(
  bytes: Uint8Array,
  path: string,
  options: BundleOptions,
): Promise<Uint8Array> {
  const fail = (at: string, expected: string, found: string, cause?: unknown) =>
    new DecodeError({ format: "gltf", at: { jsonPath: at }, expected, found, file: path }, { cause });
  // A .gltf saved as UTF-16 is read as decode.gltf reads it; one that is not even that is left to it.
  const order = utf16Order(bytes);
  let text: string;
  try {
    text = new TextDecoder(order ?? "utf-8", { fatal: order !== undefined }).decode(bytes).replace(
      /^\uFEFF/,
      "",
    );
  } catch {
    return bytes;
  }
  // Deeper files are refused by decode.gltf; leave them untouched rather than re-serialise them here.
  if (maxJsonDepth(text, MAX_GLTF_DEPTH).exceeded) return bytes;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw fail("/", "glTF JSON", cause instanceof Error ? cause.message : String(cause), cause);
  }
  if (!json || typeof json !== "object") return bytes; // decode.gltf reports what is wrong with it
  // glTF 2.0 lists them; glTF 1.0 keys them by id in a dictionary (decode.gltf upgrades it).
  const items = (name: string) => {
    const list = json[name];
    const entries: [string | number, JsonItem][] = Array.isArray(list)
      ? list.map((item: JsonItem, i) => [i, item])
      : list && typeof list === "object"
      ? Object.entries(list as Record<string, JsonItem>)
      : [];
    return entries.map(([key, item]) => ({ item, key, at: `/${name}/${pointerToken(key)}/uri` }));
  };
  const external = [...items("buffers"), ...items("images")].filter(({ item }) =>
    item && typeof item === "object" && typeof item.uri === "string" && !item.uri.startsWith("data:")
  );
  if (!external.length) return bytes;
  const folder = dirname(path);
  const roots = [folder, ...options.roots ?? []];
  const missingImages = new Set<string | number>();
  let textures: TextureFolders | undefined;
  // A folder is listed once per bundle, however many resources are looked for in it (a Flight
  // Simulator model names a hundred textures in one texture folder).
  const listings = new Map<string, Promise<string[]>>();
  const listDir = options.listDir && ((path: string) => {
    let names = listings.get(path);
    if (!names) listings.set(path, names = options.listDir!(path));
    return names;
  });
  for (const { item, key, at } of external) {
    const uri = item.uri as string;
    const decoded = lenientlyDecoded(uri);
    if (decoded.lenient) {
      options.warn?.(
        `${path}: ${at} '${uri}' has a '%' that starts no valid escape; read as written there, ` +
          "as Blender's importer and browsers do",
      );
    }
    const local = localPath(decoded.text);
    if (!local) throw fail(at, "a relative file URI", uri);
    if (local.note) options.warn?.(`${path}: ${at} '${uri}' ${local.note}`);
    let file = join(folder, local.path);
    let info = await statOf(file);
    if (listDir && !info) {
      // Models made on Windows or macOS name files in any case; Linux finds only the exact one.
      const match = await matchIgnoringCase(folder, relative(folder, file), listDir);
      if (match) {
        options.warn?.(
          `${path}: ${at} '${uri}' is '${relative(folder, match)}' on disk (another case); read that file`,
        );
        file = match;
        info = await statOf(file);
      }
    }
    const bare = uri.split(/[?#]/)[0];
    if (!info && bare !== uri) {
      // A URL's query or fragment (`tex.png?v=2`, a web app's cache-buster) names no part of the file:
      // browsers, and three.js, fetch `tex.png`. A file named with the `?` itself is read first, as Blender does.
      const unqueried = localPath(lenientlyDecoded(bare).text);
      const found = unqueried && await statOf(join(folder, unqueried.path));
      if (found) {
        options.warn?.(`${path}: ${at} '${uri}' read as '${bare}': a URL's query or fragment names no file`);
        file = join(folder, unqueried.path);
        info = found;
      }
    }
    let named = bare;
    if (!info && listDir && at.startsWith("/images/")) {
      // Not beside the model: a Flight Simulator package keeps it in its texture folder.
      if (!textures) {
        textures = await textureFolders(folder, options.roots ?? [], { listDir, readFile: options.readFile });
        if (textures.ambiguous) {
          options.warn?.(
            `${path}: the model's folder has several texture folders beside it (${textures.ambiguous}) and ` +
              "none named for it: name the one to use in resource_roots",
          );
        }
        for (const admitted of textures.admitted) if (!roots.includes(admitted)) roots.push(admitted);
      }
      const found = await findInFolders(basename(local.path), textures.folders, listDir);
      if (found) {
        options.warn?.(`${path}: ${at} '${uri}' is not beside the model; read '${found}' (a texture folder)`);
        file = found;
        named = found;
        info = await statOf(file);
      }
    }
    if (!(await insideSomeRoot(file, roots))) {
      throw fail(at, `a file inside the model's folder${roots.length > 1 ? " or a resource root" : ""}`, uri);
    }
    // A pipe would block the read for ever, a device might never end: only regular files are read.
    const kind = info && notARegularFile(info);
    if (kind) throw fail(at, "a regular file beside the .gltf", `'${uri}' is ${kind}`);
    let resource: Uint8Array;
    try {
      resource = await options.readFile(file);
    } catch (cause) {
      // A texture file left behind (a model downloaded without it, a folder moved): viewers draw the
      // model without it, and so does the output, saying so. Missing geometry is still an error.
      // A name longer than the file system allows (255 bytes a component) names no file either.
      const tooLong = (cause as { code?: string })?.code === "ENAMETOOLONG";
      if (
        options.leaveOutMissingImages && (cause instanceof Deno.errors.NotFound || tooLong) &&
        at.startsWith("/images/")
      ) {
        missingImages.add(key);
        const unresolved = textures?.unresolved?.length
          ? ` (texture.cfg fallbacks found nowhere partgraph may read: ${textures.unresolved.join(", ")}; ` +
            "name the packages they lie in, such as the sim's fs-base, in resource_roots)"
          : "";
        const why = tooLong ? "names no file (a name longer than the file system allows)" : "not found";
        options.warn?.(`${path}: ${at} '${uri}' ${why}; the textures that use it are left out${unresolved}`);
        continue;
      }
      throw fail(
        at,
        "a readable file beside the .gltf",
        `'${uri}': ${cause instanceof Error ? cause.message : cause}`,
        cause,
      );
    }
    const mime = at.startsWith("/images/")
      ? (typeof item.mimeType === "string" ? item.mimeType : mimeOf(named))
      : "application/octet-stream";
    item.uri = `data:${mime};base64,${resource.toBase64()}`;
    // The data: URI names no file: an image without a name of its own is named after the file it was,
    // so the output calls it what the user's file is (not `<material>_baseColor` or `image_<i>`). A glTF
    // 1.0 image is named by its id already (decode.gltf's upgrade), which stands.
    const stem = basename(file).replace(/\.[^.]*$/, "");
    const image = item as JsonItem & { name?: unknown };
    if (
      at.startsWith("/images/") && Array.isArray(json.images) && !isBlankName(stem) &&
      (typeof image.name !== "string" || isBlankName(image.name))
    ) {
      image.name = stem;
    }
  }
  if (missingImages.size) withoutImages(json, missingImages);
  if (order) options.warn?.(`${path}: ${utf16Note(order)}`);
  return new TextEncoder().encode(JSON.stringify(json));
}

/**
 * Removes the images at `missing` (indices, or a glTF 1.0 file's ids) from `json`, renumbering the
 * others where textures name them (their `source`, and the `source` of an image extension); a texture
 * whose image is removed keeps no source, which `decode.gltf` then leaves out of the materials using
 * it, with a warning.
 */
function withoutImages(json: Record<string, unknown>, missing: ReadonlySet<string | number>): void {
  if (!Array.isArray(json.images)) {
    // glTF 1.0: images and textures keyed by id; a texture keeps no source, as in 2.0.
    const images = json.images as Record<string, unknown>;
    for (const id of missing) delete images[id];
    const textures = json.textures && typeof json.textures === "object" ? Object.values(json.textures) : [];
    for (const texture of textures) {
      const holder = texture as Record<string, unknown> | null;
      if (holder && typeof holder === "object" && missing.has(holder.source as string)) delete holder.source;
    }
    return;
  }
  const kept: unknown[] = [];
  const renumbered = new Map<number, number>();
  json.images.forEach((image, i) => {
    if (!missing.has(i)) renumbered.set(i, kept.push(image) - 1);
  });
  json.images = kept;
  const renumber = (holder: Record<string, unknown> | undefined) => {
    if (!holder || typeof holder.source !== "number") return;
    const source = renumbered.get(holder.source);
    if (source === undefined) delete holder.source;
    else holder.source = source;
  };
  for (const texture of Array.isArray(json.textures) ? json.textures : []) {
    if (!texture || typeof texture !== "object") continue;
    renumber(texture);
    const extensions = (texture as { extensions?: unknown }).extensions;
    if (extensions && typeof extensions === "object") {
      for (const extension of Object.values(extensions)) {
        if (extension && typeof extension === "object") renumber(extension as Record<string, unknown>);
      }
    }
  }
}

/**
 * The file `rel` (a path below `folder`, no `..`) names, found segment by segment ignoring case
 * where the exact name is missing; undefined when a segment matches nothing.
 */
async function matchIgnoringCase(
  folder: string,
  rel: string,
  listDir: (path: string) => Promise<string[]>,
): Promise<string | undefined> {
  const segments = rel.split(sep);
  if (segments.includes("..")) return undefined;
  let at = folder;
  for (const segment of segments) {
    const names = await listDir(at);
    const name = names.includes(segment)
      ? segment
      : names.find((n) => n.toLowerCase() === segment.toLowerCase());
    if (name === undefined) return undefined;
    at = join(at, name);
  }
  return at;
}

/**
 * The path below the model's folder that a URI's decoded path names, with a note when it is not the
 * URI as written; undefined for a URL of another scheme (`https:`), which is never fetched. A relative
 * path is itself, with Windows `\` read as `/` (as browsers read URLs). An absolute path on the
 * machine that made the model (`C:\Users\…\wing.png`, `file:///…`, `/home/…`), which glTF forbids
 * and exporters still write, gives its file name alone, looked for beside the model, where such a
 * texture usually travels: the absolute path itself is never read.
 */
function localPath(decoded: string): { path: string; note?: string } | undefined {
  const slashed = decoded.replaceAll("\\", "/");
  if (/^(?:[a-z]:\/|file:|\/)/i.test(slashed)) {
    const name = slashed.slice(slashed.lastIndexOf("/") + 1);
    return {
      path: name,
      note: `is an absolute path (on the machine that made the model); read '${name}' beside it`,
    };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(slashed)) return undefined;
  if (slashed === decoded) return { path: decoded };
  return { path: slashed, note: `separates folders with \\; read as '${slashed}'` };
}

/** The file's information, or undefined when it cannot be had (missing: the read reports it). */
async function statOf(file: string): Promise<Deno.FileInfo | undefined> {
  return await Deno.stat(file).catch(() => undefined);
}

/** True when `file` (lexically, and after following symlinks where it exists) lies inside one of `roots`. */
async function insideSomeRoot(file: string, roots: readonly string[]): Promise<boolean> {
  const within = (path: string, root: string) => {
    const rest = relative(root, path);
    return rest !== "" && !rest.startsWith("..") && !isAbsolute(rest);
  };
  const real = await Deno.realPath(file).catch(() => undefined);
  for (const root of roots) {
    if (!within(resolve(file), resolve(root))) continue;
    if (real === undefined) return true; // missing: the read reports it
    const realRoot = await Deno.realPath(root).catch(() => resolve(root));
    if (within(real, realRoot)) return true;
  }
  return false;
}

/** What a path is when it is not a regular file ("a pipe", "a folder", …); undefined for a regular file. */
function notARegularFile(info: Deno.FileInfo): string | undefined {
  if (info.isFile) return undefined;
  if (info.isDirectory) return "a folder";
  if (info.isFifo) return "a pipe";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return info.isSocket ? "a socket" : "not a regular file";
}

function mimeOf(uri: string): string {
  const lower = uri.toLowerCase();
  if (lower.endsWith(".png")) return "image/png";
  if (lower.endsWith(".jpg") || lower.endsWith(".jpeg")) return "image/jpeg";
  if (lower.endsWith(".webp")) return "image/webp";
  if (lower.endsWith(".ktx2")) return "image/ktx2";
  // Not glTF's, but what converters reference: decode.gltf stores them as PNG by their bytes.
  if (lower.endsWith(".tga")) return "image/x-tga";
  if (lower.endsWith(".bmp")) return "image/bmp";
  if (lower.endsWith(".dds")) return "image/vnd-ms.dds";
  return "application/octet-stream";
}

/**
 * A URI's percent escapes decoded. A `%` that starts no valid escape (a file named `100%.png`
 * written as it is) stays as written, as Python's `unquote` (Blender's importer) and browsers'
 * URL parsing (three.js) leave it: `lenient` says so.
 */
function lenientlyDecoded(uri: string): { text: string; lenient: boolean } {
  try {
    return { text: decodeURIComponent(uri), lenient: false };
  } catch {
    // Runs of escapes decode together (a multi-byte UTF-8 character); a run that is no UTF-8 stays.
    const text = uri.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    return { text, lenient: true };
  }
}

/** A key as a JSON Pointer token (`~` and `/` escaped). */
function pointerToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}
