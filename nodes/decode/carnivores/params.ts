/**
 * Parameters the `.3df` and `.car` decoders share.
 *
 * @module
 */
import type { EnumParam, NumberParam } from "../../../runtime/node.ts";
import { MAX_MORPH_FRAMES } from "./codec/morph_clips.ts";

/**
 * Metres per file unit, inferred: the hunter (HUNTER1.CAR) is 124.6 file units tall, and taken as
 * 1.8 m that gives ≈ 0.0145 m per unit (formats/carnivores-dson.md §A.6). The files define no unit.
 */
export const METRES_PER_FILE_UNIT = 0.0145;

/** Default scene units per file unit: life size in metres, by {@link METRES_PER_FILE_UNIT}. */
export const DEFAULT_SCALE = METRES_PER_FILE_UNIT;

/** The `scale` parameter of both decoders. */
export const SCALE_PARAM: NumberParam = {
  type: "number",
  default: DEFAULT_SCALE,
  min: 1e-6,
  max: 1e6,
  doc: "Scene units per file unit. The default 0.0145 gives life size in metres (the hunter, 124.6 " +
    "file units tall, taken as 1.8 m); 1 keeps file units.",
};

/** The `interpolation` parameter of the decoders that make morph clips. */
export const INTERPOLATION_PARAM = {
  type: "enum",
  values: ["linear", "step"],
  default: "linear",
  doc: "Between frames: linear blends positions like the game; step holds each frame.",
} as const satisfies EnumParam;

/** The `max_frames` parameter of the decoders that make morph clips. */
export const MAX_FRAMES_PARAM: NumberParam = {
  type: "number",
  integer: true,
  default: MAX_MORPH_FRAMES,
  min: 2,
  max: MAX_MORPH_FRAMES,
  doc: "Most frames in all that become keyframes; clips holding more are resampled to their share " +
    "(evenly spaced frames, first and last kept, timed as stored), with a warning. Viewers hold " +
    "frames × morph targets weights: Blender 3.4 imports 2000 distinct frames in ~18 s, 500 in ~3 s.",
};
