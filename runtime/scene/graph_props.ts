/**
 * Every property of a document, each once, without listing the graph's edges: the scans that look
 * at every property's extras (`settleExtras`, the export's NaN pre-check) listed all edges (51,330
 * for 16 retail-shaped compounds) into an array and put their children (19,896) into a set, a
 * quarter of such a scan's time, and read each extras through `getExtras` (glTF-Transform's `get`,
 * a megamorphic call per property), the larger part of the rest.
 *
 * @module
 */
import type { Document, Property } from "@gltf-transform/core";
import { ATTRIBUTES } from "./graph_internals.ts";

/** property-graph 4's map from a child to the edges it is the child of (kept while empty). */
type ChildEdges = Map<Property, Set<unknown>>;

/** A document's graph (glTF-Transform's `Graph<Property>`). */
type PropertyGraph = ReturnType<Document["getGraph"]>;

/** The graph's child-edge map where property-graph keeps it as 4.1 does, else undefined. */
function childEdges(graph: PropertyGraph): ChildEdges | undefined {
  const map = (graph as unknown as { _childEdges?: unknown })._childEdges;
  if (!(map instanceof Map)) return undefined;
  for (const edges of map.values()) return edges instanceof Set ? map as ChildEdges : undefined;
  return map as ChildEdges;
}

/** How many times {@link forEachProperty} fell back to listing the graph's edges (a count for tests). */
export const edgeListings = { count: 0 };

/**
 * Calls `visit` with the document's root, then every property that is the child of an edge (each
 * once, in the order its first edge was made: the order of `listEdges`' first mention of it for
 * every scene whose edges were never re-made), until `visit` returns true; returns whether it did.
 * Where property-graph's internals are not where 4.1 keeps them, the edges are listed instead.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { forEachProperty } from "./graph_props.ts";
 *
 * const doc = new Document();
 * doc.createNode("a");
 * forEachProperty(doc, (prop) => void console.log(prop.propertyType)); // Root, Node
 * ```
 */
export function forEachProperty(doc: Document, visit: (prop: Property) => boolean | void): boolean {
  if (visit(doc.getRoot())) return true;
  const map = childEdges(doc.getGraph());
  if (map) {
    // A property whose last edge went keeps its (empty) entry: no longer part of the document.
    for (const [prop, edges] of map) if (edges.size > 0 && visit(prop)) return true;
    return false;
  }
  edgeListings.count++;
  const seen = new Set<Property>();
  for (const edge of doc.getGraph().listEdges()) {
    const prop = edge.getChild() as Property;
    if (seen.has(prop)) continue;
    seen.add(prop);
    if (visit(prop)) return true;
  }
  return false;
}

/**
 * `prop.getExtras()`, read from property-graph's attribute store where it is found (the getter's
 * call chain costs more than the rest of a scan of empty extras).
 */
export function extrasOf(prop: Property): unknown {
  const store = ATTRIBUTES && (prop as unknown as Record<symbol, { extras?: unknown }>)[ATTRIBUTES];
  return store && "extras" in store ? store.extras : prop.getExtras();
}

/** The edges `prop` is the child of (an empty list for none). */
type ParentEdges = Iterable<ReturnType<PropertyGraph["listParentEdges"]>[number]>;

/**
 * The edges `prop` is the child of, in `listParentEdges`' order, without its copy into a new array:
 * the GLB writer asks this of every accessor twice (its group in the binary chunk, whether it needs
 * bounds), 26,000 arrays for the 16 bench compounds. Read only, and only until the graph changes.
 */
export function parentEdgesOf(graph: PropertyGraph, prop: Property): ParentEdges {
  const map = childEdges(graph);
  if (!map) return graph.listParentEdges(prop);
  return (map.get(prop) as ParentEdges | undefined) ?? [];
}

/** Whether `value` has an own enumerable key (`Object.keys(value).length > 0`, without the list). */
export function hasOwnKey(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** What glTF-Transform 4.5 keeps in an accessor's attribute store that the export's scans read. */
export interface AccessorStore {
  readonly array: ArrayLike<number> | null;
  readonly componentType: number;
  readonly type: string;
}

/**
 * An accessor's attribute store, read directly (`getArray`, `getComponentType` and `getType` are
 * glTF-Transform's one `get` for every property and attribute, a megamorphic load each, where a loop
 * over accessors reading the store's fields loads from objects of one shape), or undefined where the
 * store is not found as 4.5 keeps it. Read only.
 */
export function accessorStore(accessor: Property): AccessorStore | undefined {
  const store = ATTRIBUTES && (accessor as unknown as Record<symbol, Partial<AccessorStore>>)[ATTRIBUTES];
  return store && "array" in store && "componentType" in store && "type" in store
    ? store as AccessorStore
    : undefined;
}
