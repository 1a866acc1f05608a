/**
 * Formula graphs read back from scene extras (which anyone may have edited) and merged when a graft
 * joins its body's mesh: the stored form `formula_graph.ts` evaluates.
 *
 * @module
 */
import type { JsonValue } from "../../../../runtime/node.ts";
import { bareOperation } from "./formula_json.ts";
import { type FormulaGraph, OPERATORS, type StoredChannel } from "./formula_graph.ts";

/**
 * `value` read back as a {@link FormulaGraph} (from extras, which anyone may have edited), or
 * undefined when it is not one: a preset then leaves that mesh's morphs as they are. Operations
 * are read in either form `formula_json.ts` names.
 *
 * @example
 * ```ts
 * const graph = readFormulaGraph(getPartgraphExtras(mesh).dson?.formulas);
 * ```
 */
export function readFormulaGraph(value: JsonValue | undefined): FormulaGraph | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const { channels, bones, morphs, poses } = value as Record<string, JsonValue>;
  const isObject = (v: unknown): v is Record<string, JsonValue> =>
    !!v && typeof v === "object" && !Array.isArray(v);
  if (!isObject(channels) || !isObject(bones) || !Array.isArray(morphs)) return undefined;
  if (!morphs.every((m) => typeof m === "string")) return undefined;
  if (!Object.values(bones).every((b) => typeof b === "number")) return undefined;
  if (poses !== undefined && !isObject(poses)) return undefined;
  const { figure, aliases } = value as Record<string, JsonValue>;
  if (figure !== undefined && typeof figure !== "string") return undefined;
  if (
    aliases !== undefined &&
    (!isObject(aliases) || !Object.values(aliases).every((t) => typeof t === "string"))
  ) {
    return undefined;
  }
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, JsonValue>; // the preset changes it
  for (const channel of [...Object.values(copy.channels as object), ...Object.values(copy.poses ?? {})]) {
    if (!isObject(channel) || typeof channel.value !== "number") return undefined;
    if (channel.of !== undefined && (typeof channel.of !== "string" || typeof channel.id !== "string")) {
      return undefined;
    }
    if (channel.formulas === undefined) continue;
    if (!Array.isArray(channel.formulas)) return undefined;
    for (const formula of channel.formulas) {
      if (!isObject(formula) || (formula.stage !== "sum" && formula.stage !== "mult")) return undefined;
      if (!Array.isArray(formula.ops)) return undefined;
      formula.ops = formula.ops.map(bareOperation);
      if (!formula.ops.every(isOperation)) return undefined;
    }
  }
  return copy as unknown as FormulaGraph;
}

function isOperation(op: JsonValue): boolean {
  if (typeof op === "number") return true;
  if (typeof op === "string") return OPERATORS.has(op);
  if (Array.isArray(op)) return op.every((v) => typeof v === "number");
  if (!op || typeof op !== "object") return false;
  return typeof op.value === "string" || typeof op.bone === "string";
}

/**
 * The graphs of a graft merged into its target's: channels, bones and driven bones of both (the
 * target's first where both have one), morphs of both.
 */
export function mergeFormulaGraphs(graphs: readonly (FormulaGraph | undefined)[]): FormulaGraph | undefined {
  const present = graphs.filter((g) => g !== undefined);
  if (present.length <= 1) return present[0];
  // Maps, then own properties: an id such as `__proto__` is a key like any other.
  const channels = new Map<string, StoredChannel>(), bones = new Map<string, number>();
  const poses = new Map<string, StoredChannel>();
  const morphs = new Set<string>();
  for (const graph of present) {
    for (const [id, channel] of Object.entries(graph.channels)) {
      if (!channels.has(id)) channels.set(id, channel);
    }
    for (const [key, channel] of Object.entries(graph.poses ?? {})) {
      if (!poses.has(key)) poses.set(key, channel);
    }
    for (const [key, value] of Object.entries(graph.bones)) if (!bones.has(key)) bones.set(key, value);
    for (const id of graph.morphs) morphs.add(id);
  }
  const figure = present.find((g) => g.figure !== undefined)?.figure;
  return {
    channels: Object.fromEntries(channels),
    bones: Object.fromEntries(bones),
    morphs: [...morphs],
    ...(poses.size ? { poses: Object.fromEntries(poses) } : {}),
    ...(figure === undefined ? {} : { figure }),
  };
}
