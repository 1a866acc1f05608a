/**
 * Vertex-attribute habits of real exporters that viewers draw wrong without a word: normals against
 * their winding (normal_facing.ts), tangent signs other than ±1 (tangent_signs.ts) and V-flipped UV sets
 * (uv_flips.ts; a mesh's only set against the file's other meshes, lone_uv_flips.ts). Normals first: a
 * turned normal turns its tangent's sign with it, and signs taken from the UVs are taken across the
 * mended normals.
 *
 * @module
 */
import type { Document, Material, Mesh } from "@gltf-transform/core";
import { faceNormalsWithWinding } from "./normal_facing.ts";
import { mendTangentSigns } from "./tangent_signs.ts";
import { mendFlippedUvs } from "./uv_flips.ts";
import { loneFlippedUvs } from "./lone_uv_flips.ts";

/** Mends and names the habits (see the module doc); a note each, naming the mesh and primitive. */
export function attributeHabits(doc: Document, materialLabel: (material: Material) => string): string[] {
  const meshes = doc.getRoot().listMeshes();
  const meshLabel = (mesh: Mesh) => (mesh.getName() ? `'${mesh.getName()}'` : `#${meshes.indexOf(mesh)}`);
  // First, on the file's own winding: a mirror baked into the vertices and reversed below turns its islands over.
  const loneFlips = loneFlippedUvs(doc, meshLabel);
  return [
    ...faceNormalsWithWinding(doc, meshLabel),
    ...mendTangentSigns(doc, meshLabel),
    ...mendFlippedUvs(doc, meshLabel, materialLabel),
    ...loneFlips,
  ];
}
