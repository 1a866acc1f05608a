/**
 * Which copy a Blender-numbered object belongs to, when the numbers do not say (`copies.ts`). Blender
 * names a duplicate by the next free suffix: an original drawn with its ailerons in two pieces
 * (`Aileron_L`, `Aileron_L.001`: separated by material) duplicates as `Aileron_L.002`/`.003` beside
 * `Fuselage.001`, so the `.001` copy holds the original's second aileron piece and the `.002` and
 * `.003` ailerons belong to no copy. An object lying over another of its name (a piece of one surface),
 * or numbered into no copy, goes to the copy whose other objects' box holds its middle. So does an
 * object whose repeated name put it in a copy by its order alone ({@link settleRepeated}: two modellers'
 * aircraft sharing one English `Rudder` among German names, the second `Rudder` read as the second
 * aircraft's) where it lies in another copy and not its own.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { subtreeNodes } from "./geometry.ts";
import { IDENTITY } from "./transform.ts";
import { copyMark } from "./copy_names.ts";
import type { ModelCopy } from "./copies.ts";
import { type Bounds, type BoundsCache, meshBounds } from "./mesh_bounds.ts";

/** Blender's duplicate suffix, taken off to name the object's family. */
const DUPLICATE = /\.\d{3}$/;

/** True when boxes overlap on every axis by at least half the narrower one (one surface's pieces). */
export function overlaying(a: Bounds, b: Bounds): boolean {
  return [0, 1, 2].every((k) =>
    Math.min(a.max[k], b.max[k]) - Math.max(a.min[k], b.min[k]) >=
      0.5 * Math.min(a.max[k] - a.min[k], b.max[k] - b.min[k])
  );
}

const holds = (box: Bounds, p: readonly number[]) =>
  [0, 1, 2].every((k) => box.min[k] <= p[k] && p[k] <= box.max[k]);

/**
 * `copies` (found by name marks among `nodes`) with Blender-numbered objects settled by place: see the
 * module doc. Copies keep their labels and order; an object whose middle no copy's box holds, or two
 * do, stays where its name put it.
 */
export function settleNumbered(copies: ModelCopy[], nodes: readonly Node[]): ModelCopy[] {
  const numbered = nodes.filter((n) =>
    n.getMesh() && (!copyMark(n.getName()) || DUPLICATE.test(n.getName()))
  );
  if (!numbered.some((n) => DUPLICATE.test(n.getName()))) return copies;
  const cache: BoundsCache = new Map();
  const boxes = new Map<Node, Bounds>();
  const families = new Map<string, Node[]>();
  for (const node of numbered) {
    const box = meshBounds([node], IDENTITY, cache);
    if (!box) continue;
    boxes.set(node, box);
    const family = node.getName().replace(DUPLICATE, "");
    families.set(family, [...families.get(family) ?? [], node]);
  }
  const copyOf = new Map<Node, number>();
  copies.forEach((copy, i) => copy.nodes.forEach((n) => copyOf.set(n, i)));
  const unsettled = new Set<Node>();
  for (const family of families.values()) {
    for (const node of family) {
      const box = boxes.get(node)!;
      const piece = family.some((other) => other !== node && overlaying(box, boxes.get(other)!));
      if (piece || (!copyOf.has(node) && DUPLICATE.test(node.getName()))) unsettled.add(node);
    }
  }
  return moved(copies, unsettled, boxes, copyOf, cache, () => true);
}

/**
 * `copies` read by names merely repeated (the first of each name one copy, the second another) with
 * each drawn object settled by place: one whose middle its own copy's other objects' box does not hold
 * (or in no copy) goes to the one copy whose box does. Copies drawn at one place (each box holding
 * every middle) are left as named.
 */
export function settleRepeated(copies: ModelCopy[], nodes: readonly Node[]): ModelCopy[] {
  const cache: BoundsCache = new Map();
  const boxes = new Map<Node, Bounds>();
  for (const node of nodes) {
    const box = node.getMesh() ? meshBounds([node], IDENTITY, cache) : undefined;
    if (box) boxes.set(node, box);
  }
  const copyOf = new Map<Node, number>();
  copies.forEach((copy, i) => copy.nodes.forEach((n) => copyOf.set(n, i)));
  // Each object is weighed against its copy's box without it: the boxes are taken without all of them
  // that lie outside their own copy's box made of the others.
  const outside = new Set<Node>();
  for (const [node, box] of boxes) {
    const own = copyOf.get(node);
    const middle = [0, 1, 2].map((k) => (box.min[k] + box.max[k]) / 2);
    const rest = own === undefined
      ? undefined
      : meshBounds([...copies[own].nodes].filter((n) => n !== node && boxes.has(n)), IDENTITY, cache);
    if (!rest || !holds(rest, middle)) outside.add(node);
  }
  if (!outside.size) return copies;
  return moved(copies, outside, boxes, copyOf, cache, (home, from) => home !== from);
}

/**
 * `copies` with each of `unsettled` (and all under it) moved to the one copy whose box, made of its
 * objects not unsettled, holds its middle, where `accept(home, from)` allows.
 */
function moved(
  copies: ModelCopy[],
  unsettled: ReadonlySet<Node>,
  boxes: ReadonlyMap<Node, Bounds>,
  copyOf: ReadonlyMap<Node, number>,
  cache: BoundsCache,
  accept: (home: number, from: number | undefined) => boolean,
): ModelCopy[] {
  const held = copies.map((copy) =>
    meshBounds([...copy.nodes].filter((n) => !unsettled.has(n)), IDENTITY, cache)
  );
  const members = copies.map((copy) => new Set(copy.nodes));
  for (const node of unsettled) {
    const box = boxes.get(node)!;
    const middle = [0, 1, 2].map((k) => (box.min[k] + box.max[k]) / 2);
    const homes = held.flatMap((b, i) => b && holds(b, middle) ? [i] : []);
    if (homes.length !== 1 || !accept(homes[0], copyOf.get(node))) continue;
    for (const n of subtreeNodes(node)) {
      const from = copyOf.get(n);
      if (from !== undefined) members[from].delete(n);
      members[homes[0]].add(n);
    }
  }
  return copies.map((copy, i) => ({ label: copy.label, nodes: members[i] }));
}
