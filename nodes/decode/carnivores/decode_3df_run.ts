/**
 * The work of `decode.3df` (declared in `decode_3df.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { WarningSink } from "../../../runtime/node.ts";
import type { NodeRun } from "../../../runtime/lazy_run.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { buildScene } from "./codec/build_scene.ts";
import { FACE_BYTES, HEADER_3DF_BYTES } from "./codec/model.ts";
import { parse3df } from "./codec/parse_3df.ts";
import { modelName } from "./codec/model_name.ts";
import { extensionNote } from "./codec/extension_note.ts";
import type { decode3df } from "./decode_3df.ts";
import { readVtlClips } from "./vtl_files.ts";

/** Parses the file and builds its scene. */
export const run: NodeRun<typeof decode3df> = async ({ inputs, params, ctx }) => {
  await loadPngEncoder();
  const file = inputs.bytes.name;
  const warn: WarningSink = (message, detail) => ctx.warn(message, { ...detail, file });
  // decode.auto follows the content when the name says otherwise (codec/sniff.ts): said once here.
  const note = extensionNote(file, inputs.bytes.bytes, "3df", ctx.plugins.decoders);
  if (note) warn(note, { offset: 0 });
  const model = parse3df(inputs.bytes.bytes, file, warn);
  const entries = params.animations as string[];
  const vtl = entries.length ? await readVtlClips(entries, model.points.count, ctx, ctx.warn) : undefined;
  const scene = buildScene(model, { bones: model.bones, vtl }, {
    format: "3df",
    name: modelName(file, ""),
    scale: params.scale,
    interpolation: params.interpolation,
    maxFrames: params.max_frames,
    facesOffset: HEADER_3DF_BYTES,
    pointsOffset: HEADER_3DF_BYTES + model.faces.count * FACE_BYTES,
    file,
  }, warn);
  return { scene };
};
