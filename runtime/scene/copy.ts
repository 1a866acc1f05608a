/**
 * Deep copy of a scene, so nodes can change a copy and leave their (immutable) input untouched.
 *
 * @module
 */
import { type Accessor, Document, type Property, PropertyType, type TypedArray } from "@gltf-transform/core";

/** Options of {@link copyScene}. */
export interface CopyOptions {
  /**
   * Share vertex data (accessor arrays) with the source instead of copying it. Only for nodes that
   * never write into a typed array — that change names, extras, transforms or the hierarchy, like
   * the rig nodes: values are immutable, so the shared arrays stay as they are, and a pipeline of
   * such nodes no longer copies every vertex at every step. Default false.
   */
  readonly shareData?: boolean;
}

/**
 * Returns an independent copy of a document: every property, extension, extras and buffer.
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
  if (!options.shareData) return copyAll(source).target;
  // glTF-Transform copies arrays as it copies accessors; detach them for the copy, then hand the
  // same arrays to both documents. Nothing else can observe the source meanwhile (synchronous).
  const arrays = source.getRoot().listAccessors().map((accessor) => [accessor, accessor.getArray()] as const);
  for (const [accessor] of arrays) accessor.setArray(null);
  let copied: ReturnType<typeof copyAll> | undefined;
  try {
    copied = copyAll(source);
  } finally {
    for (const [accessor, array] of arrays) {
      accessor.setArray(array as TypedArray | null);
      (copied?.map.get(accessor) as Accessor | undefined)?.setArray(array as TypedArray | null);
    }
  }
  return copied!.target;
}

function copyAll(source: Document): { target: Document; map: Map<Property, Property> } {
  const target = new Document().setLogger(source.getLogger());
  for (const extension of source.getRoot().listExtensionsUsed()) {
    // deno-lint-ignore no-explicit-any
    const copy = target.createExtension(extension.constructor as any);
    if (extension.isRequired()) copy.setRequired(true);
  }
  const map = new Map<Property, Property>([[source.getRoot(), target.getRoot()]]);
  const resolve = <T extends Property>(prop: T): T => {
    if (prop.propertyType === PropertyType.TEXTURE_INFO) return prop;
    let mapped = map.get(prop);
    if (!mapped) {
      const Ctor = prop.constructor as new (graph: unknown) => Property;
      mapped = new Ctor(target.getGraph());
      map.set(prop, mapped);
    }
    return mapped as T;
  };
  // Creation order follows the source's edge order, so copies serialise identically.
  const props = new Set<Property>();
  for (const edge of source.getGraph().listEdges()) props.add(edge.getChild() as Property);
  const pairs: [Property, Property][] = [];
  for (const prop of props) {
    if (prop.propertyType !== PropertyType.TEXTURE_INFO) pairs.push([prop, resolve(prop)]);
  }
  for (const [from, to] of pairs) to.copy(from, resolve);
  target.getRoot().copy(source.getRoot(), resolve);
  return { target, map };
}
