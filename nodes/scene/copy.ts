/**
 * Deep copy of a scene, so nodes can change a copy and leave their (immutable) input untouched.
 *
 * @module
 */
import { Document, type Property, PropertyType } from "@gltf-transform/core";

/**
 * Returns an independent copy of a document: every property, extension, extras and buffer.
 *
 * @example
 * ```ts
 * const mine = copyScene(inputs.scene);
 * mine.getRoot().listNodes()[0].setName("changed"); // the input keeps its name
 * ```
 */
export function copyScene(source: Document): Document {
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
  return target;
}
