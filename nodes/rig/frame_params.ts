/**
 * The `forward` and `up` parameters every frame-aware rig node declares, apart from the frame maths
 * in `frame.ts` so that declaring a node loads no geometry code.
 *
 * @module
 */
import type { EnumParam } from "../../runtime/node.ts";
import { AXES, type Axis } from "../../runtime/scene/source.ts";

/** Default forward axis. */
export const DEFAULT_FORWARD: Axis = "-Z";
/** Default up axis. */
export const DEFAULT_UP: Axis = "+Y";

/** The frame values a rig node accepts. */
export type FrameChoice = Axis | "auto";

/** The `forward` parameter every frame-aware rig node declares. */
export const FORWARD_PARAM: EnumParam = {
  type: "enum",
  values: ["auto", ...AXES],
  default: DEFAULT_FORWARD,
  doc:
    'The aircraft\'s nose direction in scene axes; "auto" uses the frame the decoder recorded, else finds it from the geometry.',
};

/** The `up` parameter every frame-aware rig node declares. */
export const UP_PARAM: EnumParam = {
  type: "enum",
  values: ["auto", ...AXES],
  default: DEFAULT_UP,
  doc:
    'The aircraft\'s up direction in scene axes; "auto" uses the frame the decoder recorded, else finds it from the geometry.',
};
