/**
 * GLBs compressed as real exports often are: Draco (glTF-Transform's default settings) or meshopt
 * (with its attribute filters), by the encoders themselves.
 *
 * @module
 */
import { type Document, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS, EXTMeshoptCompression, KHRDracoMeshCompression } from "@gltf-transform/extensions";
import draco3d from "draco3dgltf";
import { MeshoptEncoder } from "meshoptimizer";
import { quantizeLikeGltfpack } from "./quantize.ts";

/**
 * `doc` written as a GLB with every mesh compressed by `kind` (the extension is added to `doc`).
 *
 * @example
 * ```ts
 * const glb = await writeCompressedGlb(doc, "draco");
 * ```
 */
export async function writeCompressedGlb(doc: Document, kind: "draco" | "meshopt"): Promise<Uint8Array> {
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  if (kind === "draco") {
    doc.createExtension(KHRDracoMeshCompression).setRequired(true);
    io.registerDependencies({ "draco3d.encoder": await draco3d.createEncoderModule() });
  } else {
    await MeshoptEncoder.ready;
    doc.createExtension(EXTMeshoptCompression).setRequired(true)
      .setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
    io.registerDependencies({ "meshopt.encoder": MeshoptEncoder });
  }
  return await io.writeBinary(doc);
}

/**
 * A glTF file as web optimisers leave aircraft: Draco-compressed, or quantized as gltfpack does and
 * meshopt-compressed.
 */
export async function optimisedGlb(
  bytes: Uint8Array,
  kind: "draco" | "quantized meshopt",
): Promise<Uint8Array> {
  const doc = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(bytes);
  if (kind === "draco") return await writeCompressedGlb(doc, "draco");
  quantizeLikeGltfpack(doc);
  return await writeCompressedGlb(doc, "meshopt");
}
