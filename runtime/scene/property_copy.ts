/**
 * `Property.copy` of glTF-Transform 4.5.1 for the copies `copyScene` makes, with its per-attribute
 * tests cheaper where the outcome is known: a literal value (string, number, boolean, null) is
 * assigned at once, where glTF-Transform first asks whether it is a graph edge, a ref list, set or
 * map, a plain object (`Object.prototype.toString` on it), an array or a buffer — the same answer
 * every time, so the same result. Objects go through exactly glTF-Transform's steps, in its order
 * (an empty plain object, as most extras are, becomes `{}` without its JSON round trip).
 * On a scene of 19k properties the generic tests were a third of the copy.
 *
 * Used only where glTF-Transform's own `copy` is that generic one (or Node's and Scene's, which add
 * only a refusal of the identity resolver), on the release it was read from, and where its attribute
 * stores are found; anything else calls the property's own `copy`.
 *
 * @module
 */
import {
  GraphEdge,
  Node,
  Property,
  type PropertyResolver,
  RefList,
  RefMap,
  RefSet,
  Scene,
  VERSION,
} from "@gltf-transform/core";
import { ATTRIBUTES, IMMUTABLE_KEYS } from "./graph_internals.ts";

/** The `copy` methods whose behaviour {@link copyProperty} reproduces. */
const GENERIC_COPIES: ReadonlySet<unknown> = new Set([
  Property.prototype.copy,
  Node.prototype.copy,
  Scene.prototype.copy,
]);
const ENABLED = VERSION === "v4.5.1" && ATTRIBUTES !== undefined && IMMUTABLE_KEYS !== undefined;

// deno-lint-ignore no-explicit-any
type Internals = Record<symbol, any> & Record<string, any>;

/**
 * `to.copy(from, resolve)`, faster on literal attributes. `resolve` must not be the identity
 * resolver (Node and Scene refuse it). `fresh`: `to` was just made and nothing has been set on it
 * yet (it holds no references to remove).
 *
 * @example
 * ```ts ignore
 * copyProperty(from, new (from.constructor as any)(target.getGraph()), resolve);
 * ```
 */
export function copyProperty(
  from: Property,
  to: Property,
  resolve: PropertyResolver<Property>,
  fresh = false,
): void {
  if (!ENABLED || !GENERIC_COPIES.has(to.copy)) {
    to.copy(from, resolve);
    return;
  }
  const self = to as unknown as Internals, other = from as unknown as Internals;
  const mine = self[ATTRIBUTES!], theirs = other[ATTRIBUTES!], immutable: Set<string> = self[IMMUTABLE_KEYS!];
  // Remove previous references: a property just made holds none but its immutable ones, which stay
  // (a scene copy's, `fresh`, skip the look: two collections listed a node for nothing).
  if (!fresh) removeReferences(mine, immutable);
  // Add new references and values.
  for (const key in theirs) {
    const otherValue = theirs[key];
    if (typeof otherValue !== "object" || otherValue === null) {
      mine[key] = otherValue; // glTF-Transform's last branch, the one every literal reaches
    } else if (otherValue instanceof GraphEdge) {
      if (immutable.has(key)) mine[key].getChild().copy(resolve(otherValue.getChild()), resolve);
      else self.setRef(key, resolve(otherValue.getChild() as Property), otherValue.getAttributes());
    } else if (otherValue instanceof RefSet || otherValue instanceof RefList) {
      for (const ref of otherValue.values()) self.addRef(key, resolve(ref.getChild()), ref.getAttributes());
    } else if (otherValue instanceof RefMap) {
      for (const subkey of otherValue.keys()) {
        const ref = otherValue.get(subkey)!;
        self.setRefMap(key, subkey, resolve(ref.getChild()), ref.getAttributes());
      }
    } else if (isPlainObject(otherValue)) {
      // Most extras are `{}`, whose JSON round trip is a new `{}`.
      mine[key] = isEmptyForJson(otherValue) ? {} : JSON.parse(JSON.stringify(otherValue));
    } else if (
      Array.isArray(otherValue) || otherValue instanceof ArrayBuffer || ArrayBuffer.isView(otherValue)
    ) {
      mine[key] = (otherValue as Uint8Array).slice();
    } else {
      mine[key] = otherValue;
    }
  }
}

/** Disposes the edges of `mine` (a property's attributes) but its immutable ones, as `copy` first does. */
function removeReferences(mine: Internals, immutable: Set<string>): void {
  for (const key in mine) {
    const value = mine[key];
    if (value instanceof GraphEdge) {
      if (!immutable.has(key)) value.dispose();
    } else if (value instanceof RefList || value instanceof RefSet) {
      for (const ref of value.values()) ref.dispose();
    } else if (value instanceof RefMap) {
      for (const ref of value.values()) ref.dispose();
    }
  }
}

/**
 * True when `JSON.stringify` gives `"{}"` for a plain object: no enumerable key (own or inherited,
 * to be safe) and no `toJSON` (own, even non-enumerable, or inherited).
 */
function isEmptyForJson(o: object): boolean {
  for (const _ in o) return false;
  return (o as { toJSON?: unknown }).toJSON === undefined;
}

/** glTF-Transform's `isPlainObject` (after jonschlinkert/is-plain-object), for objects. */
function isPlainObject(o: object): boolean {
  if (Object.prototype.toString.call(o) !== "[object Object]") return false;
  const ctor = (o as { constructor?: { prototype?: unknown } }).constructor;
  if (ctor === undefined) return true;
  const prot = ctor.prototype;
  if (Object.prototype.toString.call(prot) !== "[object Object]") return false;
  return Object.hasOwn(prot as object, "isPrototypeOf");
}
