/**
 * `constraints.resolve` — turns the raw constraint records a decoder kept (Freelancer `Cons` joints,
 * Carnivores bones, DSON rigidity groups) into a part hierarchy. Formats plug in resolvers through
 * `Plugin.resolvers`; the resolver is chosen by the source format recorded on the scene.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { getSourceInfo } from "../../runtime/scene/source.ts";

/** `constraints.resolve` node definition. */
export const constraintsResolve = defineNode({
  type: "constraints.resolve",
  version: 1,
  doc: "Resolves a decoded scene's constraint records (joints, bones, rigidity groups) into a part " +
    "hierarchy; the resolver is chosen by the scene's source format. A scene with nothing to " +
    "resolve passes through unchanged.",
  inputs: { scene: { type: "scene", doc: "A decoded scene with raw constraint records." } },
  outputs: { scene: { type: "scene", doc: "The scene with its hierarchy resolved." } },
  params: {
    pose: {
      type: "json",
      default: {},
      doc: "Joint values by part name (degrees for rotations, scene units for slides), clamped to limits.",
      schema: { type: "object", additionalProperties: { type: ["number", "array"] } },
      check: (v) => v && typeof v === "object" && !Array.isArray(v) ? undefined : "expected an object",
    },
    morph: {
      type: "string",
      default: "",
      doc: "Name of a morph to bake into the mesh (DSON; rigidity groups honoured). Empty: none.",
    },
    morph_weight: { type: "number", default: 1, min: -10, max: 10, doc: "Weight of the baked morph." },
  },
  async run({ inputs, params, ctx }) {
    const format = getSourceInfo(inputs.scene)?.format;
    const resolver = ctx.plugins.resolvers.find((r) => format && r.formats.includes(format));
    if (!resolver) {
      // A scene from a format without constraint records (glTF) has nothing to resolve; a format
      // whose resolver is missing is worth a word.
      if (format) ctx.warn(`no constraint resolver for source format '${format}'; scene passed through`);
      return { scene: inputs.scene };
    }
    const scene = copyScene(inputs.scene, { shareData: resolver.sharesVertexData });
    await resolver.resolve({ scene, params, ctx });
    return { scene };
  },
});
