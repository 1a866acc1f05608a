/**
 * Test helpers: a scene node's vertices in world space, read back through glTF-Transform's own
 * transform chain (independent of the demo's layout maths).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";

/** Finds a node by name, failing loudly. */
export function nodeNamed(doc: Document, name: string): Node {
  const found = doc.getRoot().listNodes().filter((n) => n.getName() === name);
  if (found.length !== 1) throw new Error(`expected one node named ${name}, found ${found.length}`);
  return found[0];
}

/** World-space positions (xyz per vertex) of every primitive of a node's mesh. */
export function worldVertices(node: Node): Float64Array {
  const m = node.getWorldMatrix();
  const out: number[] = [];
  for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
    const p = primitive.getAttribute("POSITION")!.getArray()!;
    for (let i = 0; i < p.length; i += 3) {
      const x = p[i], y = p[i + 1], z = p[i + 2];
      out.push(
        m[0] * x + m[4] * y + m[8] * z + m[12],
        m[1] * x + m[5] * y + m[9] * z + m[13],
        m[2] * x + m[6] * y + m[10] * z + m[14],
      );
    }
  }
  return Float64Array.from(out);
}

/** Determinant of a column-major 4×4 matrix's linear part. */
export function linearDeterminant(m: ArrayLike<number>): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
    m[8] * (m[1] * m[6] - m[5] * m[2]);
}
