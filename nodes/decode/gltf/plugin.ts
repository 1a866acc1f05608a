/**
 * The glTF plug-in: `decode.gltf`, picked by `decode.auto` for `.glb` (by its magic) and `.gltf`.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";
import { isGlb } from "../../../runtime/scene/glb_magic.ts";
import { decodeGltf } from "./decode_gltf.ts";

/** Nodes and plug-ins for glTF files. */
export const gltfPlugin: Plugin = {
  nodes: [decodeGltf],
  decoders: [{ format: "gltf", node: "decode.gltf", extensions: ["glb", "gltf"], sniff: isGlb }],
};
