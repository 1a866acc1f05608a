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

/** The attribute store of `owner`, or undefined where it or its graph's edge maker is not found. */
function storeOf(owner: Property): Record<string, unknown> | undefined {
  if (!ATTRIBUTES) return undefined;
  const store = (owner as unknown as Record<symbol, Record<string, unknown>>)[ATTRIBUTES];
  return store && typeof edgeMaker(owner)._createEdge === "function" ? store : undefined;
}

/** The graph of `owner`, which makes edges. */
function edgeMaker(owner: Property): EdgeMaker {
  return owner.getGraph() as unknown as EdgeMaker;
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
  const store = storeOf(owner);
  if (!store || store[attribute] !== null) return false;
  store[attribute] = edgeMaker(owner)._createEdge(attribute, owner, child, edgeAttributes);
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
  const map = storeOf(owner)?.[attribute] as Partial<RefMap> | undefined;
  if (typeof map?.get !== "function" || typeof map.set !== "function" || map.get(key) !== null) return false;
  map.set(key, edgeMaker(owner)._createEdge(attribute, owner, child, { usage, key }));
  return true;
}

/** `addRef(attribute, child)` on a set reference (a mesh's `primitives`); false when not done. */
export function addRefQuietly(owner: Property, attribute: string, child: Property): boolean {
  const set = storeOf(owner)?.[attribute] as Partial<RefSet> | undefined;
  if (typeof set?.add !== "function") return false;
  set.add(edgeMaker(owner)._createEdge(attribute, owner, child, undefined));
  return true;
}

/**
 * `addChild(child)` of a node or scene, for a `child` just made: its only parent is the root, so
 * the setter's search for a parent node or scene to take it from (two lists of parents, each a Set
 * and arrays) finds nothing. False when `child` has another parent or it could not be done quietly.
 */
export function addFreshChildQuietly(parent: Property, child: Property): boolean {
  if (child.getGraph().listParentEdges(child).length !== 1) return false;
  return addRefQuietly(parent, "children", child);
}

/**
 * A literal attribute (`translation`, `rotation`, `extras`, …) of a property just made, as its setter
 * stores it, without the setter's event. `value` must be the caller's own (the setter would copy an
 * array: nothing else may hold it). False when the attribute store is not found.
 */
export function setQuietly(owner: Property, attribute: string, value: unknown): boolean {
  const store = storeOf(owner);
  if (!store || !(attribute in store)) return false;
  store[attribute] = value;
  return true;
}
