/**
 * Helpers for partgraph's own annotations, kept under `extras.partgraph` of a glTF property so
 * they travel inside the scene and never clash with interop extras (`ctrl_type`, `hardpoint`, …).
 *
 * @module
 */
import type { Property } from "@gltf-transform/core";
import type { JsonValue } from "../node.ts";

type JsonObject = { [key: string]: JsonValue };

/** Returns `extras.partgraph` of a property (an empty object when absent). */
export function getPartgraphExtras(prop: Property): JsonObject {
  const value = extrasObject(prop).partgraph;
  return value && typeof value === "object" && !Array.isArray(value) ? value : {};
}

/**
 * A property's extras as an object to add keys to. glTF allows any JSON there; a value that is not
 * an object (an author's string, number or list) is kept under `value` rather than lost.
 */
export function extrasObject(prop: Property): JsonObject {
  const extras = prop.getExtras() as unknown as JsonValue;
  if (extras && typeof extras === "object" && !Array.isArray(extras)) return extras;
  return extras === undefined || extras === null ? {} : { value: extras };
}

/**
 * Merges fields into `extras.partgraph` of a property you own, leaving other extras as they are.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { setPartgraphExtras } from "./extras.ts";
 *
 * const node = new Document().createNode("aileron_l");
 * setPartgraphExtras(node, { kind: "aileron", side: "left" });
 * ```
 */
export function setPartgraphExtras(prop: Property, fields: JsonObject): void {
  const extras = { ...extrasObject(prop) };
  extras.partgraph = { ...getPartgraphExtras(prop), ...fields };
  prop.setExtras(extras);
}

/**
 * Merges top-level extras (interop fields such as `ctrl_type`, `min`, `max`) into a property you own.
 */
export function mergeExtras(prop: Property, fields: JsonObject): void {
  prop.setExtras({ ...extrasObject(prop), ...fields });
}

/**
 * Whether an extras flag is set: `true`, or `1` as Blender 3.4 writes a boolean custom property back
 * out, so a file that went through Blender keeps its flags (a resolved scene is not resolved twice).
 */
export function isExtrasFlag(value: unknown): boolean {
  return value === true || value === 1;
}
