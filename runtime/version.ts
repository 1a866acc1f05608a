/**
 * Versions that shape output bytes. They go into every cache key and build manifest, so upgrading
 * partgraph or a library it writes with never serves stale results.
 *
 * @module
 */
import { VERSION as GLTF_TRANSFORM_VERSION } from "@gltf-transform/core";
import config from "../deno.json" with { type: "json" };

/** partgraph's own version (from deno.json). */
export const VERSION: string = config.version;

/** The pinned `asset.generator` string written into every glTF output. */
export const GENERATOR: string = `partgraph ${VERSION}`;

/** Library versions that can change output bytes, from the pinned import map. */
export const TOOL_VERSIONS: Readonly<Record<string, string>> = Object.freeze({
  partgraph: VERSION,
  "@gltf-transform/core": GLTF_TRANSFORM_VERSION,
  ...Object.fromEntries(
    Object.entries(config.imports as Record<string, string>)
      .filter(([name]) => name !== "gltf-validator")
      .map(([name, spec]) => [name, spec.slice(spec.lastIndexOf("@") + 1)]),
  ),
});
