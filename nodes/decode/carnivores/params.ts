/**
 * Parameters the `.3df` and `.car` decoders share.
 *
 * @module
 */
import type { NumberParam } from "../../../runtime/node.ts";

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
