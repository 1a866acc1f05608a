/**
 * The work of `decode.3dn` (declared in `decode_3dn.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { WarningSink } from "../../../runtime/node.ts";
import type { NodeRun } from "../../../runtime/lazy_run.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { buildScene } from "./codec/build_scene.ts";
import { parse3dn } from "./codec/parse_3dn.ts";
import { FaceFlag } from "./codec/model.ts";
import { modelName } from "./codec/model_name.ts";
import type { decode3dn } from "./decode_3dn.ts";
import { read3dnTexture } from "./texture_3dn.ts";

/** Parses the file and builds its scene. */
export const run: NodeRun<typeof decode3dn> = async ({ inputs, params, ctx }) => {
  await loadPngEncoder();
  const file = inputs.bytes.name;
  const warn: WarningSink = (message, detail) => ctx.warn(message, { ...detail, file });
  const model = parse3dn(inputs.bytes.bytes, file, warn);
  // The PC games colour-key the texture when any face has sfOpacity; a picture without alpha is keyed so.
  const colourKey = model.faces.flags.some((flags) => (flags & FaceFlag.opacity) !== 0);
  const picture = params.texture
    ? await read3dnTexture(params.texture, model.name, file, colourKey, ctx, warn)
    : undefined;
  const names = { model_name: model.name, ...(model.sprite !== undefined ? { sprite: model.sprite } : {}) };
  const scene = buildScene(model, { bones: model.bones, notes: names }, {
    format: "3dn",
    name: modelName(file, model.name),
    scale: params.scale,
    interpolation: "linear",
    facesOffset: model.facesAt,
    pointsOffset: model.pointsAt,
    uvHeight: params.texture_height,
    picture,
    file,
  }, warn);
  return { scene };
};
