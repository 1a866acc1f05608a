/**
 * One look for copies per scene (`copies.ts`): `rig.fit_hinge`, `rig.assign_side` and the `"auto"` frame
 * each asked for the aircraft in the scene, and on 20,000 small panels each look cost ~0.6 s. The three
 * nodes never share a `Document` (each changes a copy), but they share its vertex arrays (`copyScene`'s
 * `shareData`; values are immutable, so a shared array never changes). A look is remembered under a
 * fingerprint of everything it reads — the scene's node tree in order, each node's name and transform,
 * and each drawn primitive's position array (by identity) with how it is read — held against the first
 * of those arrays; any change to a name, a transform, the tree or an array gives another fingerprint, so
 * a remembered answer is never stale. The answer is kept as node positions in the tree and handed back
 * as the asking scene's own nodes.
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import type { ModelCopy } from "./copies.ts";

/** What a look reads of a scene, node by node in tree order (see the module doc). */
interface Fingerprint {
  readonly names: string[];
  /** Each node's parent's position in the tree, -1 at the top. */
  readonly parents: Int32Array;
  /** Each node's translation, rotation and scale (10 numbers). */
  readonly places: Float64Array;
  /** Each node's drawn position arrays (by id) with how they are read; "" when it draws nothing. */
  readonly drawn: string[];
}

/** A remembered look: its fingerprint, and each copy's label and its nodes' positions in the tree. */
interface Remembered {
  readonly seen: Fingerprint;
  readonly copies: { label: string; at: number[]; untold?: boolean | "kinds" }[] | undefined;
}

/** Looks remembered against one array, at most (a few fingerprints per run). */
const KEPT = 4;

const arrayIds = new WeakMap<object, number>();
let nextArrayId = 1;
const looks = new WeakMap<object, Remembered[]>();

function same(a: Fingerprint, b: Fingerprint): boolean {
  const n = a.names.length;
  if (b.names.length !== n) return false;
  for (let i = 0; i < n; i++) {
    if (a.names[i] !== b.names[i] || a.parents[i] !== b.parents[i] || a.drawn[i] !== b.drawn[i]) return false;
  }
  // Object.is: `-0` apart from `0` (a mirrored axis's sign reaches the boxes), NaN equal to itself.
  for (let i = 0; i < a.places.length; i++) if (!Object.is(a.places[i], b.places[i])) return false;
  return true;
}

/**
 * `look(doc)`, remembered for scenes of the same tree, names, transforms and vertex arrays (see the module
 * doc); scenes drawing nothing are looked at every time (there is no array to hold the look against).
 */
export function rememberedCopies(
  doc: Document,
  look: (doc: Document) => ModelCopy[] | undefined,
): ModelCopy[] | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return look(doc);
  const { nodes, parents } = walk(scene.listChildren());
  const index = new Map<Node, number>();
  nodes.forEach((n, i) => index.has(n) || index.set(n, i));
  let anchor: object | undefined;
  // A mesh drawn by many nodes is read once (its arrays cannot change during the walk).
  const meshes = new Map<Mesh, string>();
  const seen: Fingerprint = {
    names: [],
    parents: new Int32Array(nodes.length),
    places: new Float64Array(nodes.length * 10),
    drawn: [],
  };
  nodes.forEach((node, i) => {
    seen.names.push(node.getName());
    seen.parents[i] = parents[i];
    seen.places.set(node.getTranslation(), i * 10);
    seen.places.set(node.getRotation(), i * 10 + 3);
    seen.places.set(node.getScale(), i * 10 + 7);
    const mesh = node.getMesh();
    let drawn = mesh ? meshes.get(mesh) : "";
    if (drawn === undefined) {
      drawn = mesh!.listPrimitives().map((p) => {
        const a = p.getAttribute("POSITION");
        const array = a?.getArray();
        if (!a || !array) return "-";
        anchor ??= array;
        if (!arrayIds.has(array)) arrayIds.set(array, nextArrayId++);
        return `${
          arrayIds.get(array)
        }:${a.getType()}:${a.getComponentType()}:${a.getNormalized()}:${a.getCount()}`;
      }).join(";");
      meshes.set(mesh!, drawn);
    }
    seen.drawn.push(drawn);
  });
  if (!anchor) return look(doc);
  const kept = looks.get(anchor) ?? looks.set(anchor, []).get(anchor)!;
  const hit = kept.find((r) => same(r.seen, seen));
  if (hit) {
    return hit.copies?.map(({ label, at, untold }) => ({
      label,
      nodes: new Set(at.map((i) => nodes[i])),
      ...untold ? { untold } : {},
    }));
  }
  const copies = look(doc);
  // Every node of a copy lies in the tree walked; were one not to, the look is not remembered.
  if (copies?.some((c) => [...c.nodes].some((n) => !index.has(n)))) return copies;
  if (kept.length >= KEPT) kept.shift();
  kept.push({
    seen,
    copies: copies?.map(({ label, nodes, untold }) => ({
      label,
      at: [...nodes].map((n) => index.get(n)!),
      untold,
    })),
  });
  return copies;
}

/**
 * The nodes under `tops` in the order of `geometry.ts`'s `subtreeNodes` (depth first, child order), each
 * with its parent's position in that order (-1 at the top): the parent a node's `getParentNode` gives,
 * read off the walk, where asking each of 30,000 nodes listed its parent edges anew.
 */
function walk(tops: readonly Node[]): { nodes: Node[]; parents: Int32Array } {
  const nodes: Node[] = [], parentOf: number[] = [];
  const stack: Node[] = [], from: number[] = [];
  for (const top of tops) {
    stack.push(top), from.push(-1);
    while (stack.length) {
      const node = stack.pop()!, parent = from.pop()!;
      const at = nodes.push(node) - 1;
      parentOf.push(parent);
      const children = node.listChildren();
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]), from.push(at);
    }
  }
  return { nodes, parents: Int32Array.from(parentOf) };
}
