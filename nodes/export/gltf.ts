/**
 * `export.gltf` — a scene to GLB or glTF bytes, deterministic: the generator is pinned to the
 * partgraph version and extras keys are sorted, so the same scene gives the same bytes anywhere.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { writeGlb, writeGltfJson } from "../../runtime/scene/gltf_io.ts";

/** `export.gltf` node definition. */
export const exportGltf = defineNode({
  type: "export.gltf",
  version: 2,
  doc: "Writes a scene as GLB (or .gltf JSON with embedded resources), byte-for-byte reproducible; " +
    "clashing node (then scene) names get unique `<name>_<n>` spellings, as rig.report names them.",
  inputs: { scene: { type: "scene", doc: "The scene to write." } },
  outputs: { bytes: { type: "bytes", doc: "The encoded file." } },
  params: {
    format: { type: "enum", values: ["glb", "gltf"], default: "glb", doc: "Container format." },
    name: { type: "string", default: "scene", doc: "Base file name of the output (extension added)." },
  },
  async run({ inputs, params }) {
    // Unique node (and scene) names: viewers would otherwise rename clashes, each its own way.
    const options = { generator: GENERATOR, uniqueNames: true };
    const bytes = params.format === "glb"
      ? await writeGlb(inputs.scene, options)
      : await writeGltfJson(inputs.scene, options);
    return { bytes: { bytes, name: `${params.name}.${params.format}` } };
  },
});
