/**
 * A rigid follower's fit options: the `rotation_mode` and `scale_modes` of its `rigidity_group`, the
 * vocabulary of geometry rigidity groups (`rigidity.ts`, docs/dson.md "Rigidity"). Daz writes both on
 * every rigid follow node; a follower whose group has `scale_modes` other than `none` grows with the
 * surface under it (a belt on a wider waist), one with `rotation_mode: none` slides without turning.
 *
 * A follower that writes neither is read as `full` / `none` (turned, not scaled), the reading
 * decode.dson v59 gave every follower, so such files decode as before.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonFile } from "./dson_file.ts";
import type { RotationMode, ScaleMode } from "./rigidity.ts";

/** A follower's rotation and per-axis scale modes. */
export interface FollowerModes {
  readonly rotationMode: RotationMode;
  readonly scaleModes: readonly [ScaleMode, ScaleMode, ScaleMode];
}

/** Turned with its reference vertices, never scaled: the reading for a follower that writes no modes. */
export const DEFAULT_FOLLOWER_MODES: FollowerModes = {
  rotationMode: "full",
  scaleModes: ["none", "none", "none"],
};

const ROTATIONS: readonly string[] = ["none", "full", "primary", "secondary"];
const SCALES: readonly string[] = ["none", "primary", "secondary", "tertiary"];

/**
 * The modes of the `rigidity_group` at `path` of `file`. A value outside the vocabulary is read as
 * the default for that field, with a warning at its path (expected vs found).
 *
 * @example
 * ```ts
 * followerModes({ rotation_mode: "none", scale_modes: ["primary", "primary", "primary"] }, file, at, library);
 * ```
 */
export function followerModes(
  group: unknown,
  file: DsonFile,
  path: string,
  library: ContentLibrary,
): FollowerModes {
  if (!group || typeof group !== "object") return DEFAULT_FOLLOWER_MODES;
  const { rotation_mode: rotation, scale_modes: scales } = group as {
    rotation_mode?: unknown;
    scale_modes?: unknown;
  };
  let rotationMode = DEFAULT_FOLLOWER_MODES.rotationMode;
  if (rotation !== undefined) {
    if (typeof rotation === "string" && ROTATIONS.includes(rotation)) rotationMode = rotation as RotationMode;
    else {
      library.repaired(
        file,
        `${path}/rotation_mode`,
        `a rigid follower's rotation_mode is ${JSON.stringify(rotation)}, expected one of ` +
          `${ROTATIONS.join(", ")}; read as 'full'`,
      );
    }
  }
  let scaleModes = DEFAULT_FOLLOWER_MODES.scaleModes;
  if (scales !== undefined) {
    if (Array.isArray(scales) && scales.length === 3 && scales.every((s) => SCALES.includes(s as string))) {
      scaleModes = scales as unknown as FollowerModes["scaleModes"];
    } else {
      library.repaired(
        file,
        `${path}/scale_modes`,
        `a rigid follower's scale_modes are ${JSON.stringify(scales)}, expected 3 of ` +
          `${SCALES.join(", ")}; read as none (not scaled)`,
      );
    }
  }
  return { rotationMode, scaleModes };
}

/** Whether `modes` are the default reading (a follower turned and not scaled). */
export function isDefaultModes(modes: FollowerModes): boolean {
  return modes.rotationMode === "full" && modes.scaleModes.every((s) => s === "none");
}

/** The modes a follower's record holds (`rotation_mode`, `scale_modes`), or the default when it holds none or others. */
export function recordedModes(rotation: unknown, scales: unknown): FollowerModes {
  const valid = typeof rotation === "string" && ROTATIONS.includes(rotation) && Array.isArray(scales) &&
    scales.length === 3 && scales.every((s) => SCALES.includes(s as string));
  return valid
    ? {
      rotationMode: rotation as RotationMode,
      scaleModes: [...scales] as unknown as FollowerModes["scaleModes"],
    }
    : DEFAULT_FOLLOWER_MODES;
}
