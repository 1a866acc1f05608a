/**
 * Turning one panel node into a left and a right one: the node keeps the left half (renamed
 * `<name>_L`) and a new sibling `<name>_R` with the same transform, animation, extras and materials takes the
 * right — what {@link splitTwoPieceMesh} (separate pieces) and {@link splitAtCentrePlane} (one piece
 * cut at the plane of symmetry) share.
 *
 * @module
 */
import type { Document, Mesh, Node, Primitive, TypedArray } from "@gltf-transform/core";
import { copyChannels } from "./panel_animation.ts";

/** glTF primitive mode of a triangle list. */
export const TRIANGLES = 4;

/** Left and right halves of a panel's mesh, one primitive per source primitive that has any. */
export interface MeshHalves {
  readonly left: Mesh;
  readonly right: Mesh;
}

/** Two new meshes named after `mesh` (`_L`, `_R`), each with a copy of its extras. */
export function emptyHalves(doc: Document, mesh: Mesh): MeshHalves {
  return {
    left: doc.createMesh(`${mesh.getName()}_L`).setExtras({ ...mesh.getExtras() }),
    right: doc.createMesh(`${mesh.getName()}_R`).setExtras({ ...mesh.getExtras() }),
  };
}

/**
 * Gives `node` the left half (renamed `<name>_L`) and a new sibling `<name>_R` the right one, with
 * the node's transform, animation channels and a copy of its extras; returns the new node.
 */
export function splitNodeInTwo(doc: Document, node: Node, halves: MeshHalves): Node {
  const name = node.getName();
  const right = doc.createNode(`${name}_R`)
    .setTranslation(node.getTranslation())
    .setRotation(node.getRotation())
    .setScale(node.getScale())
    .setExtras(structuredClone(node.getExtras()))
    .setMesh(halves.right);
  const parent = node.getParentNode();
  if (parent) parent.addChild(right);
  else {
    for (const scene of doc.getRoot().listScenes()) {
      if (scene.listChildren().includes(node)) scene.addChild(right);
    }
  }
  node.setName(`${name}_L`).setMesh(halves.left);
  copyChannels(doc, node, right);
  return right;
}

/**
 * A triangle-list copy of `primitive` (material kept) holding only the vertices `list`'s triangles
 * use, compacted; `arrays` gives each attribute's values (the primitive's own, or extended with new
 * vertices), keyed by semantic.
 */
export function primitiveFromList(
  doc: Document,
  primitive: Primitive,
  arrays: ReadonlyMap<string, TypedArray>,
  list: readonly number[],
): Primitive {
  const copy = doc.createPrimitive().setMode(TRIANGLES).setMaterial(primitive.getMaterial());
  const keep = [...new Set(list)].sort((a, b) => a - b);
  const renumber = new Map(keep.map((old, i) => [old, i]));
  const buffer = primitive.getAttribute("POSITION")!.getBuffer() ?? doc.getRoot().listBuffers()[0];
  for (const semantic of primitive.listSemantics()) {
    const source = primitive.getAttribute(semantic)!;
    const array = arrays.get(semantic)!;
    const size = source.getElementSize();
    const out = new (array.constructor as new (n: number) => TypedArray)(keep.length * size);
    keep.forEach((old, i) => out.set(array.subarray(old * size, old * size + size), i * size));
    copy.setAttribute(
      semantic,
      doc.createAccessor(source.getName(), buffer).setType(source.getType()).setArray(out)
        .setNormalized(source.getNormalized()),
    );
  }
  const indices = doc.createAccessor(undefined, buffer).setType("SCALAR")
    .setArray(new Uint32Array(list.map((i) => renumber.get(i)!)));
  return copy.setIndices(indices);
}

/**
 * Why a panel node's mesh cannot be split in two safely, or undefined when it can. With `guides`, a
 * primitive of lines or points beside its triangles (Blender's loose edges, a modeller's guide) does
 * not stop it: the caller keeps such primitives whole on one half.
 */
export function whyNotSplittable(node: Node, options: { guides?: boolean } = {}): string | undefined {
  if (node.listChildren().length) return "it has child nodes";
  const primitives = node.getMesh()!.listPrimitives();
  const guide = (p: Primitive) =>
    options.guides && p.getMode() < 4 && primitives.some((q) => q.getMode() === TRIANGLES);
  const awkward = primitives.some((p) =>
    p.listTargets().length || (p.getMode() !== TRIANGLES && !guide(p)) ||
    p.getAttribute("POSITION")?.getType() !== "VEC3"
  );
  return awkward ? "its mesh has morph targets or is not a plain triangle list" : undefined;
}
