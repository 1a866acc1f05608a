/**
 * What `decode.gltf`'s run uses on every file, gathered in one module: decode_gltf.ts imports it with
 * `importOnUse` on the node's first run, so declaring the node (listing, checking, documenting it)
 * loads neither glTF-Transform nor the checks. Repairs only some files need (compressed faults, glTF 1.0
 * textures, image types, PNG sizes, tangents) stay imported where they are used.
 *
 * @module
 */
export {
  isGlb,
  readableExtensions,
  readJsonDocument,
  usesMeshCompression,
} from "../../../../runtime/scene/gltf_io.ts";
export { gltfError, readContainer } from "./container.ts";
export { adoptDdsTextures } from "./texture_dds.ts";
export {
  checkDracoDecoded,
  checkGltfStructure,
  checkIndexValues,
  checkJointIndices,
  convertSkinAttributes,
  convertUvwAttributes,
  moveStrayVertices,
  stalePositionBounds,
  trimPrimitiveCounts,
  unlistedExtensions,
} from "./check.ts";
export { convertLegacyImages } from "./legacy_images.ts";
export { specGlossFallbacks } from "./spec_gloss_fallback.ts";
export * as msfs from "./msfs.ts";
export { restoreOriginalNames } from "./restore_names.ts";
export { recordSourceGenerator } from "./source_generator.ts";
export { pruneUnusedTextures } from "./unused_textures.ts";
export { unreadExtensionNote } from "./unread_extensions.ts";
export { missingUvSets } from "./missing_uv_sets.ts";
export { alignTransformFallbacks } from "./transform_fallback_sets.ts";
export { adoptWebglTechniques } from "./webgl_techniques.ts";
export { adoptMaterialsCommon } from "./materials_common.ts";
export { alignMorphCounts } from "./morph_counts.ts";
export { fitWeightKeys } from "./weight_keys.ts";
export { unskinnedPrimitives } from "./unskinned_primitives.ts";
export { rotationOrderNotes } from "./rotation_order.ts";
export { transformHabitNotes } from "./transform_habits.ts";
export { alignMatrixRows } from "./matrix_rows.ts";
export { originMatrices, type OriginMatrix, settleOriginMatrices } from "./origin_matrices.ts";
export { attributeHabits } from "./attribute_habits.ts";
export { alignQuantizedAttributes } from "./quantized_habits.ts";
export { lostUvScales, unscaledPositions } from "./quantized_notes.ts";
