/**
 * Meshes that draw nothing because they have no size: no vertices at all, or every finite vertex at
 * one point (an exporter that collapsed a mesh, a decoder that read every position as zero). three.js
 * shows nothing for them and frames nothing, so the preview names them rather than showing an empty
 * view with no word.
 *
 * @module
 */
import * as THREE from "three";

/** The meshes under `root` that have no size, by name, and how many meshes there are in all. */
export interface Sizeless {
  /** Names of the meshes with no vertices or all at one point (every one of them). */
  readonly meshes: readonly string[];
  /** Every mesh under `root` (points and lines included). */
  readonly total: number;
}

/**
 * Finds the meshes under `root` with no size; `nameOf` gives an object's name as its file has it.
 *
 * @example
 * ```ts
 * const { meshes, total } = sizelessMeshes(gltf.scene, (o) => o.name);
 * ```
 */
export function sizelessMeshes(root: THREE.Object3D, nameOf: (object: THREE.Object3D) => string): Sizeless {
  const meshes: string[] = [];
  let total = 0;
  root.traverse((object) => {
    const geometry = (object as THREE.Mesh).geometry as THREE.BufferGeometry | undefined;
    if (!geometry?.isBufferGeometry) return;
    total++;
    const position = geometry.getAttribute("position");
    const box = new THREE.Box3();
    const point = new THREE.Vector3();
    for (let i = 0; i < (position?.count ?? 0); i++) {
      point.fromBufferAttribute(position, i);
      if (isFinite(point.x) && isFinite(point.y) && isFinite(point.z)) box.expandByPoint(point);
    }
    const size = box.getSize(point);
    if (box.isEmpty() || (size.x === 0 && size.y === 0 && size.z === 0)) {
      meshes.push(nameOf(object) || "(unnamed)");
    }
  });
  return { meshes, total };
}

/**
 * What the preview's info line says of meshes with no size ("" when every mesh has one): a model
 * with no mesh at all, or some (or all) meshes collapsed, named (the first ten).
 */
export function sizelessNote({ meshes, total }: Sizeless): string {
  if (total === 0) return "no meshes: nothing to draw";
  if (!meshes.length) return "";
  const names = meshes.slice(0, 10).join(", ") +
    (meshes.length > 10 ? ` and ${meshes.length - 10} more` : "");
  const all = meshes.length === total ? "nothing to draw: " : "";
  return `${all}${meshes.length} of ${total} meshes have no size (no vertices, or all at one point), shown as nothing: ${names}`;
}
