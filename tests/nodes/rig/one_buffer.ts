/**
 * A game rip's habit: every mesh of a model drawn out of one vertex buffer. Rippers dump a level's or
 * a model's single vertex buffer once and give each draw call (a mesh, a primitive) its own index
 * range into it, so every primitive's `POSITION` is the same accessor, holding every other mesh's
 * vertices too, its indices drawing only its own triangles.
 *
 * @module
 */
import type { Accessor, Document } from "@gltf-transform/core";

/**
 * Rewrites `doc` so every triangle primitive draws from one accessor per attribute: the primitives'
 * own vertices one after another (in document order), each primitive's indices moved to its range.
 * Attributes not every primitive has are dropped (a buffer holds one vertex layout). What each
 * primitive draws, where, is unchanged.
 */
export function oneVertexBuffer(doc: Document): void {
  const primitives = doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives())
    .filter((p) => p.getAttribute("POSITION") && [4, 5, 6].includes(p.getMode()));
  if (primitives.length < 2) return;
  const semantics = primitives[0].listSemantics().filter((s) =>
    primitives.every((p) => p.getAttribute(s)?.getType() === primitives[0].getAttribute(s)!.getType())
  );
  const buffer = doc.getRoot().listBuffers()[0];
  const bases: number[] = [];
  let total = 0;
  for (const p of primitives) bases.push(total), total += p.getAttribute("POSITION")!.getCount();
  const shared = new Map<string, Accessor>();
  for (const semantic of semantics) {
    const first = primitives[0].getAttribute(semantic)!, size = first.getElementSize();
    const values = new Float32Array(size * total), element: number[] = [];
    primitives.forEach((p, i) => {
      const own = p.getAttribute(semantic)!;
      for (let v = 0; v < own.getCount(); v++) values.set(own.getElement(v, element), size * (bases[i] + v));
    });
    shared.set(
      semantic,
      doc.createAccessor(`vb.${semantic}`, buffer).setType(first.getType()).setArray(values),
    );
  }
  const old = new Set<Accessor>();
  primitives.forEach((p, i) => {
    const count = p.getAttribute("POSITION")!.getCount();
    const indices = p.getIndices()?.getArray() ?? Uint32Array.from({ length: count }, (_, v) => v);
    const moved = Uint32Array.from(indices, (v) => v + bases[i]);
    if (p.getIndices()) old.add(p.getIndices()!);
    p.setIndices(doc.createAccessor(`ib.${i}`, buffer).setType("SCALAR").setArray(moved));
    for (const semantic of p.listSemantics()) {
      old.add(p.getAttribute(semantic)!);
      p.setAttribute(semantic, shared.get(semantic) ?? null);
    }
  });
  for (const accessor of old) if (accessor.listParents().length <= 1) accessor.dispose();
}
