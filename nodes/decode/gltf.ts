/**
 * `decode.gltf` — glTF 2.0 (GLB or JSON with embedded resources) into a scene, with every extension
 * glTF-Transform supports registered, so materials, textures, animations, extensions and extras are
 * kept.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { isGlb, readGltf } from "../../runtime/scene/gltf_io.ts";

/** `decode.gltf` node definition. */
export const decodeGltf = defineNode({
  type: "decode.gltf",
  version: 2,
  doc: "Decodes glTF/GLB into a scene, keeping every extension, material, texture, animation and extra; " +
    "Draco- and meshopt-compressed meshes are decoded.",
  inputs: {
    bytes: { type: "bytes", doc: "A .glb, or .gltf with its resources embedded (io.read embeds them)." },
  },
  outputs: { scene: { type: "scene", doc: "The decoded scene." } },
  params: {},
  async run({ inputs }) {
    const { bytes, name } = inputs.bytes;
    let doc;
    try {
      doc = await readGltf(bytes);
    } catch (cause) {
      throw new DecodeError({
        format: isGlb(bytes) ? "glb" : "gltf",
        at: { offset: 0 },
        expected: "a valid glTF 2.0 asset",
        found: cause instanceof Error ? cause.message : String(cause),
        file: name,
      }, { cause });
    }
    // No source frame is recorded: glTF fixes up (+Y) and units (metres) but authors disagree on
    // forward, so rig nodes fall back to their `forward` parameter. A frame recorded by an earlier
    // partgraph run travels inside the file and is kept.
    return { scene: doc };
  },
});
