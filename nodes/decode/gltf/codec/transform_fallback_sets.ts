/**
 * Texture references whose `KHR_texture_transform` names a UV set the primitives have while their own
 * `texCoord` names one they lack: aligned by `runtime/scene/transform_fallbacks.ts`, which export.gltf
 * shares (a node family reads no other's internals).
 *
 * @module
 */
export { alignTransformFallbacks } from "../../../../runtime/scene/transform_fallbacks.ts";
