/**
 * The files library search may read: UTF libraries (`.mat`, `.txm`, `.vms`) in a model's folder and
 * its ancestors up to the search's top folder, libraries an ini names (relative to the top, with the
 * game's case-insensitive backslash paths), and the archetype ini files. **Nothing outside the top
 * folder is read**: a path with `..` that climbs out, or a symbolic link whose target lies outside,
 * is refused. Folders are listed and files read only through the run context, so every listing and
 * every file is part of the node's cache key.
 *
 * @module
 */
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import type { RunContext } from "../../../../runtime/node.ts";
import { normalizeGamePath } from "../codec/ini.ts";

/** File extensions of UTF libraries (lower case, no dot). */
const LIBRARY_EXTENSIONS: readonly string[] = ["mat", "txm", "vms"];

/** A file the search may read: where it is and how reports name it (relative to the top). */
export interface SearchFile {
  readonly path: string;
  readonly label: string;
  /**
   * For a library the folder search found: its folder. Libraries side by side are ordered only by
   * their names, so the search reads a found library's neighbours too, to name a conflict between them.
   */
  readonly folder?: string;
}

/**
 * The folders a search covers, named as the parameters name the model: relative to the working
 * folder when `model_path` and `data_root` both are, else absolute. The files read are named the
 * same way, so a cached result keyed by relative paths is checked against the files of the tree it
 * is used in (another checkout, another machine), not against the tree it was made in.
 */
export interface SearchScope {
  /** The top folder: nothing outside it is read. */
  readonly top: string;
  /** `true` when the top is a game data folder (given as `data_root` or a folder named `DATA`). */
  readonly isDataRoot: boolean;
  /** The model's folder and its ancestors up to the top, nearest first. */
  readonly chain: readonly string[];
}

/**
 * The search scope of a model: up to `dataRoot` when given (the model must lie inside it), else up
 * to the nearest folder named `DATA` (case-insensitive), else the model's own folder only. Throws
 * when the model lies outside `dataRoot`: the search would have to leave it.
 *
 * @example
 * ```ts
 * searchScope("DATA/SHIPS/RH/rh_fighter/rh_fighter.cmp", "").chain.length; // 4
 * ```
 */
export function searchScope(modelPath: string, dataRoot: string): SearchScope {
  const folder = dirname(resolve(modelPath));
  let top: string | undefined;
  if (dataRoot) {
    top = resolve(dataRoot);
    if (!inside(top, folder, true)) {
      throw new Error(
        `library search refused: the model '${modelPath}' is outside data_root '${dataRoot}', ` +
          "and no file outside data_root is ever read",
      );
    }
  } else {
    for (let dir = folder;; dir = dirname(dir)) {
      if (basename(dir).toLowerCase() === "data") top = dir;
      if (top || dirname(dir) === dir) break;
    }
  }
  const chain = [folder];
  while (top && chain.at(-1) !== top) chain.push(dirname(chain.at(-1)!));
  const named = isAbsolute(modelPath) || isAbsolute(dataRoot)
    ? (path: string) => path
    : (path: string) => relative(Deno.cwd(), path) || ".";
  return { top: named(top ?? folder), isDataRoot: top !== undefined, chain: chain.map(named) };
}

/** The UTF libraries of one folder, in name order, each checked to stay inside the top folder. */
export async function librariesIn(
  folder: string,
  scope: SearchScope,
  ctx: RunContext,
  refused: string[],
): Promise<SearchFile[]> {
  const out: SearchFile[] = [];
  for (const name of await ctx.listDir(folder)) {
    if (!LIBRARY_EXTENSIONS.includes(extname(name).slice(1).toLowerCase())) continue;
    const file = await confined(join(folder, name), scope, refused);
    if (file) out.push(file);
  }
  return out;
}

/**
 * Finds a game path (`ships\rheinland\rh_playerships.mat`) under the top folder, matching each
 * segment case-insensitively as the game's file system does. Undefined when it is not there; a path
 * that climbs out of the top is added to `refused` and never looked up.
 */
export async function findGamePath(
  gamePath: string,
  scope: SearchScope,
  ctx: RunContext,
  refused: string[],
): Promise<SearchFile | undefined> {
  const segments = normalizeGamePath(gamePath).split("/").filter((s) => s !== "" && s !== ".");
  if (!segments.length || segments.some((s) => s === ".." || s.includes("\0"))) {
    refused.push(`${gamePath} (climbs out of the search's top folder)`);
    return undefined;
  }
  let path = scope.top;
  for (const segment of segments) {
    const names = await ctx.listDir(path);
    const name = names.find((n) => n.toLowerCase() === segment);
    if (!name) return undefined;
    path = join(path, name);
  }
  return await confined(path, scope, refused);
}

/**
 * The `.ini` files in the top folder and its direct subfolders (`SHIPS/shiparch.ini`,
 * `SOLAR/solararch.ini`, `EQUIPMENT/*.ini`, …), where the game keeps its archetype lists.
 */
export async function archetypeInis(
  scope: SearchScope,
  ctx: RunContext,
  refused: string[],
): Promise<SearchFile[]> {
  const out: SearchFile[] = [];
  const visit = async (folder: string, depth: number) => {
    for (const name of await ctx.listDir(folder)) {
      const ext = extname(name).toLowerCase();
      if (ext === ".ini") {
        const file = await confined(join(folder, name), scope, refused);
        if (file) out.push(file);
      } else if (ext === "" && depth > 0) {
        await visit(join(folder, name), depth - 1); // a file without extension lists as empty
      }
    }
  };
  await visit(scope.top, 1);
  return out;
}

/** The file as a {@link SearchFile} when it is a regular file whose real path stays inside the top. */
export async function confined(
  path: string,
  scope: SearchScope,
  refused: string[],
): Promise<SearchFile | undefined> {
  const label = relative(scope.top, path).replaceAll("\\", "/");
  try {
    const [realTop, real] = await Promise.all([Deno.realPath(scope.top), Deno.realPath(path)]);
    if (!inside(realTop, real, false)) {
      refused.push(`${label} (a link to a file outside the search's top folder)`);
      return undefined;
    }
    return (await Deno.stat(real)).isFile ? { path, label } : undefined;
  } catch {
    return undefined; // vanished or unreadable: as if absent
  }
}

function inside(root: string, path: string, orEqual: boolean): boolean {
  const rel = relative(root, path);
  if (rel === "") return orEqual;
  return rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel);
}
