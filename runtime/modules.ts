/**
 * Loading a graph's custom node modules. Only modules a graph names explicitly are loaded, from
 * paths relative to that graph file; a module's source digest goes into its nodes' cache keys so an
 * edited module never serves stale results.
 *
 * @module
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "./node.ts";
import { sha256Hex } from "./canonical.ts";

/** A loaded custom module. */
export interface LoadedModule {
  readonly path: string;
  readonly plugin: Plugin;
  /** SHA-256 of the module's source text. */
  readonly digest: string;
}

/**
 * Imports a custom node module. It must export a {@link Plugin} as its default export (or as
 * `plugin`).
 */
export async function loadModule(dir: string, relative: string): Promise<LoadedModule> {
  const path = resolve(dir, relative);
  const digest = sha256Hex(await Deno.readFile(path));
  const mod = await import(pathToFileURL(path).href);
  const plugin = (mod.default ?? mod.plugin) as Plugin | undefined;
  if (!plugin || typeof plugin !== "object" || (!plugin.nodes && !plugin.decoders && !plugin.resolvers)) {
    throw new TypeError("the module must export a plug-in ({ nodes, decoders, resolvers }) as default");
  }
  return { path, plugin, digest };
}
