/**
 * Freelancer LODs in the preview: which meshes draw which level, and showing one level at a time.
 *
 * @module
 */
// @ts-types="@types/three"
import type * as THREE from "three";

/**
 * Freelancer LODs (LancerEdit layout): a part P has children `P$lod<n>` for LOD n ≥ 1; its LOD 0 is P's
 * own mesh — P itself, or its mesh node (`P.mesh`, which three.js names `Pmesh`) and unnamed primitive groups.
 */
export function lodMeshesOf(root: THREE.Object3D): [THREE.Mesh, number][] {
  const found: [THREE.Mesh, number][] = [];
  const meshesUnder = (o: THREE.Object3D, level: number) =>
    o.traverse((m) => void ((m as THREE.Mesh).isMesh && found.push([m as THREE.Mesh, level])));
  root.traverse((part) => {
    const lods = part.children.filter((c) => c.name.startsWith(`${part.name}$lod`));
    if (!part.name || !lods.length) return;
    if ((part as THREE.Mesh).isMesh) found.push([part as THREE.Mesh, 0]);
    for (const child of part.children) {
      if (child.name === "" || child.name === `${part.name}mesh`) meshesUnder(child, 0);
    }
    for (const lod of lods) meshesUnder(lod, Number(/\$lod(\d+)$/.exec(lod.name)?.[1] ?? 0));
  });
  return found;
}

/** Shows the meshes of one LOD level (parts without LODs always show). */
export function showLodLevel(lodMeshes: readonly [THREE.Mesh, number][], level: number): void {
  for (const [mesh, meshLevel] of lodMeshes) {
    // A mesh with child parts cannot be hidden as an object (its parts would go too): hide its material.
    if (!mesh.children.length) mesh.visible = meshLevel === level;
    else {
      mesh.material = ([] as THREE.Material[]).concat(mesh.material).map((m) => {
        const own = m.userData.lodCopy ? m : Object.assign(m.clone(), { userData: { lodCopy: true } });
        own.visible = meshLevel === level;
        return own;
      })[0];
    }
  }
}
