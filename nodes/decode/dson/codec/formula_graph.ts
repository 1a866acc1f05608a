/**
 * The ERC formulas of one mesh in a form that outlives the decode: the modifier channels they read
 * and drive (own dial, clamp range, compiled formulas), the bone channels they read (pose values,
 * degrees for rotations, as Daz stores them) and the morphs they give a weight. `decode.dson`
 * evaluates it at the decoded dials and pose and keeps it in the mesh's
 * `extras.partgraph.dson.formulas`; `dson.apply_preset` changes the dials and pose a preset sets and
 * evaluates it again, so a dialled controller moves its morphs and a bent elbow drives its
 * corrective. Plain JSON, so it survives a cache round trip and a glTF export.
 *
 * Evaluation is the DSON spec's `formula`: each formula's operations in Reverse Polish Notation, the
 * top of the stack the result; `sum` formulas add to the channel's own value and `mult` ones scale
 * the sum; a `clamped` channel is kept in its range. `neg` and `inv` replace the top of the stack by
 * −n and 1/n (the spec's operation table; before decode.dson v33 they, and `spline_constant`, left
 * what they drive at its written value). A spline (`spline_linear`, `spline_constant`, `spline_tcb`)
 * pops its key count, then that many keys `[x, y, …]`, then its input: `spline_linear` interpolates
 * between the keys' `(x, y)` and holds the end keys' `y` beyond them; `spline_constant` holds each
 * key's `y` up to the next key (a step), the first key's before it. `spline_tcb` is its keys on
 * them and holds its end keys past them, where the open-source readers agree; between keys it is
 * the DSON spec's Kochanek–Bartels curve, each knot with its own tension, continuity and bias, the
 * curve of a keyed channel's TCB keys (`formula_spline.ts`), and the caller is told the other
 * readers' values for its warning.
 *
 * @module
 */
import { isKey, splineAt, type TcbSpan } from "./formula_spline.ts";

/**
 * One stored operation: a number or a spline key (`[x, y, …]`) pushed, a modifier's value
 * (`{value: id}`), a bone channel (`{bone: "nodeKey?rotation/y"}`), or an operator.
 */
export type StoredOperation =
  | number
  | number[]
  | { value: string }
  | { bone: string }
  | "add"
  | "sub"
  | "mult"
  | "div"
  | "neg"
  | "inv"
  | "spline_linear"
  | "spline_constant"
  | "spline_tcb";

/** One compiled formula driving a channel. */
export interface StoredFormula {
  stage: "sum" | "mult";
  ops: StoredOperation[];
}

/** A modifier channel the formulas read or drive. */
export interface StoredChannel {
  /** Its own dial (the scene's, else the authored value; a preset's once applied). */
  value: number;
  /** The range of a `clamped` channel (a driven bone's: its joint limits). */
  min?: number;
  max?: number;
  /** The formulas driving it (absent: none). */
  formulas?: StoredFormula[];
  /** Driven by a formula that cannot be evaluated here: its value is unknown. */
  unknown?: true;
  /**
   * A modifier of the body the mesh's figure is fitted to (`formula_body.ts`): that figure's DSON
   * key, and `id` the modifier's id there. Its value is the body's, refreshed by a preset.
   */
  of?: string;
  id?: string;
  /**
   * It also drives bones through formulas that are not evaluated (a bone of no figure here, or one
   * formulas elsewhere also drive); those it drives through {@link FormulaGraph.poses} are.
   */
  drives_bones?: true;
}

/** The formulas of one mesh (see the module doc). */
export interface FormulaGraph {
  /** Modifier channels by modifier id. */
  channels: Record<string, StoredChannel>;
  /** Bone channel values read, by `nodeKey?rotation/y` (channels as presets name them). */
  bones: Record<string, number>;
  /** Morph ids of the mesh whose weight the formulas give. */
  morphs: string[];
  /**
   * Bone channels the formulas drive (a hand-grasp controller bending the fingers), by
   * `nodeKey?rotation/z`: the channel's own pose value (degrees for rotations) and its formulas.
   * A formula reading one of these reads its driven value, so a corrective follows a finger the
   * controller bends. Absent: none.
   */
  poses?: Record<string, StoredChannel>;
  /** The DSON key of the mesh's figure (what a fitted item's channels name in `of`). */
  figure?: string;
  /**
   * Alias channels of the mesh (DSON channel_alias) whose target is one of {@link channels}: alias
   * id → target id. A preset dialling the alias dials the target (decode.dson v35). Absent: none.
   */
  aliases?: Record<string, string>;
}

