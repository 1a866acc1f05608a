/**
 * What a decoder knows about its source: format, frame and unit. Recorded on the scene so rig nodes
 * can use `"auto"` for the frame and resolvers can tell whose constraint records they hold.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { JsonValue } from "../node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "./extras.ts";

/** A signed axis of the output (glTF) space. */
export type Axis = "+X" | "-X" | "+Y" | "-Y" | "+Z" | "-Z";

/** All signed axes, for parameter enums. */
export const AXES: readonly Axis[] = ["+X", "-X", "+Y", "-Y", "+Z", "-Z"];

/** Facts about where a scene came from. */
export interface SourceInfo {
  /** Format id, e.g. `"cmp"`, `"3df"`, `"dson"`, `"gltf"`. */
  format: string;
  /** The model's forward direction, in the scene's (glTF) axes. */
  forward: Axis;
  /** The model's up direction, in the scene's (glTF) axes. */
  up: Axis;
  /** Metres per scene unit after decoding, or null when the source unit is unknown. */
  metresPerUnit: number | null;
  /** Anything else a decoder wants to note (scale applied, original unit name, …). */
  notes?: Record<string, JsonValue>;
}

/**
 * Records the source facts on the scene's default scene (under `extras.partgraph.source`).
 * Call on a scene you own (a decoder's fresh output or a copy).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { setSourceInfo } from "./source.ts";
 *
 * const doc = new Document();
 * doc.createScene("s");
 * setSourceInfo(doc, { format: "cmp", forward: "-Z", up: "+Y", metresPerUnit: 1 });
 * ```
 */
export function setSourceInfo(doc: Document, info: SourceInfo): void {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0] ??
    doc.createScene("Scene");
  if (!doc.getRoot().getDefaultScene()) doc.getRoot().setDefaultScene(scene);
  setPartgraphExtras(scene, { source: info as unknown as JsonValue });
}

/** Reads what {@link setSourceInfo} recorded, or undefined. */
export function getSourceInfo(doc: Document): SourceInfo | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return undefined;
  const source = getPartgraphExtras(scene).source;
  return source && typeof source === "object" && !Array.isArray(source)
    ? source as unknown as SourceInfo
    : undefined;
}
