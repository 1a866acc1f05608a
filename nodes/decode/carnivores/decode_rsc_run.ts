/**
 * The work of `decode.rsc` (declared in `decode_rsc.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { WarningSink } from "../../../runtime/node.ts";
import type { NodeRun } from "../../../runtime/lazy_run.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { parseRsc } from "./codec/parse_rsc.ts";
import { buildRscScene } from "./codec/rsc_scene.ts";
import type { decodeRsc } from "./decode_rsc.ts";

/** Parses the file and builds its scene. */
export const run: NodeRun<typeof decodeRsc> = async ({ inputs, params, ctx }) => {
  await loadPngEncoder();
  const file = inputs.bytes.name;
  const warn: WarningSink = (message, detail) => ctx.warn(message, { ...detail, file });
  const rsc = parseRsc(inputs.bytes.bytes, file, params.version, warn);
  const scene = buildRscScene(rsc, {
    scale: params.scale,
    interpolation: params.interpolation,
    maxFrames: params.max_frames,
    file,
  }, warn);
  return { scene };
};