/** How many channels deep a chain of formulas is followed (see {@link evaluateFormulaGraph}). */
export const MAX_DEPTH = 1000;

/** The operators a {@link StoredOperation} may name. */
export const OPERATORS: ReadonlySet<string> = new Set([
  "add",
  "sub",
  "mult",
  "div",
  "neg",
  "inv",
  "spline_linear",
  "spline_constant",
  "spline_tcb",
]);

/**
 * The value of each morph of `graph.morphs` and of each bone channel of `graph.poses` (its own
 * value with its formulas applied): undefined where an input is unknown, a loop, a chain of
 * controllers deeper than {@link MAX_DEPTH}, a spline with two keys at one x, or the result is not a finite
 * number. Bones and morphs are evaluated in the order their inputs need: a controller, then the
 * finger it bends, then the corrective reading that finger.
 *
 * @example
 * ```ts
 * const { morphs, poses } = evaluateFormulaGraph(graph);
 * morphs.get("pJCMForeArmFwd_135_L"); // 1 with the forearm bent to -135°
 * poses.get("l_index1?rotation/z"); // -40 with the grasp controller at 0.5
 * ```
 */
export function evaluateFormulaGraph(
  graph: FormulaGraph,
  offKey: (at: OffKey, span: TcbSpan) => void = () => {},
): FormulaValues {
  const poses = graph.poses ?? {};
  // Modifier ids and bone keys are two namespaces, each with its own memo and loop check.
  const namespace = () => ({
    memo: new Map<string, number | undefined>(),
    visiting: new Set<string>(),
    limited: new Map<string, number>(),
  });
  const modifiers = namespace(), driven = namespace();
  let depth = 0;
  const evaluate = (
    key: string,
    channel: StoredChannel | undefined,
    { memo, visiting, limited }: typeof modifiers,
  ): number | undefined => {
    if (memo.has(key)) return memo.get(key);
    // A loop: Daz breaks it somewhere we cannot tell.
    // Past MAX_DEPTH channels deep (no Daz figure comes near), unknown rather than a stack overflow.
    if (!channel || channel.unknown || visiting.has(key) || depth >= MAX_DEPTH) return undefined;
    if (!Number.isFinite(channel.value)) return undefined;
    visiting.add(key);
    depth++;
    let sum = channel.value;
    let product = 1;
    let known = true;
    for (const [index, formula] of (channel.formulas ?? []).entries()) {
      const kind = memo === modifiers.memo ? "value" as const : "bone" as const;
      const result = runOperations(
        formula.ops,
        valueOf,
        boneOf,
        (span) => offKey({ kind, key, index }, span),
      );
      if (result === undefined) known = false;
      else if (formula.stage === "sum") sum += result;
      else product *= result;
    }
    visiting.delete(key);
    depth--;
    // The whole, own value and formulas, is kept in range: a controller cannot drive a limited
    // joint past its limit (see joint_limits.ts).
    const value = known ? clamp(sum * product, channel) + 0 : undefined; // + 0: no −0 weight
    if (value !== undefined && value !== sum * product) limited.set(key, sum * product);
    memo.set(key, value !== undefined && Number.isFinite(value) ? value : undefined);
    return memo.get(key);
  };
  const valueOf = (id: string) => evaluate(id, own(graph.channels, id), modifiers);
  const boneOf = (key: string): number | undefined => {
    const channel = own(poses, key);
    if (channel) return evaluate(key, channel, driven);
    const value = own(graph.bones, key);
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
  };
  const morphs = new Map(graph.morphs.map((id) => [id, valueOf(id)]));
  const posed = new Map(Object.keys(poses).map((key) => [key, boneOf(key)]));
  return { morphs, poses: posed, limited: driven.limited, channelValue: valueOf };
}

/**
 * Where a `spline_tcb` met an input between its keys: formula `index` of modifier channel `key`
 * (`kind` "value") or of driven bone channel `key` (`kind` "bone", a key of `poses`).
 */
export interface OffKey {
  readonly kind: "value" | "bone";
  readonly key: string;
  readonly index: number;
}

