/**
 * `export.gltf` — a scene to GLB or glTF bytes, deterministic: the generator is pinned to the
 * partgraph version and extras keys are sorted, so the same scene gives the same bytes anywhere.
 * What a damaged source left in the scene (non-finite values, out-of-range indices, non-unit
 * normals or rotations) is repaired with a warning, and the result is checked with the Khronos
 * validator: an output it rejects is refused, never written.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { writeGlb, writeGltfJson } from "../../runtime/scene/gltf_io.ts";
import { repairForExport } from "./repair.ts";

/** `export.gltf` node definition. */
export const exportGltf = defineNode({
  type: "export.gltf",
  version: 3,
  doc: "Writes a scene as GLB (or .gltf JSON with embedded resources), byte-for-byte reproducible; " +
    "clashing node (then scene) names get unique `<name>_<n>` spellings, as rig.report names them; " +
    "non-finite values and out-of-range indices are repaired with a warning, and an output the glTF " +
    "validator rejects is refused.",
  inputs: { scene: { type: "scene", doc: "The scene to write." } },
  outputs: { bytes: { type: "bytes", doc: "The encoded file." } },
  params: {
    format: { type: "enum", values: ["glb", "gltf"], default: "glb", doc: "Container format." },
    name: { type: "string", default: "scene", doc: "Base file name of the output (extension added)." },
  },
  async run({ inputs, params, ctx }) {
    // Unique node (and scene) names: viewers would otherwise rename clashes, each its own way.
    const options = { generator: GENERATOR, uniqueNames: true };
    const scene = repairForExport(inputs.scene, (message) => ctx.warn(message));
    const bytes = params.format === "glb"
      ? await writeGlb(scene, options)
      : await writeGltfJson(scene, options);
    await refuseInvalid(bytes, params.format);
    return { bytes: { bytes, name: `${params.name}.${params.format}` } };
  },
});

/**
 * The validator's issue codes of a severity below Error (warnings, infos, hints; its `ISSUES.md`),
 * which can never refuse an output. The validator still runs every check, but skips building their
 * messages: a model of many small parts has hundreds (each unused object, each degenerate triangle),
 * and reporting them was a third of the validator's time on the realistic Freelancer set.
 */
export const NON_ERROR_ISSUES: readonly string[] = [
  "ACCESSOR_INDEX_TRIANGLE_DEGENERATE",
  "ACCESSOR_JOINTS_USED_ZERO_WEIGHT",
  "ANIMATION_CHANNEL_TARGET_NODE_SKIN",
  "BUFFER_GLB_CHUNK_TOO_BIG",
  "BUFFER_VIEW_TARGET_MISSING",
  "CAMERA_XMAG_YMAG_NEGATIVE",
  "CAMERA_YFOV_GEQUAL_PI",
  "DATA_URI_GLB",
  "EXTRA_PROPERTY",
  "GLB_EMPTY_BIN_CHUNK",
  "GLB_EXTRA_DATA",
  "GLB_UNKNOWN_CHUNK_TYPE",
  "IMAGE_FEATURES_UNSUPPORTED",
  "IMAGE_NPOT_DIMENSIONS",
  "IMAGE_UNRECOGNIZED_FORMAT",
  "INCOMPLETE_EXTENSION_SUPPORT",
  "INVALID_EXTENSION_NAME_FORMAT",
  "KHR_MATERIALS_ANISOTROPY_ANISOTROPY_TEXTURE_TEXCOORD",
  "KHR_MATERIALS_CLEARCOAT_CLEARCOAT_NORMAL_TEXTURE_TEXCOORD",
  "KHR_MATERIALS_DISPERSION_NO_VOLUME",
  "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR",
  "KHR_MATERIALS_IRIDESCENCE_THICKNESS_RANGE_WITHOUT_TEXTURE",
  "KHR_MATERIALS_IRIDESCENCE_THICKNESS_TEXTURE_UNUSED",
  "KHR_MATERIALS_VOLUME_DOUBLE_SIDED",
  "KHR_MATERIALS_VOLUME_NO_TRANSMISSION",
  "MATERIAL_ALPHA_CUTOFF_INVALID_MODE",
  "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE",
  "MESH_PRIMITIVE_INCOMPATIBLE_MODE",
  "MESH_PRIMITIVE_NO_POSITION",
  "MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL",
  "MULTIPLE_EXTENSIONS",
  "NODE_EMPTY",
  "NODE_MATRIX_DEFAULT",
  "NODE_SKINNED_MESH_LOCAL_TRANSFORMS",
  "NODE_SKINNED_MESH_NON_ROOT",
  "NODE_SKINNED_MESH_WITHOUT_SKIN",
  "NON_OBJECT_EXTRAS",
  "NON_RELATIVE_URI",
  "UNEXPECTED_PROPERTY",
  "UNKNOWN_ASSET_MINOR_VERSION",
  "UNSUPPORTED_EXTENSION",
  "UNUSED_MESH_TANGENT",
  "UNUSED_MESH_WEIGHTS",
  "UNUSED_OBJECT",
  "URI_GLB",
  "VALUE_NOT_IN_LIST",
];

/** Throws a DecodeError naming the validator's first error (code and JSON pointer), if any. */
async function refuseInvalid(bytes: Uint8Array, format: string): Promise<void> {
  // Loaded on first use: parsing the validator is half of the CLI's start-up, and most commands never export.
  const { default: validator } = await import("gltf-validator");
  const report = await validator.validateBytes(bytes, {
    maxIssues: 0, // unlimited: a cap counts warnings too, and could stop before the first error
    ignoredIssues: NON_ERROR_ISSUES,
    externalResourceFunction: (uri: string) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  const first = report.issues.messages.find((m: { severity: number }) => m.severity === 0);
  if (!first) return;
  throw new DecodeError({
    format: `${format} output`,
    at: { jsonPath: first.pointer ?? "/" },
    expected: "an output the Khronos glTF validator accepts",
    found: `${first.code}: ${first.message}`,
  });
}
