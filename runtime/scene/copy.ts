/**
 * Deep copy of a scene, so nodes can change a copy and leave their (immutable) input untouched —
 * or, through {@link sceneToChange}, change the input itself when the run says they own it.
 *
 * The rule for arrays: a node that owns a scene (`ctx.owns`) may change its properties, extras and
 * hierarchy in place, and add or drop accessors, but never write into a typed array it did not
 * allocate — accessor arrays may be shared with other scenes through `shareData` copies, which no
 * ownership covers. A node that writes vertex data gives the accessor a new array (or works on a full
 * copy, as `export.gltf`'s repair does).
 *
 * Images are stricter: no node writes into a texture's image bytes, owned or not, copy or not (a node
 * that changes a picture gives the texture new bytes with `setImage`). Every copy shares them with its
 * source, and `png.ts` hands the same PNG to every scene that encodes the same pixels; what is known
 * of an array by its identity (`png_data_size.ts`: a PNG written at its header's size) then holds for
 * every scene that has it.
 *
 * @module
 */
import {
  type Accessor,
  Document,
  type Property,
  PropertyType,
  type Texture,
  type TypedArray,
} from "@gltf-transform/core";
import { setArrayQuietly } from "./accessors.ts";
import { ATTRIBUTES } from "./graph_internals.ts";
import { leanRefs } from "./lean_refs.ts";
import { copyProperty } from "./property_copy.ts";
import { extrasOf, forEachProperty } from "./graph_props.ts";

/** Options of {@link copyScene}. */
export interface CopyOptions {
  /**
   * Share vertex data (accessor arrays) with the source instead of copying it. Only for nodes that
   * never write into a typed array — that change names, extras, transforms or the hierarchy, like
   * the rig nodes: values are immutable, so the shared arrays stay as they are, and a pipeline of
   * such nodes no longer copies every vertex at every step. Default false. (Texture images are
   * shared either way.)
   */
  readonly shareData?: boolean;
}

/**
 * The scene a node that changes only properties, extras or the hierarchy works on: `scene` itself
 * when the node owns it (`ctx.owns(input)`: nothing else will see it again), else a copy that shares
 * its vertex data. Either way the node must not write into the scene's typed arrays.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { sceneToChange } from "./copy.ts";
 *
 * const input = new Document();
 * input.createScene("s").addChild(input.createNode("wing"));
 * const owned = false; // in a node: ctx.owns("scene")
 * const scene = sceneToChange(input, owned);
 * scene.getRoot().listNodes()[0].setName("changed"); // not owned: a copy changed, the input kept
 * ```
 */
export function sceneToChange(scene: Document, owned: boolean): Document {
  return owned ? scene : copyScene(scene, { shareData: true });
}

/**
 * Gives every property's extras the form a copy gives them (glTF-Transform copies plain objects
 * through JSON), so a node working on a scene it owns reads what it would read in a copy, or in a
 * scene from the disk cache: `-0` as `0`, `NaN` as `null`, no `undefined` keys, no object shared by
 * two properties. The runtime does this as it hands a scene to its owner (`ctx.owns`); extras that
 * JSON would keep as they are (nearly all) are left alone rather than cloned.
 */
export function settleExtras(doc: Document): void {
  const seen = new Set<object>();
  // Each property once, without a list of every edge (setting extras makes or drops no edge).
  forEachProperty(doc, (prop) => {
    const extras: unknown = extrasOf(prop);
    if (Array.isArray(extras)) prop.setExtras(extras.slice() as never); // as Property.copy does
    else if (extras && typeof extras === "object" && !survivesJson(extras, seen)) {
      const nulled = nonFinitePlaces(extras);
      prop.setExtras(JSON.parse(JSON.stringify(extras)));
      if (nulled.length) NULLED.set(prop, [...NULLED.get(prop) ?? [], ...nulled]);
    }
  });
}

/** A place inside a property's extras: the keys and indices under `extras`. */
export type ExtrasPlace = readonly (string | number)[];

