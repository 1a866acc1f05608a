/**
 * The scene a rig node works on.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { sceneToChange } from "../../runtime/scene/copy.ts";

/**
 * The scene a rig node changes (its input when the node owns it, else a copy sharing vertex and
 * image data), with the node marked cheaper to run again than to store (`ctx.cheapToRecompute`). A
 * rig node's work is a pass over its panels; storing its scene encodes, hashes and writes every
 * vertex. A cold fill of `graphs/aircraft_file.json` on a 1M-vertex GLB stored the same 56 MB scene
 * once per rig node and took 2.3–2.7× its run without a cache.
 *
 * @example
 * ```ts
 * const scene = rigScene(inputs.scene, ctx);
 * ```
 */
export function rigScene(scene: Document, ctx: RunContext): Document {
  ctx.cheapToRecompute();
  return sceneToChange(scene, ctx.owns("scene"));
}
