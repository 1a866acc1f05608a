/**
 * glTF files as the converters people run on old aircraft models write them, each with the truth a
 * viewer draws (`gltf_converter_model.ts`'s aircraft) and the hinges of its control surfaces:
 *
 * - FBX2glTF: `RootNode` over one node per object (TRS), 32-bit indices, materials with
 *   `extras.fromFBX`, all unlit with `--khr-materials-unlit`;
 * - Assimp's glTF2 exporter from an FBX in centimetres: node matrices (never TRS), `RootNode` scaling
 *   by 0.01, each object under `<name>_$AssimpFbx$_Translation` › `_$AssimpFbx$_PreRotation` pivot
 *   nodes, an object of two materials split into two meshes, the second `<name>_1` on a child node;
 * - obj2gltf: one node, one mesh, a primitive per material (the objects' names gone), unlit with
 *   `--unlit`;
 * - COLLADA2GLTF from a Z-up `.dae`: a root matrix turning Z up to Y up, meshes `<name>-mesh`, and
 *   `KHR_techniques_webgl` leftovers on every material beside its metal-rough one (required in some,
 *   where some materials are the technique alone), or (`--materialsCommon`) KHR_materials_common alone;
 * - Blender 2.79's Khronos exporter: Z-up data under a root rotated −90° about X, specular-glossiness
 *   materials only, a byteStride on every vertex view;
 * - gltfpack / glTF-Transform optimised: KHR_mesh_quantization (normalized int16 positions, the
 *   dequantization on the node), and the same meshopt-compressed;
 * - game rips (Ninja Ripper / 3D Ripper): one node per draw call `Mesh_<nnnn>` in world space, custom
 *   `_`-attributes, and textured materials on draw calls whose UVs the ripper did not find (no
 *   TEXCOORD at all).
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { optimisedGlb } from "../../support/compressed.ts";
import type { PartTruth } from "./gltf_exporter_parts.ts";
import { assimp, blender279, collada2gltf } from "./gltf_converter_frames.ts";
import { fbx2gltf, fbx2gltfCommon, gameRip, obj2gltf } from "./gltf_converter_writers.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { type ConverterModel, converterModel, type ModelPanel } from "./gltf_converter_model.ts";

/** One converter's file, the truth of what it draws, and its control surfaces' hinges. */
export interface ConverterFile {
  readonly tool: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly parts: readonly PartTruth[];
  readonly panels: readonly ModelPanel[];
}

/** The converters the generator imitates, by name. */
export const CONVERTERS = [
  "fbx2gltf",
  "fbx2gltf-unlit",
  "fbx2gltf-cm",
  "fbx2gltf-common",
  "fbx2gltf-common-pbr",
  "assimp",
  "obj2gltf",
  "obj2gltf-unlit",
  "collada2gltf",
  "collada2gltf-required",
  "collada2gltf-kmc",
  "blender279",
  "gltfpack",
  "gltfpack-meshopt",
  "game-rip",
] as const;
export type Converter = typeof CONVERTERS[number];

const GENERATORS: Record<Converter, string> = {
  "fbx2gltf": "FBX2glTF v0.9.7",
  "fbx2gltf-unlit": "FBX2glTF v0.9.7",
  "fbx2gltf-cm": "FBX2glTF v0.9.5",
  "fbx2gltf-common": "FBX2glTF",
  "fbx2gltf-common-pbr": "FBX2glTF",
  "assimp": "Open Asset Import Library (assimp v5.2.5)",
  "obj2gltf": "obj2gltf",
  "obj2gltf-unlit": "obj2gltf",
  "collada2gltf": "COLLADA2GLTF",
  "collada2gltf-required": "COLLADA2GLTF",
  "collada2gltf-kmc": "COLLADA2GLTF",
  "blender279": "Khronos Blender glTF 2.0 exporter",
  "gltfpack": "gltfpack 0.19",
  "gltfpack-meshopt": "gltfpack 0.19",
  "game-rip": "NinjaRipper glTF export",
};

