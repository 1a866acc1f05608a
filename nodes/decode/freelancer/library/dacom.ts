/**
 * The game's own `[MaterialMap]`: `EXE/dacom.ini` beside the data folder of an install (`DATA` and
 * `EXE` are siblings), read when the model lies in a game tree; the built-in retail table
 * otherwise. This is the one file outside the data folder the decoder reads: `EXE` (spelled `EXE`,
 * `exe` or `Exe`) is listed and `dacom.ini` found in it case-insensitively, both through the run
 * context, so the file is part of the cache key like every library (and one appearing later re-runs
 * the decode); a link pointing out of the install is refused.
 *
 * @module
 */
import { join } from "node:path";
import type { RunContext } from "../../../../runtime/node.ts";
import { type MaterialMap, readMaterialMap, RETAIL_MATERIAL_MAP } from "../codec/material_map.ts";
import { confined, searchScope } from "./files.ts";
import type { LibrarySearchOptions } from "./search.ts";

/**
 * The `[MaterialMap]` of the install the model lies in: `data_root` (or, with `libraries: "auto"`,
 * the model's nearest ancestor named `DATA`) names the data folder; `../EXE/dacom.ini` from it is
 * read when there. Without a data folder, or without the file, the built-in retail table.
 *
 * @example
 * ```ts
 * const map = await gameMaterialMap({ modelPath: "fl/DATA/SHIPS/x.cmp", dataRoot: "", libraries: "auto" }, ctx);
 * map.source; // "EXE/dacom.ini" when fl/EXE/dacom.ini exists
 * ```
 */
export async function gameMaterialMap(options: LibrarySearchOptions, ctx: RunContext): Promise<MaterialMap> {
  const data = dataFolder(options);
  if (data === undefined) return RETAIL_MATERIAL_MAP;
  const install = join(data, "..");
  // The EXE folder is listed under the spellings installs use, not found by listing the install's
  // own folder: that folder holds whatever the user keeps beside the game (outputs, caches), and a
  // listing recorded in the cache key would change with every run that writes there.
  let found: { exe: string; name: string } | undefined;
  for (const exe of EXE_SPELLINGS) {
    const name = (await ctx.listDir(join(install, exe))).find((n) => n.toLowerCase() === "dacom.ini");
    if (name) {
      found = { exe, name };
      break;
    }
  }
  if (!found) return RETAIL_MATERIAL_MAP;
  const { exe, name } = found;
  const refused: string[] = [];
  const file = await confined(
    join(install, exe, name),
    { top: install, isDataRoot: false, chain: [] },
    refused,
  );
  if (!file) {
    if (refused.length) {
      ctx.warn(`${refused[0]}: not read; the built-in retail [MaterialMap] is used`);
    }
    return RETAIL_MATERIAL_MAP;
  }
  return readMaterialMap(await ctx.readFile(file.path), file.label, (message) => ctx.warn(message));
}

/** How installs spell the folder beside `DATA` (retail: `EXE`). */
const EXE_SPELLINGS = ["EXE", "exe", "Exe"];

/** The data folder the options name, if any (never throws: the library search reports a bad one). */
function dataFolder(options: LibrarySearchOptions): string | undefined {
  if (options.dataRoot) return options.dataRoot;
  if (options.libraries !== "auto" || !options.modelPath) return undefined;
  const scope = searchScope(options.modelPath, "");
  return scope.isDataRoot ? scope.top : undefined;
}
