/**
 * A scene builder's new properties listed on the document's root without the `change` events
 * glTF-Transform dispatches as it lists each one.
 *
 * Why: every property made (accessor, primitive, mesh, node, …) dispatches `create`, on which the
 * root lists it (`Root._addChildOfRoot`, by `addRef`), and that `addRef` dispatches `change`: two event
 * objects and a `node:change` string each, to no listener (glTF-Transform listens to `create` and
 * `dispose` only, and nothing else holds a document still being built). A retail-shaped Freelancer
 * compound makes about a thousand properties; they were 17,000 of the 36,000 events of a pass of the
 * bench's 16 compounds once the builder's own references were set quietly (`quiet_refs.ts`).
 *
 * The edge is the same, made by the graph's own `_createEdge` and added to the root's list as `addRef`
 * adds it ({@link addRefQuietly}); where that cannot be done quietly, or glTF-Transform's root is not
 * as 4.5 makes it, the public `addRef` runs.
 *
 * @module
 */
import type { Document, Property } from "@gltf-transform/core";
import { addRefQuietly } from "./quiet_refs.ts";

/** property-graph's `GraphNode.addRef`, as the root's listener calls it. */
type AddRef = (
  this: Property,
  attribute: string,
  child: Property,
  attributes?: Record<string, unknown>,
) => Property;

/**
 * Runs `build`, which makes properties of `doc` (a document the caller has just created and no one
 * else holds), with the root listing them quietly; the root is as it was when `build` returns or
 * throws.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { withQuietRootLists } from "./quiet_root.ts";
 *
 * const doc = new Document();
 * const meshes = withQuietRootLists(doc, () => [doc.createMesh("a"), doc.createMesh("b")]);
 * console.log(doc.getRoot().listMeshes().length); // 2
 * ```
 */
export function withQuietRootLists<T>(doc: Document, build: () => T): T {
  const root = doc.getRoot() as unknown as { addRef?: AddRef };
  const publicAddRef = root.addRef;
  // An own addRef already (a caller nesting this) or none: nothing is changed.
  if (Object.hasOwn(root, "addRef") || typeof publicAddRef !== "function") return build();
  const quietAddRef: AddRef = function (attribute, child, attributes) {
    if (attributes === undefined && addRefQuietly(this, attribute, child)) return this;
    return publicAddRef.call(this, attribute, child, attributes);
  };
  Object.defineProperty(root, "addRef", { value: quietAddRef, configurable: true, writable: true });
  try {
    return build();
  } finally {
    delete root.addRef;
  }
}
