/**
 * Vertices a file places where nothing can be drawn: a position that is not a finite number (NaN or
 * ±∞, as a broken exporter or a float overflow writes). three.js draws none of their triangles and
 * a bounding box over them is NaN or infinite, so the preview frames the model by its finite
 * vertices and says how many are not.
 *
 * @module
 */
import * as THREE from "three";

/** The non-finite vertices under `root`: how many, in which meshes (by name, first ten). */
export interface NonFinite {
  readonly count: number;
  readonly meshes: readonly string[];
}

/** Counts vertices under `root` with a position component that is not finite. */
export function nonFiniteVertices(root: THREE.Object3D): NonFinite {
  let count = 0;
  const meshes: string[] = [];
  root.traverse((object) => {
    const position = (object as THREE.Mesh).geometry?.getAttribute?.("position");
    if (!position) return;
    let here = 0;
    for (let i = 0; i < position.count; i++) {
      if (!(isFinite(position.getX(i)) && isFinite(position.getY(i)) && isFinite(position.getZ(i)))) here++;
    }
    if (!here) return;
    count += here;
    if (meshes.length < 10) meshes.push(object.name || "(unnamed)");
  });
  return { count, meshes };
}

/** The box of the finite vertices under `root`, in world space (empty when there are none). */
export function finiteBox(root: THREE.Object3D): THREE.Box3 {
  const box = new THREE.Box3();
  const point = new THREE.Vector3();
  root.updateWorldMatrix(true, true);
  root.traverse((object) => {
    const position = (object as THREE.Mesh).geometry?.getAttribute?.("position");
    if (!position) return;
    for (let i = 0; i < position.count; i++) {
      point.fromBufferAttribute(position, i);
      if (!(isFinite(point.x) && isFinite(point.y) && isFinite(point.z))) continue;
      point.applyMatrix4(object.matrixWorld);
      if (isFinite(point.x) && isFinite(point.y) && isFinite(point.z)) box.expandByPoint(point);
    }
  });
  return box;
}

/** True when every corner of `box` is a finite number. */
export const boxFinite = (box: THREE.Box3): boolean =>
  [box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z].every(isFinite);
