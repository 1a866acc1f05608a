/**
 * The candidate libraries of a search, in the order ids resolve, produced lazily so a search that
 * has found everything stops listing and reading:
 *
 * 1. the libraries the archetype inis' `material_library` lines name for this model;
 * 2. every `.mat`/`.txm`/`.vms` in the model's folder and each ancestor up to the top,
 *    nearest first, names sorted within a folder;
 * 3. the libraries the inis name for any other archetype (the game keeps every library it
 *    has loaded resident, so models rely on them);
 * 4. every other library under the top folder, folders and names in sorted order.
 *
 * Stages 1, 3 and 4 need a data folder (`data_root`, or an ancestor named `DATA`); 3 and 4 only
 * run for ids the earlier stages did not supply. A list given as `libraries` replaces all four.
 *
 * @module
 */
import { basename, extname, isAbsolute, join, relative, resolve } from "node:path";
import type { JsonValue, RunContext } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { archetypeLibraries, normalizeGamePath, readIni } from "../codec/ini.ts";
import {
  archetypeInis,
  findGamePath,
  librariesIn,
  type SearchFile,
  type SearchScope,
  searchScope,
} from "./files.ts";
import { memoByDigest } from "./index.ts";
import type { LibrarySearchOptions } from "./search.ts";

/** Deepest folder level below the top that the last stage lists. */
const TREE_DEPTH = 8;

/**
 * Yields the candidates in resolution order (each file once), recording in `report` the folders
 * searched and the inis that named the model, and in `refused` the paths that would leave the top.
 */
export async function* candidateLibraries(
  options: LibrarySearchOptions,
  ctx: RunContext,
  refused: string[],
  report: Record<string, JsonValue>,
): AsyncGenerator<SearchFile> {
  report.searched = [];
  if (options.libraries !== "auto") {
    const root = options.dataRoot;
    for (const path of options.libraries) {
      // Joined, not resolved: a relative data_root keeps the reads relative (see SearchScope).
      const full = root && !isAbsolute(path) ? join(root, path) : path;
      const rel = root ? relative(resolve(root), resolve(full)) : "";
      if (root && (rel === ".." || rel.startsWith("../") || isAbsolute(rel))) {
        refused.push(`${path} (outside data_root)`);
      } else yield { path: full, label: path };
    }
    return;
  }
  if (!options.modelPath) {
    ctx.warn("decode.cmp: libraries is 'auto' but no model_path was given, so there is no folder to search");
    return;
  }
  const scope = searchScope(options.modelPath, options.dataRoot);
  const seen = new Set<string>();
  const fresh = (file: SearchFile) => !seen.has(resolve(file.path)) && seen.add(resolve(file.path));
  const byArchetype = scope.isDataRoot ? await readArchetypes(scope, ctx) : [];

  const modelInTop = normalizeGamePath(relative(scope.top, resolve(options.modelPath)));
  const named: string[] = [];
  for (const { ini, libraries } of byArchetype) {
    const own = libraries.get(modelInTop) ?? [];
    if (own.length) named.push(ini.label);
    for (const library of own) {
      const file = await findGamePath(library, scope, ctx, refused);
      if (!file) {
        ctx.warn(`library '${library}' named by ${ini.label} is not under ${basename(scope.top)}`);
      } else if (fresh(file)) yield file;
    }
  }
  if (scope.isDataRoot) report.archetype_inis = named;

  for (const folder of scope.chain) {
    (report.searched as string[]).push(folderLabel(scope, folder));
    for (const file of await librariesIn(folder, scope, ctx, refused)) {
      if (fresh(file)) yield { ...file, folder };
    }
  }

  for (const { libraries } of byArchetype) {
    for (const [archetype, list] of libraries) {
      if (archetype === modelInTop) continue;
      for (const library of list) {
        const file = await findGamePath(library, scope, ctx, []);
        if (file && fresh(file)) yield file;
      }
    }
  }

  if (!scope.isDataRoot) return; // the top is the model's own folder, already searched
  (report.searched as string[]).push("(the whole tree)");
  for await (const file of treeLibraries(scope, scope.top, TREE_DEPTH, ctx, refused)) {
    if (fresh(file)) yield file;
  }
}

/** Every archetype ini's `DA_archetype` → `material_library` map, in ini order. */
async function readArchetypes(scope: SearchScope, ctx: RunContext) {
  const out: { ini: SearchFile; libraries: Map<string, string[]> }[] = [];
  for (const ini of await archetypeInis(scope, ctx, [])) {
    const bytes = await ctx.readFile(ini.path);
    try {
      out.push({
        ini,
        libraries: memoByDigest("ini", bytes, () => archetypeLibraries(readIni(bytes, ini.label))),
      });
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      ctx.warn(`ini '${ini.label}' could not be read (${error.message}); skipped`);
    }
  }
  return out;
}

/** Libraries in `folder` and below, folders in name order, each folder's files before its subfolders. */
async function* treeLibraries(
  scope: SearchScope,
  folder: string,
  depth: number,
  ctx: RunContext,
  refused: string[],
): AsyncGenerator<SearchFile> {
  yield* await librariesIn(folder, scope, ctx, refused);
  if (depth === 0) return;
  for (const name of await ctx.listDir(folder)) {
    // Only extension-less entries can be game folders; a file among them simply lists as empty.
    if (extname(name) === "") {
      yield* treeLibraries(scope, join(folder, name), depth - 1, ctx, refused);
    }
  }
}

function folderLabel(scope: SearchScope, folder: string): string {
  return relative(scope.top, folder).replaceAll("\\", "/") || ".";
}
