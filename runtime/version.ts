/**
 * Versions that shape output bytes. They go into every cache key and build manifest, so upgrading
 * partgraph or a library it writes with never serves stale results.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

/** partgraph's own version (from deno.json). */
export const VERSION: string = config.version;

/** The pinned `asset.generator` string written into every glTF output. */
export const GENERATOR: string = `partgraph ${VERSION}`;

/**
 * Library versions that can change output bytes, from the pinned import map. Not from glTF-Transform's
 * own `VERSION`: the map's entry replaced it in this record anyway, and importing the library for it
 * loaded glTF-Transform into every process that only reads the versions (a batch's main thread).
 * `tests/batch/main_thread_cost_test.ts` checks that the two agree.
 */
export const TOOL_VERSIONS: Readonly<Record<string, string>> = Object.freeze({
  partgraph: VERSION,
  ...Object.fromEntries(
    Object.entries(config.imports as Record<string, string>)
      .filter(([name]) => name !== "gltf-validator")
      .map(([name, spec]) => [name, spec.slice(spec.lastIndexOf("@") + 1)]),
  ),
});
