/**
 * DSON rigidity: decoding `rigidity` (weight map and `rigidity_group`s) and applying it when a morph
 * is baked. A group's participant (`mask_vertices`) vertices do not take the morph's shape; they
 * follow a transform fitted to how the group's `reference_vertices` moved — translation by the
 * centroid shift, rotation per `rotation_mode`, per-axis scale per `scale_modes` (measured after
 * removing the best-fit rotation) — blended with the plain morph by the rigidity weight. Daz's exact
 * fitting is undocumented; `docs/dson.md` gives the reading implemented, step by step, with its
 * sources (`carnivores-dson.md` B.10).
 *
 * @module
 */
import type { JsonValue } from "../../../../runtime/node.ts";
import type { JsonReader, JsonRecord } from "./read_json.ts";
export {
  applyRigidity,
  type AxisFrame,
  fitRigidTransform,
  FLAT,
  type RigidTransform,
  type SharedMaskVertices,
} from "./rigidity_apply.ts";

/** How a group's rigid transform rotates. */
export type RotationMode = "none" | "full" | "primary" | "secondary";
/** Which measured extent ratio scales a frame axis. */
export type ScaleMode = "none" | "primary" | "secondary" | "tertiary";

const ROTATION_MODES: readonly RotationMode[] = ["none", "full", "primary", "secondary"];
const SCALE_MODES: readonly ScaleMode[] = ["none", "primary", "secondary", "tertiary"];

/** One `rigidity_group`. */
export interface RigidityGroup {
  readonly id: string;
  readonly rotationMode: RotationMode;
  /** Scale mode of the frame's x, y and z axes. */
  readonly scaleModes: readonly [ScaleMode, ScaleMode, ScaleMode];
  /** Vertices whose motion defines the transform. */
  readonly referenceVertices: Int32Array;
  /** Participant vertices moved rigidly. */
  readonly maskVertices: Int32Array;
  /** URI of the reference node, if any. */
  readonly reference?: string;
  /** URIs of the nodes giving the transform's axis frame. */
  readonly transformNodes: readonly string[];
}

/** A geometry's `rigidity`. */
export interface DsonRigidity {
  /** Sparse per-vertex rigidity weights; absent means participants are fully rigid. */
  readonly weights?: { index: Int32Array; value: Float64Array };
  readonly groups: readonly RigidityGroup[];
}

/** Past any index an Int32Array holds: an index this large is malformed, not stale. */
const MAX_INDEX = 2 ** 31 - 1;

/**
 * Decodes a geometry's `rigidity` object (of geometry `id`). A group's vertex indices and weights
 * past `vertexCount` — a mesh reduced after its rigidity was made — are left out, one warning per
 * geometry counting them (before decode.dson v46, v47 for weights, a DecodeError for the whole scene); groups left
 * with participants and no reference vertex are named in one warning: nothing to fit their rigid
 * transform to, so their participants take projected morphs unprotected.
 */
