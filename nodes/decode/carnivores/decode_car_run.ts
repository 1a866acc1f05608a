/**
 * The work of `decode.car` (declared in `decode_car.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { WarningSink } from "../../../runtime/node.ts";
import type { NodeRun } from "../../../runtime/lazy_run.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { buildScene } from "./codec/build_scene.ts";
import { FACE_BYTES, HEADER_CAR_BYTES } from "./codec/model.ts";
import { parseCar } from "./codec/parse_car.ts";
import { modelName } from "./codec/model_name.ts";
import { extensionNote } from "./codec/extension_note.ts";
import type { decodeCar } from "./decode_car.ts";

/** Parses the file and builds its scene. */
export const run: NodeRun<typeof decodeCar> = async ({ inputs, params, ctx }) => {
  await loadPngEncoder();
  const file = inputs.bytes.name;
  const warn: WarningSink = (message, detail) => ctx.warn(message, { ...detail, file });
  // decode.auto follows the content when the name says otherwise (codec/sniff.ts): said once here.
  const note = extensionNote(file, inputs.bytes.bytes, "car", ctx.plugins.decoders);
  if (note) warn(note, { offset: 0 });
  const model = parseCar(inputs.bytes.bytes, file, warn);
  const scene = buildScene(model, { car: model }, {
    format: "car",
    name: modelName(file, model.name),
    scale: params.scale,
    interpolation: params.interpolation,
    maxFrames: params.max_frames,
    facesOffset: HEADER_CAR_BYTES,
    pointsOffset: HEADER_CAR_BYTES + model.faces.count * FACE_BYTES,
    file,
  }, warn);
  return { scene };
};
