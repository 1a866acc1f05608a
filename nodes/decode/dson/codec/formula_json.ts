/**
 * The formula graph as it is written to `extras.partgraph.dson.formulas`: each operation a group —
 * `{push: 0.5}` for a number, `{key: [x, y, …]}` for a spline key, `{op: "mult"}` for an operator,
 * `{value: id}` and `{bone: key}` as they are — so a formula's list of operations holds groups
 * only. Blender 3.4 keeps a list that mixes numbers with text, lists or groups only as Python text,
 * the whole `partgraph` key with it, so a round trip through it lost every formula (export.gltf
 * v30 warns of such lists); the bare forms written before decode.dson v45 are still read.
 *
 * @module
 */
import type { JsonValue } from "../../../../runtime/node.ts";
import type { FormulaGraph, StoredChannel, StoredOperation } from "./formula_graph.ts";

/**
 * `graph` in its extras form (see the module doc).
 *
 * @example
 * ```ts
 * setPartgraphExtras(mesh, { dson: { formulas: formulaGraphJson(graph) } });
 * ```
 */
export function formulaGraphJson(graph: FormulaGraph): JsonValue {
  const channels = (record: Record<string, StoredChannel> | undefined) =>
    record &&
    Object.fromEntries(
      Object.entries(record).map(([key, channel]) => [key, {
        ...channel,
        ...(channel.formulas && {
          formulas: channel.formulas.map((f) => ({ ...f, ops: f.ops.map(operationJson) })),
        }),
      }]),
    );
  const out = {
    ...graph,
    channels: channels(graph.channels),
    ...(graph.poses && { poses: channels(graph.poses) }),
  };
  return JSON.parse(JSON.stringify(out)) as JsonValue;
}

/**
 * A mesh's `rig_centres` (the joint rest-frame channels its formulas move, `rig_formulas.ts`) in the
 * extras form: channels as {@link formulaGraphJson} writes them.
 *
 * @example
 * ```ts
 * out.rig_centres = rigCentresJson({ "bone1?center_point/y": { value: 10, formulas } });
 * ```
 */
export function rigCentresJson(channels: Readonly<Record<string, StoredChannel>>): JsonValue {
  const json = formulaGraphJson({ channels: { ...channels }, bones: {}, morphs: [] }) as {
    channels: JsonValue;
  };
  return json.channels;
}

/** One operation as a group. */
function operationJson(op: StoredOperation): JsonValue {
  if (typeof op === "number") return { push: op };
  if (Array.isArray(op)) return { key: op };
  if (typeof op === "string") return { op };
  return op;
}

/**
 * An operation read from extras in either form: a group written by {@link formulaGraphJson} is
 * unwrapped to the bare operation; anything else is returned as it is, for the caller to check.
 */
export function bareOperation(op: JsonValue): JsonValue {
  if (!op || typeof op !== "object" || Array.isArray(op)) return op;
  const keys = Object.keys(op);
  if (keys.length !== 1) return op;
  if (typeof op.push === "number") return op.push;
  if (Array.isArray(op.key)) return op.key;
  if (typeof op.op === "string") return op.op;
  return op;
}