/** One file of `tool` for `seed`. */
export async function converterFile(tool: Converter, seed: number): Promise<ConverterFile> {
  await loadPngEncoder();
  const next = prng(seed);
  let model = converterModel(next);
  if (tool === "fbx2gltf-cm") model = scaledModel(model, 100);
  if (tool === "blender279") model = blenderCopyNames(model);
  const { w, truth } = (() => {
    switch (tool) {
      case "fbx2gltf":
      case "fbx2gltf-cm":
      case "gltfpack":
      case "gltfpack-meshopt":
        return fbx2gltf(model.objects, false);
      case "fbx2gltf-unlit":
        return fbx2gltf(model.objects, true);
      case "fbx2gltf-common":
        return fbx2gltfCommon(model.objects, false, next);
      case "fbx2gltf-common-pbr":
        return fbx2gltfCommon(model.objects, true, next);
      case "assimp":
        return assimp(model.objects, model.panels, next);
      case "obj2gltf":
        return obj2gltf(model.objects, false);
      case "obj2gltf-unlit":
        return obj2gltf(model.objects, true);
      case "collada2gltf":
        return collada2gltf(model.objects, "techniques");
      case "collada2gltf-required":
        return collada2gltf(model.objects, "techniques-required");
      case "collada2gltf-kmc":
        return collada2gltf(model.objects, "materials-common");
      case "blender279":
        return blender279(model.objects);
      case "game-rip":
        return gameRip(model.objects, next);
    }
  })();
  let bytes = w.glb(GENERATORS[tool]);
  if (tool === "gltfpack") bytes = await quantizedGlb(bytes);
  if (tool === "gltfpack-meshopt") bytes = await optimisedGlb(bytes, "quantized meshopt");
  // Rips and obj2gltf keep no object names: there is nothing to rig by name.
  const named = tool !== "game-rip" && !tool.startsWith("obj2gltf");
  return { tool, name: `${tool}_${seed}.glb`, bytes, parts: truth, panels: named ? model.panels : [] };
}

/** The file quantized as gltfpack leaves it, uncompressed. */
async function quantizedGlb(bytes: Uint8Array): Promise<Uint8Array> {
  const { NodeIO } = await import("@gltf-transform/core");
  const { ALL_EXTENSIONS } = await import("@gltf-transform/extensions");
  const { quantizeLikeGltfpack } = await import("../../support/quantize.ts");
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const doc = await io.readBinary(bytes);
  quantizeLikeGltfpack(doc);
  doc.getRoot().getAsset().generator = "gltfpack 0.19";
  return await io.writeBinary(doc);
}

/**
 * The model `factor` times larger: FBX2glTF before 0.9.6 kept an FBX's centimetres as metres (and
 * users' unit settings put many old models in other units).
 */
function scaledModel(model: ConverterModel, factor: number): ConverterModel {
  return {
    objects: model.objects.map((o) => ({ ...o, positions: o.positions.map((v) => v * factor) })),
    panels: model.panels.map((p) => ({
      ...p,
      truth: p.truth && {
        origin: p.truth.origin.map((v) => v * factor) as Vec3,
        axis: p.truth.axis,
        span: p.truth.span * factor,
        chord: p.truth.chord * factor,
      },
    })),
  };
}

/**
 * Names as Blender 2.79 users leave them: the right-hand copy of an object duplicated and mirrored is
 * `<name>.001` beside `<name>` (`Aileron`, `Aileron.001`), its side in the geometry only.
 */
function blenderCopyNames(model: ConverterModel): ConverterModel {
  const rename = (name: string) => name.replace(/_L$/, "").replace(/_R$/, ".001");
  return {
    objects: model.objects.map((o) => ({ ...o, name: rename(o.name) })),
    panels: model.panels.map((p) => ({ ...p, name: rename(p.name) })),
  };
}
