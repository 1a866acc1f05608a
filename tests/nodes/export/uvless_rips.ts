/**
 * Scenes shaped like game rips whose UVs were lost (Ninja Ripper dumps, CAD conversions): meshes drawn
 * with textured materials, some with a UV set and some without, materials shared between both, base
 * colour and emissive textures, nearest or linear samplers. Each texture's four corner texels are one
 * colour and its inside another, so the colour a viewer draws a UV-less mesh in (the texture sampled at
 * UV (0,0), whatever the filter or wrap) is known: {@link sourceLook}. Seeded.
 *
 * @module
 */
import { Document, type Material, type Texture, TextureInfo } from "@gltf-transform/core";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";

/** What a viewer draws a UV-less mesh's material as: base colour and emissive, linear RGB. */
export interface Look {
  readonly base: readonly number[];
  readonly emissive: readonly number[];
}

/** sRGB-encoded byte to linear, as viewers decode colour textures. */
const linear = (byte: number) => {
  const c = byte / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** A 4×4 PNG whose corner texels are `corner` and the rest `inside`. */
function picture(corner: number[], inside: number[]): Uint8Array {
  const data = new Uint8Array(64);
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < 4; x++) {
      const edge = (x === 0 || x === 3) && (y === 0 || y === 3);
      data.set([...(edge ? corner : inside), 255], (y * 4 + x) * 4);
    }
  }
  return encodeRgbaPng(4, 4, data);
}

/**
 * A rip of seed `seed`: 3–5 materials (each with a base colour texture, half an emissive one too), 6–13
 * meshes each drawn with one of them, about half without UVs. Deterministic.
 */
export async function uvlessRipScene(seed: number): Promise<Document> {
  await loadPngEncoder();
  const next = prng(seed);
  const byte = () => Math.floor(next() * 256);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("rip");
  const texture = (name: string) => {
    const corner = [byte(), byte(), byte()];
    // The corner colour, for the measure to read (not something a rip carries).
    return doc.createTexture(name).setImage(picture(corner, [byte(), byte(), byte()])).setMimeType(
      "image/png",
    )
      .setExtras({ corner });
  };
  const materials = Array.from({ length: 3 + Math.floor(next() * 3) }, (_, m) => {
    const material = doc.createMaterial(`mat${m}`)
      .setBaseColorFactor([0.5 + next() / 2, 0.5 + next() / 2, 0.5 + next() / 2, 1])
      .setBaseColorTexture(texture(`tex${m}`));
    if (next() < 0.5) material.setEmissiveTexture(texture(`glow${m}`)).setEmissiveFactor([1, next(), 1]);
    if (next() < 0.5) {
      const nearest = TextureInfo.MagFilter.NEAREST;
      material.getBaseColorTextureInfo()!.setMagFilter(nearest).setWrapS(TextureInfo.WrapMode.CLAMP_TO_EDGE);
    }
    return material;
  });
  const count = 6 + Math.floor(next() * 8);
  for (let i = 0; i < count; i++) {
    const primitive = doc.createPrimitive()
      .setAttribute(
        "POSITION",
        doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
          new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0].map((v) => v + i)),
        ),
      )
      .setIndices(
        doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(
          new Uint16Array([0, 1, 2, 2, 1, 3]),
        ),
      )
      .setMaterial(materials[Math.floor(next() * materials.length)]);
    if (next() < 0.5) {
      primitive.setAttribute(
        "TEXCOORD_0",
        doc.createAccessor().setBuffer(buffer).setType("VEC2").setArray(
          new Float32Array([0.4, 0.4, 0.6, 0.4, 0.4, 0.6, 0.6, 0.6]),
        ),
      );
    }
    scene.addChild(doc.createNode(`part${i}`).setMesh(doc.createMesh(`part${i}`).addPrimitive(primitive)));
  }
  doc.getRoot().setDefaultScene(scene);
  return doc;
}

/**
 * How viewers draw `material` on a mesh without UVs: each texture sampled at UV (0,0) — the corner
 * colour — times its factor (`sampled` false: the factors alone, as a client that dropped the texture).
 */
export function sourceLook(material: Material, sampled = true): Look {
  const times = (factor: readonly number[], texture: Texture | null) => {
    const corner = sampled ? texture?.getExtras().corner as number[] | undefined : undefined;
    return [0, 1, 2].map((k) => factor[k] * (corner ? linear(corner[k]) : 1));
  };
  return {
    base: times(material.getBaseColorFactor(), material.getBaseColorTexture()),
    emissive: times(material.getEmissiveFactor(), material.getEmissiveTexture()),
  };
}

/** Whether two looks differ by more than rounding (2/255 in any channel). */
export function looksDiffer(a: Look, b: Look): boolean {
  const far = (x: readonly number[], y: readonly number[]) => x.some((v, k) => Math.abs(v - y[k]) > 2 / 255);
  return far(a.base, b.base) || far(a.emissive, b.emissive);
}
