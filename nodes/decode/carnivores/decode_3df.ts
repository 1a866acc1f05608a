/**
 * `decode.3df` — a Carnivores `.3df` model (mesh, texture, bone table) to a scene. The result is a
 * usable static mesh on its own; `constraints.resolve` turns the bone table it keeps in
 * `extras.partgraph.carnivores.bones` into joints and a skin.
 *
 * @module
 */
import { importOnUse } from "../../../runtime/lazy_run.ts";
import { defineNode, type WarningSink } from "../../../runtime/node.ts";
import { SCALE_PARAM } from "./params.ts";

/** `decode.3df` node definition. */
export const decode3df = defineNode({
  type: "decode.3df",
  version: 2,
  doc: "Decodes a Carnivores .3df model: faces, points, bones and texture, in glTF axes (the model " +
    "faces +Z). Faces are grouped into primitives by alpha (opaque | mask | blend) × double-sided; " +
    "the bone table is kept for constraints.resolve, which builds the skin.",
  inputs: { bytes: { type: "bytes", doc: "A .3df file." } },
  outputs: { scene: { type: "scene", doc: "A static textured mesh with the bone table in extras." } },
  params: { scale: SCALE_PARAM },
  async run({ inputs, params, ctx }) {
    // Loaded on the first run, not at the top: declaring the node loads no codec.
    const [{ buildScene }, png, { FACE_BYTES, HEADER_3DF_BYTES }, { parse3df }, { modelName }] = await Promise
      .all([
        importOnUse<typeof import("./codec/build_scene.ts")>("./codec/build_scene.ts", import.meta.url),
        importOnUse<typeof import("../../../runtime/scene/png.ts")>(
          "../../../runtime/scene/png.ts",
          import.meta.url,
        ),
        importOnUse<typeof import("./codec/model.ts")>("./codec/model.ts", import.meta.url),
        importOnUse<typeof import("./codec/parse_3df.ts")>("./codec/parse_3df.ts", import.meta.url),
        importOnUse<typeof import("./codec/model_name.ts")>("./codec/model_name.ts", import.meta.url),
      ]);
    await png.loadPngEncoder();
    const file = inputs.bytes.name;
    const warn: WarningSink = (message, detail) => ctx.warn(message, { ...detail, file });
    const model = parse3df(inputs.bytes.bytes, file, warn);
    const scene = buildScene(model, { bones: model.bones }, {
      format: "3df",
      name: modelName(file, ""),
      scale: params.scale,
      interpolation: "linear",
      pointsOffset: HEADER_3DF_BYTES + model.faces.count * FACE_BYTES,
      file,
    }, warn);
    return { scene };
  },
});