/** What {@link evaluateFormulaGraph} gives. */
export interface FormulaValues {
  /** Each morph's weight (undefined: unknown). */
  readonly morphs: Map<string, number | undefined>;
  /** Each driven bone channel's value (undefined: unknown), within its limits. */
  readonly poses: Map<string, number | undefined>;
  /** Driven bone channels their limits clamped: the value before the clamp. */
  readonly limited: Map<string, number>;
  /** Any modifier channel's value (a controller's too; undefined: unknown or not in the graph). */
  readonly channelValue: (id: string) => number | undefined;
}

/** `record[key]` when it is the record's own property (an id such as `__proto__` is a key too). */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Whether channel `id` of `graph` (a modifier id, or with `start` "bone" a key of `graph.poses`)
 * is, or reads through its formulas (at any depth), one of `channels` or one of the bone channels
 * `bones`: whether changing those can change it.
 *
 * @example
 * ```ts
 * readsAny(graph, "pJCMForeArmFwd_135_L", new Set(), new Set(["lForearmBend?rotation/y"])); // true
 * ```
 */
export function readsAny(
  graph: FormulaGraph,
  id: string,
  channels: ReadonlySet<string>,
  bones: ReadonlySet<string>,
  start: "value" | "bone" = "value",
): boolean {
  // A stack, not recursion: a hostile chain of controllers is as deep as the file is long. A
  // driven bone's formulas are followed too (a corrective reading a finger a controller bends).
  const poses = graph.poses ?? {};
  const seen = { value: new Set<string>(), bone: new Set<string>() };
  seen[start].add(id);
  const pending: ["value" | "bone", string][] = [[start, id]];
  while (pending.length) {
    const [kind, at] = pending.pop()!;
    if (kind === "value" && channels.has(at)) return true;
    const channel = kind === "value" ? own(graph.channels, at) : own(poses, at);
    for (const formula of channel?.formulas ?? []) {
      for (const op of formula.ops) {
        if (typeof op !== "object" || Array.isArray(op)) continue;
        if ("bone" in op && bones.has(op.bone)) return true;
        const [next, key] = "bone" in op ? ["bone" as const, op.bone] : ["value" as const, op.value];
        if (next === "bone" && !Object.hasOwn(poses, key)) continue;
        if (!seen[next].has(key)) {
          seen[next].add(key);
          pending.push([next, key]);
        }
      }
    }
  }
  return false;
}

/**
 * Runs RPN `ops`; undefined when an input is unknown or the stack does not fit (undefined by the spec).
 * The joint-centre formulas take it too (`rig_formulas.ts`). Example: `runOperations([2, 3, "mult"], …)` is 6.
 */
export function runOperations(
  ops: readonly StoredOperation[],
  valueOf: (id: string) => number | undefined,
  boneOf: (key: string) => number | undefined,
  offKey: (span: TcbSpan) => void,
): number | undefined {
  const stack: (number | number[])[] = [];
  const number = () => {
    const top = stack.pop();
    return typeof top === "number" ? top : undefined;
  };
  for (const op of ops) {
    if (typeof op === "number" || Array.isArray(op)) stack.push(op);
    else if (typeof op === "object" && "value" in op) {
      const value = valueOf(op.value);
      if (value === undefined) return undefined;
      stack.push(value);
    } else if (typeof op === "object" && "bone" in op) {
      const value = boneOf(op.bone);
      if (value === undefined) return undefined;
      stack.push(value);
    } else if (op === "neg" || op === "inv") {
      const n = number();
      if (n === undefined) return undefined;
      stack.push(op === "neg" ? -n : 1 / n);
    } else if (op === "spline_linear" || op === "spline_constant" || op === "spline_tcb") {
      const count = number();
      if (count === undefined || !Number.isInteger(count) || count < 1 || count > stack.length - 1) {
        return undefined;
      }
      const keys = stack.splice(stack.length - count, count);
      const input = number();
      if (input === undefined || !keys.every(isKey)) return undefined;
      const value = splineAt(op, keys as number[][], input, offKey);
      if (value === undefined) return undefined;
      stack.push(value);
    } else {
      const b = number(), a = number();
      if (a === undefined || b === undefined) return undefined;
      stack.push(op === "add" ? a + b : op === "sub" ? a - b : op === "mult" ? a * b : a / b);
    }
  }
  const top = stack[stack.length - 1];
  return typeof top === "number" ? top : undefined;
}

/** `value` within the channel's `min`/`max`. */
function clamp(value: number, channel: StoredChannel): number {
  return Math.min(channel.max ?? Infinity, Math.max(channel.min ?? -Infinity, value));
}
