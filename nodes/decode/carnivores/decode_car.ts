/**
 * `decode.car` — a Carnivores `.car` character (mesh, texture, animations, sounds) to a scene with
 * one morph-target animation per clip. Sounds have no place in glTF: their names and sizes are kept
 * in `extras.partgraph.carnivores.sounds`, their PCM is not carried.
 *
 * @module
 */
import { lazyRun } from "../../../runtime/lazy_run.ts";
import { defineNode } from "../../../runtime/node.ts";
import { SCALE_PARAM } from "./params.ts";
import { MAX_MORPH_FRAMES } from "./codec/morph_clips.ts";

/** `decode.car` node definition. */
export const decodeCar = defineNode({
  type: "decode.car",
  version: 7,
  doc: "Decodes a Carnivores .car character: mesh and texture like decode.3df, and each animation as " +
    "morph targets (one per distinct frame) driven by one glTF animation per clip, timed like the game.",
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
    max_frames: {
      type: "number",
      integer: true,
      default: MAX_MORPH_FRAMES,
      min: 2,
      max: MAX_MORPH_FRAMES,
      doc: "Most frames in all that become keyframes; clips holding more are resampled to their share " +
        "(evenly spaced frames, first and last kept, timed as stored), with a warning. Viewers hold " +
        "frames × morph targets weights: Blender 3.4 imports 2000 distinct frames in ~18 s, 500 in ~3 s.",
    },
  },
  run: lazyRun(new URL("./decode_car_run.ts", import.meta.url)),
});
