/**
 * Parameters the `.3df` and `.car` decoders share.
 *
 * @module
 */
import type { NumberParam } from "../../../runtime/node.ts";

/** Default scene units per file unit: 1 keeps file units (their real-world size is unknown). */
export const DEFAULT_SCALE = 1;

/** The `scale` parameter of both decoders. */
export const SCALE_PARAM: NumberParam = {
  type: "number",
  default: DEFAULT_SCALE,
  min: 1e-6,
  max: 1e6,
  doc: "Scene units per file unit. The file unit is unknown: 1 keeps file units; ~0.0145 gives " +
    "metres if the hunter is 1.8 m tall.",
};
