/**
 * A rigid follower's fit options: the `rotation_mode` and `scale_modes` of its `rigidity_group`, the
 * vocabulary of geometry rigidity groups (`rigidity.ts`, docs/dson.md "Rigidity"). Daz writes both on
 * every rigid follow node; a follower whose group has `scale_modes` other than `none` grows with the
 * surface under it (a belt on a wider waist), one with `rotation_mode: none` slides without turning.
 *
 * A group that leaves them unsaid is read as the DSON spec reads any `rigidity_group`: `rotation_mode`
 * defaults to `none` (the spec's default: the follower slides with its reference vertices, unturned),
 * and `scale_modes`, which the spec makes required and gives no default, as `none` on every axis — a
 * guess, named in a warning at its JSON path. Before decode.dson v62 both were read as `full` / `none`
 * (turned, not scaled) silently, the reading v59 gave every follower.
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
  /**
   * The URI of the node whose axes the modes measure along (`transform_nodes[0]`, else `reference`;
   * `follower_frame.ts`); absent: the reference vertices' principal axes.
   */
  readonly frame?: string;
  /**
   * Where the decoded file names that node (`scene.duf at /scene/nodes/3/extra/0/rigidity_group/
   * transform_nodes/0`), for a warning when the scene lacks it; absent on modes read back from extras.
   */
  readonly frameAt?: string;
}

/**
 * Turned with its reference vertices, never scaled: what a follower record without modes holds
 * (`follow_parent.ts` records modes only when they are others), and what a bad value is read as.
 */
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
  const { rotation_mode: rotation, scale_modes: scales, transform_nodes: nodes, reference } = group as {
    rotation_mode?: unknown;
    scale_modes?: unknown;
    transform_nodes?: unknown;
    reference?: unknown;
  };
  // DSON: "If there are transform_nodes they are in the rotation order of those nodes. If there is
  // a reference node and no transform_nodes it uses the reference node's axis order."
  const first = Array.isArray(nodes) && typeof nodes[0] === "string" && nodes[0];
  const named = first ? nodes[0] : reference;
  const frame = typeof named === "string" && named !== ""
    ? { frame: named, frameAt: `${file.source} at ${path}/${first ? "transform_nodes/0" : "reference"}` }
    : {};
  // The spec's default for a rigidity_group that does not say (decode.dson v62; before, 'full').
  let rotationMode: RotationMode = "none";
  if (rotation !== undefined) {
    if (typeof rotation === "string" && ROTATIONS.includes(rotation)) rotationMode = rotation as RotationMode;
    else {
      rotationMode = DEFAULT_FOLLOWER_MODES.rotationMode;
      library.repaired(
        file,
        `${path}/rotation_mode`,
        `a rigid follower's rotation_mode is ${JSON.stringify(rotation)}, expected one of ` +
          `${ROTATIONS.join(", ")}; read as 'full'`,
      );
    }
  }
  let scaleModes = DEFAULT_FOLLOWER_MODES.scaleModes;
  if (scales === undefined) {
    library.repaired(
      file,
      `${path}/scale_modes`,
      "a rigid follower's rigidity_group has no scale_modes, which the DSON spec requires and gives no " +
        "default for; read as none (not scaled as the surface under it stretches)",
    );
  } else {
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
  return { rotationMode, scaleModes, ...frame };
}

/** Whether `modes` are the default reading (a follower turned and not scaled). */
export function isDefaultModes(modes: FollowerModes): boolean {
  return modes.rotationMode === "full" && modes.scaleModes.every((s) => s === "none");
}

/**
 * The modes a follower's record holds (`rotation_mode`, `scale_modes`, `frame`), or the default when
 * it holds none or others.
 */
export function recordedModes(rotation: unknown, scales: unknown, frame?: unknown): FollowerModes {
  const valid = typeof rotation === "string" && ROTATIONS.includes(rotation) && Array.isArray(scales) &&
    scales.length === 3 && scales.every((s) => SCALES.includes(s as string));
  return valid
    ? {
      rotationMode: rotation as RotationMode,
      scaleModes: [...scales] as unknown as FollowerModes["scaleModes"],
      ...(typeof frame === "string" ? { frame } : {}),
    }
    : DEFAULT_FOLLOWER_MODES;
}
