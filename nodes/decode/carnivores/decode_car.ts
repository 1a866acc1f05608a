/**
 * `decode.car` — a Carnivores `.car` character (mesh, texture, animations, sounds) to a scene with
 * one morph-target animation per clip. Sounds have no place in glTF: their names and sizes are kept
 * in `extras.partgraph.carnivores.sounds`, their PCM is not carried.
 *
 * @module
 */
import { importOnUse } from "../../../runtime/lazy_run.ts";
import { defineNode, type WarningSink } from "../../../runtime/node.ts";
import { SCALE_PARAM } from "./params.ts";

/** `decode.car` node definition. */
export const decodeCar = defineNode({
  type: "decode.car",
  version: 2,
  doc: "Decodes a Carnivores .car character: mesh and texture like decode.3df, and each animation as " +
    "morph targets (one per frame) driven by one glTF animation per clip, timed like the game.",
  inputs: { bytes: { type: "bytes", doc: "A .car file." } },
  outputs: { scene: { type: "scene", doc: "A textured mesh with morph animations." } },
  params: {
    scale: SCALE_PARAM,
    interpolation: {
      type: "enum",
      values: ["linear", "step"],
      default: "linear",
      doc: "Between frames: linear blends positions like the game; step holds each frame.",
    },
  },
  async run({ inputs, params, ctx }) {
    // Loaded on the first run, not at the top: declaring the node loads no codec.
    const [{ buildScene }, png, { FACE_BYTES, HEADER_CAR_BYTES }, { parseCar }, { modelName }] = await Promise
      .all([
        importOnUse<typeof import("./codec/build_scene.ts")>("./codec/build_scene.ts", import.meta.url),
        importOnUse<typeof import("../../../runtime/scene/png.ts")>(
          "../../../runtime/scene/png.ts",
          import.meta.url,
        ),
        importOnUse<typeof import("./codec/model.ts")>("./codec/model.ts", import.meta.url),
        importOnUse<typeof import("./codec/parse_car.ts")>("./codec/parse_car.ts", import.meta.url),
        importOnUse<typeof import("./codec/model_name.ts")>("./codec/model_name.ts", import.meta.url),
      ]);
    await png.loadPngEncoder();
    const file = inputs.bytes.name;
    const warn: WarningSink = (message, detail) => ctx.warn(message, { ...detail, file });
    const model = parseCar(inputs.bytes.bytes, file, warn);
    const scene = buildScene(model, { car: model }, {
      format: "car",
      name: modelName(file, model.name),
      scale: params.scale,
      interpolation: params.interpolation,
      pointsOffset: HEADER_CAR_BYTES + model.faces.count * FACE_BYTES,
      file,
    }, warn);
    return { scene };
  },
});
