/**
 * `decode.cmp` — a Freelancer compound model (`.cmp`), rigid part (`.3db`) or mesh library (`.vms`)
 * to a scene: every part a root-level node with its LOD 0 mesh (other LODs and the wireframe kept
 * off-node, or as `$lodN` / `.vmeshwire` children with `lods: "all"`), hardpoints, LancerEdit-style
 * names and extras, materials as glTF PBR with PNG textures, and the raw `Cons` records kept in `extras.partgraph.constraints` for `constraints.resolve`.
 *
 * @module
 */
import { defineNode } from "../../../runtime/node.ts";
import { decodeModel, type NamedBytes } from "./model.ts";
import { buildScene } from "./scene.ts";

/** `decode.cmp` node definition. */
export const decodeCmp = defineNode({
  type: "decode.cmp",
  version: 2,
  doc: "Decodes a Freelancer .cmp, .3db or .vms (UTF container) into a scene: one root-level node per " +
    "part (LODs, wireframe, hardpoints, camera), PBR materials with PNG textures, and the raw Cons " +
    "constraint records for constraints.resolve. Meshes, materials and textures are looked up in the " +
    "file and then in the optional library files, like the game resolves ids across loaded libraries.",
  inputs: {
    bytes: { type: "bytes", doc: "The .cmp, .3db or .vms file." },
    library: {
      type: "bytes",
      optional: true,
      doc: "An extra UTF library (.vms, .mat or .txm) whose meshes, materials and textures are merged in.",
    },
    materials: {
      type: "bytes",
      optional: true,
      doc: "A second extra library, usually the ship family's .mat (any UTF library is accepted).",
    },
  },
  outputs: { scene: { type: "scene", doc: "The parts as root-level nodes, with raw constraint records." } },
  params: {
    lods: {
      type: "enum",
      values: ["first", "all"],
      default: "first",
      doc: "first: parts draw LOD 0; other LODs and wireframes stay in the file on no node (viewers " +
        "draw one LOD, no outline). all: LancerEdit's $lodN / .vmeshwire child nodes (all drawn).",
    },
  },
  run({ inputs, params, ctx }) {
    const libraries: NamedBytes[] = [inputs.library, inputs.materials].filter((l) => l !== undefined);
    const warn = (message: string) => ctx.warn(message);
    const model = decodeModel(inputs.bytes, libraries, warn);
    return { scene: buildScene(model, warn, { lods: params.lods }) };
  },
});