export function decodeRigidity(
  value: JsonRecord,
  path: string,
  vertexCount: number,
  read: JsonReader,
  id = "",
): DsonRigidity {
  let stale = 0;
  let firstStale: { at: string; index: number } | undefined;
  const inMesh = (list: unknown, at: string): Int32Array => {
    const all = read.indexArray(list ?? [], at, MAX_INDEX);
    const kept = all.filter((v) => v < vertexCount);
    if (kept.length < all.length) {
      stale += all.length - kept.length;
      firstStale ??= { at, index: all.find((v) => v >= vertexCount)! };
    }
    return kept;
  };
  // The weight map goes stale with the groups (decode.dson v47; before, a DecodeError).
  let weights: { index: Int32Array; value: Float64Array } | undefined;
  if (value.weights !== undefined) {
    const all = read.indexedFloats(value.weights, `${path}/weights`, MAX_INDEX);
    const keep = Array.from(all.index.keys()).filter((k) => all.index[k] < vertexCount);
    if (keep.length < all.index.length) {
      stale += all.index.length - keep.length;
      firstStale ??= { at: `${path}/weights`, index: all.index.find((v) => v >= vertexCount)! };
    }
    weights = {
      index: Int32Array.from(keep.map((k) => all.index[k])),
      value: Float64Array.from(keep.map((k) => all.value[k])),
    };
  }
  const groups = read.optArray(value.groups, `${path}/groups`).map((item, i): RigidityGroup => {
    const at = `${path}/groups/${i}`;
    const group = read.object(item, at);
    const rotationMode =
      (read.optString(group.rotation_mode, `${at}/rotation_mode`) ?? "none") as RotationMode;
    if (!ROTATION_MODES.includes(rotationMode)) {
      read.fail(`${at}/rotation_mode`, `one of ${ROTATION_MODES.join(", ")}`, rotationMode);
    }
    // The spec makes scale_modes required and gives no default: none is a guess, said (decode.dson
    // v62; before, silently). An unsaid rotation_mode is the spec's default, none.
    if (group.scale_modes === undefined) {
      read.repair(
        `${at}/scale_modes`,
        "a rigidity group has no scale_modes, which the DSON spec requires and gives no default for; " +
          "read as none (its participants are not scaled as the reference vertices stretch)",
      );
    }
    const scaleJson = group.scale_modes === undefined
      ? ["none", "none", "none"]
      : read.array(group.scale_modes, `${at}/scale_modes`);
    if (scaleJson.length !== 3) read.fail(`${at}/scale_modes`, "3 scale modes", scaleJson);
    const scaleModes = scaleJson.map((mode, k) => {
      const text = read.string(mode, `${at}/scale_modes/${k}`) as ScaleMode;
      if (!SCALE_MODES.includes(text)) {
        read.fail(`${at}/scale_modes/${k}`, `one of ${SCALE_MODES.join(", ")}`, text);
      }
      return text;
    }) as [ScaleMode, ScaleMode, ScaleMode];
    return {
      id: read.string(group.id, `${at}/id`),
      rotationMode,
      scaleModes,
      referenceVertices: inMesh(group.reference_vertices, `${at}/reference_vertices`),
      maskVertices: inMesh(group.mask_vertices, `${at}/mask_vertices`),
      reference: read.optString(group.reference, `${at}/reference`),
      transformNodes: read.optArray(group.transform_nodes, `${at}/transform_nodes`)
        .map((uri, k) => read.string(uri, `${at}/transform_nodes/${k}`)),
    };
  });
  if (firstStale) {
    read.repair(
      firstStale.at,
      `${stale} vertex indices of the rigidity groups or weights of geometry '${id}' are past its ${vertexCount} ` +
        `vertices (the first, ${firstStale.index}: a mesh reduced after its rigidity was made); they are left out`,
    );
  }
  const unreferenced = groups.flatMap((
    g,
    i,
  ) => (!g.referenceVertices.length && g.maskVertices.length ? [i] : []));
  if (unreferenced.length) {
    read.repair(
      `${path}/groups/${unreferenced[0]}`,
      `${unreferenced.length} rigidity group(s) of geometry '${id}' have no reference vertex (${
        unreferenced.slice(0, 3).map((i) => `'${groups[i].id}'`).join(", ")
      }): nothing to fit their rigid transform to, so their participants take projected morphs unprotected`,
    );
  }
  return { weights, groups };
}

/** A group as kept in scene extras (DSON field names, plain arrays). */
export function rigidityGroupToJson(group: RigidityGroup): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {
    id: group.id,
    rotation_mode: group.rotationMode,
    scale_modes: [...group.scaleModes],
    reference_vertices: Array.from(group.referenceVertices),
    mask_vertices: Array.from(group.maskVertices),
    transform_nodes: [...group.transformNodes],
  };
  if (group.reference !== undefined) out.reference = group.reference;
  return out;
}

/**
 * Reads a group back from scene extras, or undefined (with the reason) when the extras were edited
 * into something unusable. Vertex indices must be below `vertexCount`.
 */
export function rigidityGroupFromJson(value: JsonValue, vertexCount: number): RigidityGroup | string {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "not an object";
  const indices = (list: JsonValue | undefined): Int32Array | undefined => {
    if (!Array.isArray(list)) return undefined;
    if (!list.every((i) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < vertexCount)) {
      return undefined;
    }
    return Int32Array.from(list as number[]);
  };
  const referenceVertices = indices(value.reference_vertices);
  const maskVertices = indices(value.mask_vertices);
  const rotationMode = value.rotation_mode as RotationMode;
  const scaleModes = value.scale_modes as ScaleMode[];
  if (!referenceVertices || !maskVertices) return "vertex indices missing or out of range";
  if (!ROTATION_MODES.includes(rotationMode)) return `bad rotation_mode ${String(rotationMode)}`;
  if (
    !Array.isArray(scaleModes) || scaleModes.length !== 3 || !scaleModes.every((m) => SCALE_MODES.includes(m))
  ) {
    return "bad scale_modes";
  }
  return {
    id: String(value.id),
    rotationMode,
    scaleModes: scaleModes as unknown as [ScaleMode, ScaleMode, ScaleMode],
    referenceVertices,
    maskVertices,
    reference: typeof value.reference === "string" ? value.reference : undefined,
    transformNodes: Array.isArray(value.transform_nodes) ? value.transform_nodes.map(String) : [],
  };
}
