/**
 * References set on a property a builder has just made, without the `change` events glTF-Transform's
 * setters dispatch: the same edge, made by the graph's own `_createEdge` and stored where the setter
 * stores it, so the document is the same property for property and edge for edge.
 *
 * Why: every setter dispatches two event objects and a `node:` string to no listener (glTF-Transform
 * listens to `create` and `dispose` only, and nothing else watches a document still being built). A
 * retail-shaped Freelancer model makes thousands of accessors and primitives, each with four to six
 * references (buffer, attributes, indices, material, the mesh's primitive list): tens of thousands of
 * events a model, about a third of the garbage a decode made beside glTF-Transform's own properties.
 *
 * Only for a reference not yet set: where one is, or the graph's internals are not where
 * glTF-Transform 4.5 keeps them, a helper does nothing and answers false, and the caller runs the
 * public setter.
 *
 * @module
 */
import type { Property } from "@gltf-transform/core";
import { ATTRIBUTES } from "./graph_internals.ts";

/** An edge as property-graph makes it; only passed on. */
type Edge = object;
/** property-graph's `Graph`, as far as these helpers use it. */
type EdgeMaker = {
  _createEdge(name: string, parent: Property, child: Property, attributes?: Record<string, unknown>): Edge;
};
/** property-graph's `RefMap` and `RefSet`, as far as these helpers use them. */
type RefMap = { get(key: string): Edge | null; set(key: string, edge: Edge): void };
type RefSet = { add(edge: Edge): void };

/** The attribute store and edge maker of `owner`, or undefined where they are not found. */
function internals(owner: Property): [Record<string, unknown>, EdgeMaker] | undefined {
  if (!ATTRIBUTES) return undefined;
  const store = (owner as unknown as Record<symbol, Record<string, unknown>>)[ATTRIBUTES];
  const graph = owner.getGraph() as unknown as Partial<EdgeMaker>;
  return store && typeof graph._createEdge === "function" ? [store, graph as EdgeMaker] : undefined;
}

/**
 * `setRef(attribute, child, edgeAttributes)` on an unset single reference (an accessor's `buffer`, a
 * primitive's `indices` or `material`); false when it could not be done quietly (nothing was done).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { setRefQuietly } from "./quiet_refs.ts";
 *
 * const doc = new Document();
 * const material = doc.createMaterial("hull");
 * const primitive = doc.createPrimitive();
 * if (!setRefQuietly(primitive, "material", material)) primitive.setMaterial(material);
 * ```
 */
export function setRefQuietly(
  owner: Property,
  attribute: string,
  child: Property,
  edgeAttributes?: Record<string, unknown>,
): boolean {
  const found = internals(owner);
  if (!found || found[0][attribute] !== null) return false;
  const [store, graph] = found;
  store[attribute] = graph._createEdge(attribute, owner, child, edgeAttributes);
  return true;
}

/**
 * `setRefMap(attribute, key, child, { usage })` on an unset key (a primitive's attribute `POSITION`,
 * `NORMAL`, …): the edge's attributes are `{ usage, key }`, as the setter makes them. False when it
 * could not be done quietly.
 */
export function setRefMapQuietly(
  owner: Property,
  attribute: string,
  key: string,
  child: Property,
  usage: string,
): boolean {
  const found = internals(owner);
  const map = found?.[0][attribute] as Partial<RefMap> | undefined;
  if (!found || typeof map?.get !== "function" || typeof map.set !== "function" || map.get(key) !== null) {
    return false;
  }
  map.set(key, found[1]._createEdge(attribute, owner, child, { usage, key }));
  return true;
}

/** `addRef(attribute, child)` on a set reference (a mesh's `primitives`); false when not done. */
export function addRefQuietly(owner: Property, attribute: string, child: Property): boolean {
  const found = internals(owner);
  const set = found?.[0][attribute] as Partial<RefSet> | undefined;
  if (!found || typeof set?.add !== "function") return false;
  set.add(found[1]._createEdge(attribute, owner, child, undefined));
  return true;
}
