/**
 * GLBs whose textures are stored as web optimisers store them (KTX2, WebP), built by code: a quad
 * with one such texture, or a real model's PNG textures re-encoded.
 *
 * @module
 */
import { Document, type Extension, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { decode as decodePng } from "fast-png";

/** An extension class glTF-Transform can create on a document (`KHRTextureBasisu`, `EXTTextureWebP`). */
// deno-lint-ignore no-explicit-any
type ExtensionClass = new (doc: Document) => Extension & any;

/** Decoded 8-bit PNG pixels, as `fast-png` gives them. */
export interface PngPixels {
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  readonly data: ArrayLike<number>;
}

/**
 * A GLB of one textured quad (`Panel`, 2 × 2 in the XZ plane) whose base colour is `image` of
 * `mimeType`, with `extension` required as optimisers write it.
 */
export async function texturedQuadGlb(
  image: Uint8Array,
  mimeType: string,
  extension: ExtensionClass,
): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  doc.createExtension(extension).setRequired(true);
  const texture = doc.createTexture("paint").setImage(image).setMimeType(mimeType);
  const material = doc.createMaterial("painted").setBaseColorTexture(texture).setDoubleSided(true);
  const accessor = (
    type: "VEC2" | "VEC3" | "SCALAR",
    array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
  ) => doc.createAccessor("", buffer).setType(type).setArray(array);
  const prim = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1])))
    .setAttribute("NORMAL", accessor("VEC3", new Float32Array([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0])))
    .setAttribute("TEXCOORD_0", accessor("VEC2", new Float32Array([0, 0, 1, 0, 1, 1, 0, 1])))
    .setIndices(accessor("SCALAR", new Uint16Array([0, 2, 1, 0, 3, 2])))
    .setMaterial(material);
  doc.createScene("s").addChild(doc.createNode("Panel").setMesh(doc.createMesh("quad").addPrimitive(prim)));
  return await new NodeIO().registerExtensions(ALL_EXTENSIONS).writeBinary(doc);
}

/**
 * `glb` with every PNG texture re-encoded by `encode` (given its pixels as RGBA, see {@link rgbaOf})
 * as `mimeType`, `extension` required.
 */
export async function withTexturesAs(
  glb: Uint8Array,
  mimeType: string,
  extension: ExtensionClass,
  encode: (rgba: Uint8Array, width: number, height: number) => Uint8Array | Promise<Uint8Array>,
): Promise<Uint8Array> {
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const doc = await io.readBinary(glb);
  doc.createExtension(extension).setRequired(true);
  for (const texture of doc.getRoot().listTextures()) {
    if (texture.getMimeType() !== "image/png") continue;
    const png = decodePng(texture.getImage()!);
    if (png.depth !== 8 || png.palette) throw new Error("takes 8-bit truecolour or grey PNGs");
    texture.setImage(await encode(rgbaOf(png), png.width, png.height)).setMimeType(mimeType).setURI("");
  }
  return await io.writeBinary(doc);
}

/** PNG pixels of 1–4 channels as RGBA: grey spread over R, G and B; opaque where there is no alpha. */
export function rgbaOf(png: PngPixels): Uint8Array {
  const rgba = new Uint8Array(png.width * png.height * 4).fill(255);
  const colour = png.channels < 3 ? [0, 0, 0] : [0, 1, 2];
  const alpha = png.channels % 2 === 0 ? png.channels - 1 : -1;
  for (let p = 0; p < png.width * png.height; p++) {
    for (let c = 0; c < 3; c++) rgba[p * 4 + c] = png.data[p * png.channels + colour[c]];
    if (alpha >= 0) rgba[p * 4 + 3] = png.data[p * png.channels + alpha];
  }
  return rgba;
}
