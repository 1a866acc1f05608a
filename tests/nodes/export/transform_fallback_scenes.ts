/**
 * Scenes as scripts build them through the glTF-Transform API with `KHR_texture_transform`: an atlas
 * tile's offset and scale on a texture, the transform's `texCoord` naming the UV set to sample, while
 * the reference's own `texCoord` (the fallback viewers without the extension read) is left at what the
 * script copied from another slot (a lightmap's `1`), or set to a set the mesh never had (`2`). Some
 * meshes have a second UV set, some not; some materials are shared. Files decode.gltf reads are given
 * the extension's set (v47, `transform_fallback_sets.ts`); these never pass through a decoder.
 *
 * @module
 */
import { Document, type Material, type Primitive, type TextureInfo } from "@gltf-transform/core";
import { KHRTextureTransform } from "@gltf-transform/extensions";
import { prng } from "../../support/prng.ts";
import { textureSlots, uvSetOf } from "../../../runtime/scene/texture_slots.ts";

type Rng = () => number;
const int = (rng: Rng, low: number, high: number) => low + Math.floor(rng() * (high - low + 1));

/** A 1×1 opaque white PNG. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/**
 * A scene of 2–5 meshes and 1–3 materials, each texture reference with a transform naming a set and a
 * fallback `texCoord` that may name a set its meshes lack.
 */
export function transformFallbackScene(seed: number): Document {
  const rng = prng(seed);
  const doc = new Document();
  const transforms = doc.createExtension(KHRTextureTransform);
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const atlas = doc.createTexture(`atlas_${seed}`).setImage(PNG).setMimeType("image/png");
  const materials: Material[] = [];
  for (let m = int(rng, 1, 3); m > 0; m--) {
    const material = doc.createMaterial(`tile_${seed}_${m}`).setBaseColorTexture(atlas);
    if (rng() < 0.5) material.setEmissiveTexture(atlas).setEmissiveFactor([1, 1, 1]);
    if (rng() < 0.3) material.setOcclusionTexture(atlas); // a lightmap, on the second set where there is one
    for (const { info } of textureSlots(material)) {
      const tile = [int(rng, 0, 3) / 4, int(rng, 0, 3) / 4];
      const transform = transforms.createTransform().setOffset(tile as [number, number]).setScale([
        0.25,
        0.25,
      ]);
      // The set the script means; the reference's own copied from a lightmap slot, or a set never made.
      transform.setTexCoord(rng() < 0.8 ? 0 : 1);
      info.setTexCoord(rng() < 0.6 ? 1 : rng() < 0.5 ? 2 : 0);
      info.setExtension("KHR_texture_transform", transform);
    }
    materials.push(material);
  }
  const position = doc.createAccessor().setType("VEC3").setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const uv = () =>
    doc.createAccessor().setType("VEC2").setBuffer(buffer).setArray(new Float32Array([0, 0, rng(), 0, 0, 1]));
  for (let i = int(rng, 2, 5); i > 0; i--) {
    const primitive = doc.createPrimitive().setAttribute("POSITION", position).setAttribute(
      "TEXCOORD_0",
      uv(),
    )
      .setMaterial(materials[int(rng, 0, materials.length - 1)]);
    if (rng() < 0.4) primitive.setAttribute("TEXCOORD_1", uv());
    scene.addChild(
      doc.createNode(`panel_${seed}_${i}`).setMesh(
        doc.createMesh(`panel_${seed}_${i}`).addPrimitive(primitive),
      ),
    );
  }
  return doc;
}

/** What a viewer reading the extension samples, and what one without it does, per slot of a primitive. */
export interface Sampled {
  readonly slot: string;
  readonly transform: number;
  readonly fallback: number;
}

/** Per node name, what each texture slot of its primitive samples. */
export function sampledSets(primitives: { node: string; primitive: Primitive }[]): Map<string, Sampled[]> {
  const sets = new Map<string, Sampled[]>();
  for (const { node, primitive } of primitives) {
    const material = primitive.getMaterial();
    sets.set(
      node,
      material
        ? textureSlots(material).map(({ name, info }: { name: string; info: TextureInfo }) => ({
          slot: name,
          transform: uvSetOf(info),
          fallback: info.getTexCoord(),
        }))
        : [],
    );
  }
  return sets;
}