/**
 * The places of each property whose NaN or ±Infinity a copy or {@link settleExtras} wrote `null`, as
 * JSON does: remembered for `export.gltf` to name (it warns of such numbers, which the file cannot
 * hold), whatever copies the scene went through on the way. A scene read from the disk cache was
 * written as JSON: it holds the nulls, and the cache's record of them (`nulled_record.ts`) is given
 * back to it.
 */
const NULLED = new WeakMap<Property, readonly ExtrasPlace[]>();

/**
 * The places of `prop`'s extras where a copy or a settle turned NaN or ±Infinity into `null` (see
 * {@link NULLED}); a node may have written another value there since.
 */
export function nulledExtras(prop: Property): readonly ExtrasPlace[] {
  return NULLED.get(prop) ?? [];
}

/**
 * Adds `places` to what {@link nulledExtras} gives for `prop`: the disk cache's record of a scene it
 * stored (`nulled_record.ts`), given back to the scene it reads, whose extras hold the nulls.
 */
export function rememberNulled(prop: Property, places: readonly ExtrasPlace[]): void {
  if (places.length) NULLED.set(prop, [...NULLED.get(prop) ?? [], ...places]);
}

/**
 * Whether `value` holds NaN or ±Infinity anywhere: the quick pass every copy makes of every extras
 * (`x - x` is 0 for a finite number only), paths worked out only for the rare extras that do.
 */
