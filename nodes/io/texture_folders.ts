/**
 * Where an image a `.gltf` names by file name lives when it is not beside the model. Microsoft
 * Flight Simulator packages keep a model's textures apart from it — `SimObjects/…/model/x.gltf`
 * beside `…/texture/` (or, per livery, `model.AAL` beside `texture.AAL`) — and name them in the
 * glTF by file name alone, or by the author's absolute path, sometimes without the `.DDS` the
 * packaged file carries (`X_ALBD.PNG` for `X_ALBD.PNG.DDS`). A texture folder's `texture.cfg` names
 * the folders the sim looks in next (`[fltsim] fallback.1=..\..\..\..\texture\DetailMap`): paths
 * in the sim's virtual file system, where every installed package is laid over the others, so a
 * fallback usually lands in another package (the base game's shared detail and glass textures, or
 * the aircraft a livery paints). Blender and three.js find none of them, and the model comes out grey.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** The folders an image missing beside the model is looked for in, in order, and a note when a choice was unclear. */
export interface TextureFolders {
  readonly folders: readonly string[];
  /**
   * The folders of {@link folders} outside the model's folder and the resource roots (the aircraft's
   * own texture folders), which reads may come from as well.
   */
  readonly admitted: readonly string[];
  /** Set when the model sits in an MSFS `model` folder beside several texture folders, none of them its own. */
  readonly ambiguous?: string;
  /** `texture.cfg` fallbacks found in no folder partgraph may read, as written (`fallback.2=…`). */
  readonly unresolved?: readonly string[];
}

/** How {@link textureFolders} looks at the disk: through the run context, so each look is recorded. */
export interface FolderReader {
  /** Sorted names in a folder, empty when absent. */
  readonly listDir: (path: string) => Promise<string[]>;
  readonly readFile: (path: string) => Promise<Uint8Array>;
}

/**
 * The texture folders for a model in `folder`: its own MSFS texture folder when `folder` is named
 * `model` or `model.<suffix>` (`texture.<suffix>` first, then `texture`, matched ignoring case), then
 * the fallbacks its `texture.cfg` names, then the resource roots. Several texture folders and none
 * the model's own is ambiguous: none is taken.
 *
 * A fallback is read where it lands on disk when that is one of the aircraft's texture folders or
 * inside a resource root; and, as the sim's virtual file system reads it, at the same path inside
 * each resource root taken as a package (its path from the package holding `SimObjects`). Anywhere
 * else it is not followed: a model's config file does not open the disk.
 */
export async function textureFolders(
  folder: string,
  roots: readonly string[],
  reader: FolderReader,
): Promise<TextureFolders> {
  const own = /^model(\.(.+))?$/i.exec(basename(folder));
  if (!own) return { folders: roots, admitted: [] };
  const parent = dirname(folder);
  const siblings = (await reader.listDir(parent)).filter((name) => /^texture(\..+)?$/i.test(name));
  const named = (wanted: string) => siblings.find((name) => name.toLowerCase() === wanted.toLowerCase());
  const chosen = [own[2] && named(`texture.${own[2]}`), named("texture")].filter((name) =>
    name !== undefined
  );
  if (!chosen.length && siblings.length > 1) {
    return { folders: roots, admitted: [], ambiguous: siblings.join(", ") };
  }
  const folders = (chosen.length ? chosen : siblings).map((name) => join(parent, name as string));
  const isSibling = (path: string) => dirname(path) === parent && /^texture(\..+)?$/i.test(basename(path));
  const fallbacks: string[] = [], unresolved: string[] = [], admitted = [...folders];
  for (const textures of folders) {
    for (const { line, path } of await cfgFallbacks(textures, reader)) {
      const onDisk = resolve(textures, path);
      const places = [
        ...(isSibling(onDisk) || roots.some((root) => inside(onDisk, root)) ? [onDisk] : []),
        ...packagePath(textures, onDisk).map((rest) => roots.map((root) => join(root, rest))).flat(),
      ];
      const found = [];
      for (const place of places) if ((await reader.listDir(place)).length) found.push(place);
      if (found.length) fallbacks.push(...found);
      else unresolved.push(line);
      if (found.includes(onDisk) && isSibling(onDisk)) admitted.push(onDisk);
    }
  }
  const ordered = [...new Set([...folders, ...fallbacks, ...roots])];
  return { folders: ordered, admitted, ...unresolved.length ? { unresolved } : {} };
}

/** The `[fltsim] fallback.N` entries of `textures`' `texture.cfg` (found ignoring case), in N's order. */
async function cfgFallbacks(
  textures: string,
  reader: FolderReader,
): Promise<{ line: string; path: string }[]> {
  const cfg = (await reader.listDir(textures)).find((name) => name.toLowerCase() === "texture.cfg");
  if (!cfg) return [];
  const text = new TextDecoder().decode(await reader.readFile(join(textures, cfg)));
  const entries: { n: number; line: string; path: string }[] = [];
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(;|\/\/).*$/, "").trim();
    const header = /^\[(.+)\]$/.exec(line);
    if (header) section = header[1].trim().toLowerCase();
    const entry = section === "fltsim" && /^fallback\.(\d+)\s*=\s*"?([^"]*)"?$/i.exec(line);
    if (entry && entry[2].trim()) {
      entries.push({ n: Number(entry[1]), line: line, path: entry[2].trim().replaceAll("\\", "/") });
    }
  }
  return entries.sort((a, b) => a.n - b.n).map(({ line, path }) => ({ line, path }));
}

/**
 * Where `onDisk` (a fallback of texture folder `textures`) lies in the sim's virtual file system:
 * its path from the package holding `textures` (the folder above `SimObjects`), or none when
 * `textures` is in no package or the fallback leaves it.
 */
function packagePath(textures: string, onDisk: string): string[] {
  const parts = resolve(textures).split(sep);
  const at = parts.findLastIndex((part) => part.toLowerCase() === "simobjects");
  if (at < 1) return [];
  const rest = relative(parts.slice(0, at).join(sep) || sep, onDisk);
  return rest && !rest.startsWith("..") && !isAbsolute(rest) ? [rest] : [];
}

/** True when `path` is inside folder `root` (by their resolved paths). */
function inside(path: string, root: string): boolean {
  const rest = relative(resolve(root), resolve(path));
  return rest !== "" && !rest.startsWith("..") && !isAbsolute(rest);
}

/**
 * The path of image file `name` in the first of `folders` that holds it — by its name ignoring case,
 * or that name with `.dds` after it — or undefined.
 */
export async function findInFolders(
  name: string,
  folders: readonly string[],
  listDir: (path: string) => Promise<string[]>,
): Promise<string | undefined> {
  const wanted = [name.toLowerCase(), `${name.toLowerCase()}.dds`];
  for (const folder of folders) {
    const names = await listDir(folder);
    for (const candidate of wanted) {
      const found = names.find((n) => n.toLowerCase() === candidate);
      if (found) return join(folder, found);
    }
  }
  return undefined;
}
