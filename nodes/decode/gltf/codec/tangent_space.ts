/**
 * Tangents for a primitive whose material has a clear coat normal map or an anisotropy texture but no
 * normal map, and which carries no TANGENT attribute. Blender writes such files (its Principled BSDF's
 * Coat Normal wired to a Normal Map node, or a textured anisotropy, tangents not exported, the
 * default); viewers draw them, computing a tangent space
 * themselves (three.js from screen-space derivatives), but glTF's validator refuses them
 * (MESH_PRIMITIVE_NO_TANGENT_SPACE: it lets a viewer generate tangents for a normal map only), so
 * the export refused its own output. The tangents given are the per-vertex ones of Lengyel's method
 * (each triangle's UV directions, summed at its corners, made orthogonal to the normal, with the
 * handedness in w), as three.js's `computeTangents` makes them.
 *
 * @module
 */
import type { Document, Material, TextureInfo } from "@gltf-transform/core";
import type { Anisotropy, Clearcoat } from "@gltf-transform/extensions";
import { tangentsOf } from "../../../../runtime/scene/uv_tangents.ts";

/**
 * Gives each such primitive tangents (see the module doc), returning a note per material naming it
 * and how many primitives were given them, or why one could not be (no normals or no UV set).
 */
export function addTangentSpace(doc: Document, materialLabel: (material: Material) => string): string[] {
  const given = new Map<Material, number>(), unable = new Map<Material, string>();
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const material = primitive.getMaterial();
      if (!material || material.getNormalTexture() || primitive.getAttribute("TANGENT")) continue;
      const info = tangentMapOf(material);
      if (!info || primitive.getMode() !== 4) continue;
      const set = `TEXCOORD_${info.getTexCoord()}`;
      const tangents = tangentsOf(primitive, set);
      if (typeof tangents === "string") {
        unable.set(material, tangents);
        continue;
      }
      const position = primitive.getAttribute("POSITION")!;
      primitive.setAttribute(
        "TANGENT",
        doc.createAccessor().setType("VEC4").setArray(tangents).setBuffer(position.getBuffer()),
      );
      given.set(material, (given.get(material) ?? 0) + 1);
    }
  }
  const notes: string[] = [];
  for (const [material, count] of given) {
    notes.push(
      `material ${materialLabel(material)} has ${tangentMapName(material)}, no normal map, and ` +
        `${count} primitive(s) ` +
        "drawing it without tangents: they are given tangents from their normals and UVs, as viewers compute " +
        "them (glTF's validator refuses such a map without tangents when there is no normal map)",
    );
  }
  for (const [material, why] of unable) {
    notes.push(
      `material ${materialLabel(material)} has ${tangentMapName(material)}, no normal map, and a ` +
        "primitive without " +
        `tangents that none can be made for (${why}); glTF's validator refuses it, so an export will`,
    );
  }
  return notes;
}

/** The texture of `material` that needs a tangent space: its clear coat normal map, or anisotropy texture. */
function tangentMapOf(material: Material): TextureInfo | null {
  const coat = material.getExtension<Clearcoat>("KHR_materials_clearcoat");
  if (coat?.getClearcoatNormalTexture()) return coat.getClearcoatNormalTextureInfo();
  const anisotropy = material.getExtension<Anisotropy>("KHR_materials_anisotropy");
  if (anisotropy?.getAnisotropyTexture()) return anisotropy.getAnisotropyTextureInfo();
  return null;
}

const tangentMapName = (material: Material) =>
  material.getExtension<Clearcoat>("KHR_materials_clearcoat")?.getClearcoatNormalTexture()
    ? "a clear coat normal map"
    : "an anisotropy texture";
