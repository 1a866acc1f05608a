/**
 * The symbols under which property-graph (glTF-Transform's graph) keeps a property's attributes and
 * its immutable keys, found once on a probe accessor. Writing there is what glTF-Transform's own
 * setters and `copy` do, minus their event objects; the helpers that do so (`accessors.ts`,
 * `property_copy.ts`) fall back to the public methods when a symbol is not found where 4.5 keeps it.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";

const probe = new Document().createAccessor();
const probeArray = new Float32Array(1);
probe.setArray(probeArray).setType("VEC2");
const symbols = Object.getOwnPropertySymbols(probe);

/** property-graph's `$attributes`, if the probe's array, type and component type are under it. */
export const ATTRIBUTES: symbol | undefined = (() => {
  const symbol = symbols.find((s) => s.description === "attributes");
  const store = symbol && (probe as unknown as Record<symbol, Record<string, unknown>>)[symbol];
  return store?.array === probeArray && store.type === "VEC2" && store.componentType === 5126
    ? symbol
    : undefined;
})();

/** property-graph's `$immutableKeys`, if a Set is under it. */
export const IMMUTABLE_KEYS: symbol | undefined = (() => {
  const symbol = symbols.find((s) => s.description === "immutableKeys");
  return symbol && (probe as unknown as Record<symbol, unknown>)[symbol] instanceof Set ? symbol : undefined;
})();
