/**
 * Empty reference collections of a copied property, shared until something is added to them. A bare
 * glTF-Transform node holds three hash tables and an object that stay empty for most nodes of most
 * files: its immutable keys (a Set, filled only as property-graph builds the property, and empty for
 * every kind a scene copy makes but a few), its children (a RefSet: a Set and a Map) and its
 * extensions (a RefMap: an object). On a copy of a million-node file (the hostile fuzz's) they were
 * ~540 of the ~1,750 bytes each copied node held, and every rig node that does not own its scene
 * makes such a copy.
 *
 * A lean RefSet or RefMap reads as an empty one (`values`, `keys`, `get`, `remove`, `delete` see
 * nothing) and takes its own Set and Map, or object, on its first `add` or `set`: property-graph's
 * collections change their contents only through those two methods. An empty immutable-key set is
 * only ever read after its property is built (`has`), so one set serves every property.
 *
 * @module
 */
import { type Document, type Property, RefMap, RefSet, VERSION } from "@gltf-transform/core";
import { ATTRIBUTES, IMMUTABLE_KEYS } from "./graph_internals.ts";

// deno-lint-ignore no-explicit-any
type Internals = Record<symbol, any>;
type Fields = { set: Set<unknown>; map: Map<unknown, unknown> };
type MapFields = { map: Record<string, unknown> };

/** The release whose collections were read (they change their contents only by `add` and `set`). */
const ENABLED = VERSION === "v4.5.1" && ATTRIBUTES !== undefined && IMMUTABLE_KEYS !== undefined;

/** The immutable keys of every copied property that has none (never added to: see the module doc). */
const NO_KEYS: ReadonlySet<string> = new Set();
/** The Set and Map of every lean RefSet until its first `add`; nothing is ever added to them. */
const NO_REFS = new Set<unknown>(), NO_CHILDREN = new Map<unknown, unknown>();
/** The map of every lean RefMap until its first `set`; frozen, so a stray write throws. */
const NO_ENTRIES: Record<string, unknown> = Object.freeze({});

/** RefSet's behaviour, with a Set and Map of its own made before the first `add`. */
const LEAN_REF_SET: RefSet<never> = Object.create(RefSet.prototype, {
  add: {
    value(this: Fields, ref: unknown): void {
      if (this.set === NO_REFS) this.set = new Set(), this.map = new Map();
      RefSet.prototype.add.call(this, ref as never);
    },
  },
});

/** RefMap's behaviour, with an object of its own made before the first `set`. */
const LEAN_REF_MAP: RefMap<never> = Object.create(RefMap.prototype, {
  set: {
    value(this: MapFields, key: string, child: unknown): void {
      if (this.map === NO_ENTRIES) this.map = {};
      RefMap.prototype.set.call(this, key, child as never);
    },
  },
});

/**
 * Replaces `prop`'s empty immutable-key set, empty RefSets and empty RefMaps by shared ones that
 * take their own storage when first added to (see the module doc). For a property just made by a
 * copy, which nothing else holds yet; any other collection, or another release of glTF-Transform,
 * is left as it is.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { leanRefs } from "./lean_refs.ts";
 *
 * const doc = new Document();
 * const node = doc.createNode("leaf");
 * leanRefs(node);
 * node.addChild(doc.createNode("child")); // the node takes its own children's set here
 * ```
 */
export function leanRefs(prop: Property): void {
  if (!ENABLED) return;
  const self = prop as unknown as Internals;
  if ((self[IMMUTABLE_KEYS!] as Set<string>).size === 0) self[IMMUTABLE_KEYS!] = NO_KEYS;
  const attributes = self[ATTRIBUTES!] as Record<string, unknown>;
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value !== "object" || value === null) continue;
    const proto = Object.getPrototypeOf(value);
    if (proto === RefSet.prototype && (value as unknown as Fields).set.size === 0) {
      const lean: Fields = Object.create(LEAN_REF_SET);
      lean.set = NO_REFS, lean.map = NO_CHILDREN;
      attributes[key] = lean;
    } else if (proto === RefMap.prototype && isEmpty((value as unknown as MapFields).map)) {
      const lean: MapFields = Object.create(LEAN_REF_MAP);
      lean.map = NO_ENTRIES;
      attributes[key] = lean;
    }
  }
}

/**
 * {@link leanRefs} on every property a document just read holds (what its root lists, and each
 * mesh's primitives): a glTF-Transform reader makes each node with collections of its own as a copy
 * does, ~540 of the ~1,750 bytes a bare node holds, and a decoded scene is held from its decode to
 * its export. Only for a document nothing else has seen yet.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { leanDocument } from "./lean_refs.ts";
 *
 * const doc = new Document(); // in practice: what a reader just returned
 * doc.createScene("s").addChild(doc.createNode("leaf"));
 * leanDocument(doc);
 * ```
 */
export function leanDocument(doc: Document): void {
  if (!ENABLED) return;
  const root = doc.getRoot();
  for (const node of root.listNodes()) leanRefs(node);
  for (const mesh of root.listMeshes()) {
    leanRefs(mesh);
    for (const primitive of mesh.listPrimitives()) leanRefs(primitive);
  }
  for (const accessor of root.listAccessors()) leanRefs(accessor);
  for (const material of root.listMaterials()) leanRefs(material);
  for (const scene of root.listScenes()) leanRefs(scene);
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}
