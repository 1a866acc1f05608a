/**
 * The glTF parts of one Carnivores face group: its primitive (positions, normals, the `_OWNER`
 * attribute, UVs, the stored flags in extras) and its material per alpha class and sidedness. Split
 * from `build_scene.ts`, which decides the groups, texture and clips; this module only writes them.
 *
 * @module
 */
import { type Document, type Material, type Texture, TextureInfo } from "@gltf-transform/core";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import type { AlphaClass, FaceGroup } from "./mesh_split.ts";
import type { MeshData } from "./model.ts";

/** Vertex alpha the engine gives sfTransparent faces (0x70 of 0xFF). */
export const TRANSPARENT_ALPHA = 0x70 / 0xff;
/** Custom vertex attribute carrying each vertex's owner (bone index in 3df, group id in car). */
export const OWNER_ATTRIBUTE = "_OWNER";

/**
 * The primitive of one face group: its points' scene positions and normals, owners, UVs (texels over
 * `textureWidth` × `textureHeight`) and the stored face flags in extras.
 */
export function primitiveFor(
  accessors: SceneAccessors,
  group: FaceGroup,
  mesh: MeshData,
  scenePositions: Float64Array,
  pointNormals: Float32Array,
  [textureWidth, textureHeight]: readonly [number, number],
  material: Material,
) {
  const count = group.points.length;
  const position = new Float32Array(count * 3);
  const normal = new Float32Array(count * 3);
  const owner = new Int16Array(count);
  for (let i = 0; i < count; i++) {
    const p = group.points[i];
    position.set(scenePositions.subarray(p * 3, p * 3 + 3), i * 3);
    normal.set(pointNormals.subarray(p * 3, p * 3 + 3), i * 3);
    owner[i] = mesh.points.owners[p];
  }
  // 65535 is the primitive-restart value glTF forbids in u16 indices: 65,536 vertices need u32.
  const indices = count <= 0xffff ? Uint16Array.from(group.indices) : group.indices;
  const primitive = accessors.doc.createPrimitive()
    .setAttribute("POSITION", accessors.create("VEC3", position))
    .setAttribute("NORMAL", accessors.create("VEC3", normal))
    .setAttribute(OWNER_ATTRIBUTE, accessors.create("SCALAR", owner))
    .setIndices(accessors.create("SCALAR", indices))
    .setMaterial(material);
  if (group.texels) {
    const uv = new Float32Array(count * 2);
    for (let i = 0; i < count; i++) {
      uv[i * 2] = group.texels[i * 2] / textureWidth;
      uv[i * 2 + 1] = group.texels[i * 2 + 1] / textureHeight;
    }
    primitive.setAttribute("TEXCOORD_0", accessors.create("VEC2", uv));
  }
  const flags = Array.from(group.faces, (f) => mesh.faces.flags[f]);
  setPartgraphExtras(primitive, {
    carnivores: {
      alpha: group.alpha,
      double_sided: group.doubleSided,
      faces: Array.from(group.faces),
      flags,
    },
  });
  return primitive;
}

const ALPHA_MODES: Record<AlphaClass, "OPAQUE" | "MASK" | "BLEND"> = {
  opaque: "OPAQUE",
  mask: "MASK",
  blend: "BLEND",
};

/**
 * One material per (alpha class, sidedness), shared by name within the model. Without a texture
 * the faces get the colour of texel 0x0000, which is what the game's hardware renderers sample from
 * the zeroed 256-row buffer they read every texture into: black, and transparent (alpha 0) when the
 * model colour-keys that texel.
 */
export function materialFor(
  doc: Document,
  materials: Map<string, Material>,
  group: FaceGroup,
  texture: Texture | undefined,
  colourKey: boolean,
): Material {
  const name = group.alpha + (group.doubleSided ? "_double_sided" : "");
  const existing = materials.get(name);
  if (existing) return existing;
  const alpha = group.alpha === "blend" ? TRANSPARENT_ALPHA : 1;
  const keyed = !texture && colourKey && group.alpha !== "opaque";
  const material = doc.createMaterial(name)
    .setAlphaMode(ALPHA_MODES[group.alpha])
    .setDoubleSided(group.doubleSided)
    .setMetallicFactor(0)
    .setRoughnessFactor(1)
    .setBaseColorFactor(texture ? [1, 1, 1, alpha] : [0, 0, 0, keyed ? 0 : alpha]);
  materials.set(name, material);
  if (group.alpha === "mask") material.setAlphaCutoff(0.5);
  if (texture) {
    material.setBaseColorTexture(texture);
    // The engine point-samples the faces it colour-keys: its Direct3D path draws every sfOpacity and
    // sfTransparent face in a second batch with D3DFILTER_NEAREST (d3dFlushBuffer), and its Glide path
    // switches sfOpacity faces to GR_TEXTUREFILTER_POINT_SAMPLED. Filtered, a leaf's edge texels blend
    // with the keyed black around them and pass the 0.5 cutoff as a dark fringe, and mipmaps average
    // the holes away at a distance; NEAREST (no mipmaps) keeps the cut-out edge the game draws.
    if (group.alpha !== "opaque") {
      material.getBaseColorTextureInfo()!.setMagFilter(TextureInfo.MagFilter.NEAREST)
        .setMinFilter(TextureInfo.MinFilter.NEAREST);
    }
  }
  return material;
}
