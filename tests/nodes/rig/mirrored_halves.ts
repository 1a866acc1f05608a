/**
 * Models whose left half is a mirror image of the right (3ds Max's Mirror, Blender's scale −1 on X, the
 * demo fighter's `Wing_L`): each left wing piece a node scaled (−1, 1, 1) drawing its right twin's mesh,
 * its left control surface a child drawing the right surface's mesh. {@link applyScale} then does to
 * such a node what Blender's Object → Apply → Scale does (Ctrl+A, the meshes made single users first):
 * the mirror leaves the node's transform for its mesh, and every node under it keeps its world pose by
 * a frame turned end for end — in glTF's TRS, which holds no mirror, each frame below is point-reflected
 * and its mesh with it (measured on Blender 3.4: a pivot's frame under the wing came back as its old
 * frame times −I, its panel's mesh negated).
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import { type Quat, quatMultiply } from "../../../nodes/rig/transform.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import type { ClassSample } from "./surface_classes.ts";
import { newScene } from "./fixtures.ts";

/**
 * The sample as a scene whose left half mirrors the right: the fixed objects other than the first
 * (the fuselage) and the panels come in (left, right) pairs, as `mirroredPair` lists them, each
 * panel pair behind the fixed pair of the same index. The right objects sit at the root; each left
 * fixed piece is a node scaled (−1, 1, 1) sharing its twin's mesh, holding its left panel likewise.
 */
export function mirroredHalvesScene(sample: ClassSample): Document {
  const doc = newScene();
  const root = doc.getRoot().getDefaultScene()!;
  const [body, ...fixed] = sample.fixed;
  addAircraftMesh(doc, body.name, body.mesh.positions, body.mesh.triangles);
  for (let k = 0; 2 * k + 1 < fixed.length; k++) {
    const [left, right] = [fixed[2 * k], fixed[2 * k + 1]];
    const wing = addAircraftMesh(doc, right.name, right.mesh.positions, right.mesh.triangles);
    const mirrored = doc.createNode(left.name).setMesh(wing.getMesh()).setScale([-1, 1, 1]);
    root.addChild(mirrored);
    const pair = [sample.panels[2 * k], sample.panels[2 * k + 1]];
    if (!pair[1]) continue;
    const panel = addAircraftMesh(doc, pair[1].name, pair[1].mesh.positions, pair[1].mesh.triangles);
    mirrored.addChild(doc.createNode(pair[0].name).setMesh(panel.getMesh()));
  }
  return doc;
}

/** A copy of `mesh` whose positions are mapped by `f`, its triangles' winding reversed (Blender keeps faces outward). */
function remapped(doc: Document, mesh: Mesh, f: (p: number[]) => number[]): Mesh {
  // Make Single User: the twin keeps the shared mesh; the primitives are new, their accessors replaced.
  const copy = doc.createMesh(mesh.getName());
  for (const primitive of mesh.listPrimitives().map((p) => p.clone())) {
    copy.addPrimitive(primitive);
    const position = primitive.getAttribute("POSITION")!.clone();
    const array = Float32Array.from(position.getArray()!);
    for (let i = 0; i < array.length; i += 3) array.set(f([array[i], array[i + 1], array[i + 2]]), i);
    primitive.setAttribute("POSITION", position.setArray(array));
    const indices = primitive.getIndices();
    if (indices) {
      const flipped = Uint32Array.from(indices.getArray()!);
      for (let t = 0; t + 2 < flipped.length; t += 3) {
        [flipped[t + 1], flipped[t + 2]] = [flipped[t + 2], flipped[t + 1]];
      }
      primitive.setIndices(indices.clone().setArray(flipped));
    }
  }
  return copy;
}

/** Every node under `node` point-reflected in its frame (see the module), meshes with them. */
function reflectBelow(doc: Document, node: Node): void {
  for (const child of node.listChildren()) {
    const t = child.getTranslation();
    child.setTranslation([-t[0], -t[1], -t[2]]);
    const mesh = child.getMesh();
    if (mesh) child.setMesh(remapped(doc, mesh, (p) => p.map((x) => -x)));
    reflectBelow(doc, child);
  }
}

/**
 * Blender's Apply Scale on `node`, scaled (−1, 1, 1) (see the module): its scale becomes (1, 1, 1) and
 * its mesh mirrored; each child's transform S·L·(−I) — translation mirrored, rotation turned half
 * about X — and everything below point-reflected, so every world pose stays.
 */
export function applyScale(doc: Document, node: Node): void {
  const s = node.getScale();
  if (!(s[0] === -1 && s[1] === 1 && s[2] === 1)) {
    throw new Error(`${node.getName()} is not scaled (−1, 1, 1)`);
  }
  node.setScale([1, 1, 1]);
  const mesh = node.getMesh();
  if (mesh) node.setMesh(remapped(doc, mesh, ([x, y, z]) => [-x, y, z]));
  for (const child of node.listChildren()) {
    const t = child.getTranslation();
    child.setTranslation([-t[0], t[1], t[2]]);
    // −S = a half turn about X: −S·R is a rotation.
    child.setRotation(quatMultiply([1, 0, 0, 0], child.getRotation() as Quat));
    const own = child.getMesh();
    if (own) child.setMesh(remapped(doc, own, (p) => p.map((x) => -x)));
    reflectBelow(doc, child);
  }
}