function holdsNonFinite(value: unknown): boolean {
  if (typeof value === "number") return value - value !== 0;
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === "number" ? item - item !== 0 : typeof item === "object" && holdsNonFinite(item)) {
        return true;
      }
    }
    return false;
  }
  for (const key in value) if (holdsNonFinite((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** The places under `value` (a property's extras) holding a number that is not finite. */
export function nonFinitePlaces(value: unknown): ExtrasPlace[] {
  const places: ExtrasPlace[] = [];
  if (!holdsNonFinite(value)) return places;
  // One path, pushed and popped: a walk of extras that hold no such number (nearly all) allocates nothing.
  const at: (string | number)[] = [];
  const visit = (item: unknown): void => {
    if (typeof item === "number") {
      if (!Number.isFinite(item)) places.push(at.slice());
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        at.push(i);
        visit(item[i]);
        at.pop();
      }
    } else if (item && typeof item === "object") {
      for (const key in item) {
        at.push(key);
        visit((item as Record<string, unknown>)[key]);
        at.pop();
      }
    }
  };
  visit(value);
  return places;
}

/** True when a JSON round trip gives `value` back as it is, and no part of it is in `seen` (shared). */
function survivesJson(value: unknown, seen: Set<object>): boolean {
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value === "string" || typeof value === "boolean" || value === null) return true;
  if (typeof value !== "object") return false; // undefined, functions, symbols, bigints
  if (seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !survivesJson(value[i], seen)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false; // a Map, a typed array, toJSON …
  for (const key in value) if (!survivesJson((value as Record<string, unknown>)[key], seen)) return false;
  return true;
}

/**
 * Returns an independent copy of a document: every property, extension, extras and buffer; texture
 * images are shared with `source`, as no node writes into them (see the module's rule).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { copyScene } from "./copy.ts";
 *
 * const input = new Document();
 * input.createScene("s").addChild(input.createNode("wing"));
 * const mine = copyScene(input);
 * mine.getRoot().listNodes()[0].setName("changed"); // the input keeps its name
 * ```
 */
export function copyScene(source: Document, options: CopyOptions = {}): Document {
  // glTF-Transform copies arrays as it copies accessors and textures; detach the arrays the copy
  // shares (vertex data with `shareData`, images always: see the module's rule), then hand the same
  // arrays to both documents. Nothing else can observe the source meanwhile (synchronous), so the
  // arrays move without the setters' events.
  const accessors = options.shareData ? source.getRoot().listAccessors() : [];
  const textures = source.getRoot().listTextures();
  const arrays: (TypedArray | null)[] = [];
  const images: (Uint8Array | null)[] = [];
  for (const accessor of accessors) {
    arrays.push(accessor.getArray());
    setArrayQuietly(accessor, null);
  }
  for (const texture of textures) {
    images.push(texture.getImage());
    setImageQuietly(texture, null);
  }
  let copied: ReturnType<typeof copyAll> | undefined;
  try {
    copied = copyAll(source);
  } finally {
    for (let i = 0; i < accessors.length; i++) {
      setArrayQuietly(accessors[i], arrays[i]);
      const copy = copied?.map.get(accessors[i]) as Accessor | undefined;
      if (copy) setArrayQuietly(copy, arrays[i]);
    }
    for (let i = 0; i < textures.length; i++) {
      setImageQuietly(textures[i], images[i]);
      const copy = copied?.map.get(textures[i]) as Texture | undefined;
      if (copy) setImageQuietly(copy, images[i]);
    }
  }
  return copied!.target;
}

/** `texture.setImage(image)` without its change event, where glTF-Transform's attribute store is found. */
function setImageQuietly(texture: Texture, image: Uint8Array | null): void {
  const store = ATTRIBUTES && (texture as unknown as Record<symbol, { image?: unknown }>)[ATTRIBUTES];
  if (store && "image" in store) store.image = image;
  else texture.setImage(image as Uint8Array);
}

/**
 * The copy itself, in small functions: with the constructors and `copy` methods of every property
 * class inlined into one loop, TurboFan took 100–140 ms to compile it in a process that copies a few
 * dozen scenes.
 */
function copyAll(source: Document): { target: Document; map: Map<Property, Property> } {
  const target = new Document().setLogger(source.getLogger());
  for (const extension of source.getRoot().listExtensionsUsed()) {
    // deno-lint-ignore no-explicit-any
    const copy = target.createExtension(extension.constructor as any);
    if (extension.isRequired()) copy.setRequired(true);
  }
  const map = new Map<Property, Property>([[source.getRoot(), target.getRoot()]]);
  const resolve = resolverInto(target, map);
  const pairs = pairsInEdgeOrder(source, resolve, map);
  for (let i = 0; i < pairs.length; i += 2) {
    copyProperty(pairs[i], pairs[i + 1], resolve, true); // each made by `resolve`, set only here
    // Empty collections shared until first added to: a third of what a copied leaf node held.
    leanRefs(pairs[i + 1]);
  }
  target.getRoot().copy(source.getRoot(), resolve);
  // glTF-Transform copies extras through JSON: NaN and ±Infinity come out null, remembered (NULLED).
  pairs.push(source.getRoot(), target.getRoot());
  for (let i = 0; i < pairs.length; i += 2) {
    const extras = pairs[i].getExtras();
    const earlier = NULLED.get(pairs[i]);
    if (!earlier && (!extras || typeof extras !== "object")) continue;
    const nulled = [...earlier ?? [], ...nonFinitePlaces(extras)];
    if (nulled.length) NULLED.set(pairs[i + 1], nulled);
  }
  return { target, map };
}

type Resolve = <T extends Property>(prop: T) => T;

/** Maps a source property to its copy in `target`, created on first use (texture infos map to themselves). */
function resolverInto(target: Document, map: Map<Property, Property>): Resolve {
  const graph = target.getGraph();
  return <T extends Property>(prop: T): T => {
    if (prop.propertyType === PropertyType.TEXTURE_INFO) return prop;
    let mapped = map.get(prop);
    if (!mapped) {
      const Ctor = prop.constructor as new (graph: unknown) => Property;
      mapped = new Ctor(graph);
      map.set(prop, mapped);
    }
    return mapped as T;
  };
}

/**
 * Source and copy of every property but texture infos, flat (`[from, to, from, to, …]`), created in
 * the source's edge order, so copies serialise identically.
 */
function pairsInEdgeOrder(source: Document, resolve: Resolve, map: Map<Property, Property>): Property[] {
  // The resolver's map says which are paired already (it holds only the root besides, never a child): no
  // set of every property beside it, 1,000,000 entries held at a copy's peak on a million-node file.
  const pairs: Property[] = [];
  for (const edge of source.getGraph().listEdges()) {
    const prop = edge.getChild() as Property;
    if (prop.propertyType !== PropertyType.TEXTURE_INFO && !map.has(prop)) pairs.push(prop, resolve(prop));
  }
  return pairs;
}
