/**
 * ERC formulas that move a figure's joint centres with its shape: a character or body morph
 * (Genesis's FBM/PBM morphs, every store character's shape) carries formulas whose output is a
 * bone's `center_point/x` or `end_point/y` (`lForearmBend:/data/…#lForearmBend?center_point/x`),
 * so the rig follows the shape and a bent elbow turns about the morphed elbow. Daz saves the dial,
 * not the centres it drives, so the decode works them out: each channel is its own value plus the
 * `sum` formulas, times the `mult` ones, as any driven channel.
 *
 * What is evaluated: pushes of numbers, spline keys and a modifier value of the same mesh (its value
 * as the decode's formula graph gives it, else its own dial when nothing drives it), and the
 * operators the formula graph runs (`add` … `div`, `neg`, `inv`, `spline_linear`, `spline_constant`,
 * `spline_tcb`: `formula_graph.ts`'s `runOperations`, the one the JCM morphs take), on
 * `center_point`, `end_point` and `orientation` (degrees, the rest frame's axes). A channel with any
 * other formula (a bone channel read, an alias, a value driven by a formula not evaluated) keeps its
 * written value and stays in the "not evaluated" warning.
 *
 * The moved channels are kept as stored formulas (the mesh's `rig_centres`: written value and
 * formulas by `nodeKey?center_point/x`), so `dson.apply_preset` and `dson.bake_morph` move the
 * joints again at new dials with {@link rigChannelValue} (`rig_recentre.ts`). A centre of a node that follows another (a fitted item's bone named as its body's)
 * changes nothing drawn: such a node takes its target's movement from rest (`conform_follow.ts`),
 * about the target's centre, whatever its own; its formulas are counted as evaluated and left. Before decode.dson v57 every such formula was left in that warning: the joints
 * stood at the base figure's centres under a morphed body.
 *
 * @module
 */
import type { DsonEntry } from "./dson_file.ts";
import type { BoneLookup, ModifierValue } from "./formula_eval.ts";
import { formulaKey } from "./formula_eval.ts";
import { literalOperation } from "./formula_compile.ts";
import { runOperations, type StoredChannel, type StoredOperation } from "./formula_graph.ts";
import type { TcbSpan } from "./formula_spline.ts";
import type { SceneNode } from "./model.ts";
import type { JsonRecord } from "./read_json.ts";
import { parseDsonUri } from "./uri.ts";

/** A rest-frame channel a formula may drive: `center_point/x` … `orientation/z`. */
const RIG_CHANNEL = /^(center_point|end_point|orientation)\/([xyz])(?:\/value)?$/;

/** A node's rest frame fields the formulas move (cm; orientation in degrees). */
export interface RigFrame {
  centerPoint: [number, number, number];
  endPoint: [number, number, number];
  orientation: [number, number, number];
}

/** The rest-frame fields of a {@link RigFrame} by the DSON property a formula names. */
export const RIG_FIELDS = {
  center_point: "centerPoint",
  end_point: "endPoint",
  orientation: "orientation",
} as const;

/** The centres formulas moved, by node index, and the formula keys evaluated. */
export interface RigResult {
  readonly nodes: Map<number, RigFrame>;
  readonly evaluated: Set<string>;
  /** The modifier values the moved centres read, by id. */
  readonly dials: Map<string, number>;
  /**
   * The channels moved as stored formulas, by `nodeKey?center_point/x`: the written value and the
   * formulas, for a preset or a bake to evaluate again ({@link rigChannelValue}).
   */
  readonly channels: Record<string, StoredChannel>;
}

/**
 * Evaluates the formulas of `values` (one mesh's modifiers) driving a joint centre, end point or
 * orientation of the mesh's figure, at the modifier values `valueOf` gives (the formula graph's;
 * undefined: not known there) or, for a modifier nothing drives (`driven` holds those some formula
 * does), its dial. Nodes in `moved` (another mesh's formulas moved them) are left alone. A
 * `spline_tcb` met between its keys goes in `offKeys` by formula key (the decode says so).
 *
 * @example
 * ```ts
 * const { nodes: moved, evaluated } = evaluateRigFormulas(values, bones, nodes.list, driven, done.channelValue);
 * ```
 */
export function evaluateRigFormulas(
  values: ReadonlyMap<string, ModifierValue>,
  bones: BoneLookup,
  nodes: readonly SceneNode[],
  driven: ReadonlySet<string>,
  valueOf: (id: string) => number | undefined = () => undefined,
  moved: ReadonlySet<number> = new Set(),
  offKeys: Map<string, TcbSpan> = new Map(),
): RigResult {
  // `nodeKey?kind/axis` → the node, its formulas and their keys (undefined: one is not evaluable).
  const channels = new Map<
    string,
    | { node: number; kind: keyof typeof RIG_FIELDS; axis: number; formulas: StoredChannel; keys: string[] }
    | undefined
  >();
  const dials = new Map<string, number>();
  const read = (id: string): number | undefined => {
    const value = valueOf(id) ?? (driven.has(id) ? undefined : values.get(id)?.value);
    if (value !== undefined) dials.set(id, value);
    return value;
  };
  const out: RigResult = { nodes: new Map(), evaluated: new Set(), dials, channels: {} };
  for (const { entry } of values.values()) {
    const formulas = entry.value.formulas;
    if (!Array.isArray(formulas)) continue;
    formulas.forEach((raw, k) => {
      const formula = raw && typeof raw === "object" ? raw as JsonRecord : undefined;
      if (typeof formula?.output !== "string") return;
      const uri = parseDsonUri(formula.output);
      const match = RIG_CHANNEL.exec(uri.propertyPath);
      if (!match) return;
      const id = uri.id.replace(/:$/, "");
      const bone = bones(id, "rotation/x");
      const key = `${bone?.key ?? id}?${match[1]}/${match[2]}`;
      if (channels.has(key) && channels.get(key) === undefined) return;
      // A node another mesh's formulas moved already: its sum is not known here (left as said).
      if (bone?.follows) return out.evaluated.add(formulaKey(entry, k));
      if (!bone || moved.has(bone.node)) return channels.set(key, undefined);
      const ops = compileRig(formula.operations, values);
      const stage = formula.stage === undefined || formula.stage === "sum"
        ? "sum"
        : formula.stage === "mult" || formula.stage === "multiply"
        ? "mult"
        : undefined;
      if (!ops || !stage) return channels.set(key, undefined);
      const kind = match[1] as keyof typeof RIG_FIELDS, axis = "xyz".indexOf(match[2]);
      const channel = channels.get(key) ??
        {
          node: bone.node,
          kind,
          axis,
          formulas: { value: nodes[bone.node][RIG_FIELDS[kind]][axis] },
          keys: [],
        };
      (channel.formulas.formulas ??= []).push({ stage, ops });
      channel.keys.push(formulaKey(entry, k));
      channels.set(key, channel);
    });
  }
  for (const [key, channel] of channels) {
    if (!channel) continue;
    let offKey: TcbSpan | undefined;
    const value = rigChannelValue(channel.formulas, read, (span) => offKey ??= span);
    if (value === undefined) continue;
    const node = nodes[channel.node];
    const frame = out.nodes.get(channel.node) ?? {
      centerPoint: [...node.centerPoint] as [number, number, number],
      endPoint: [...node.endPoint] as [number, number, number],
      orientation: [...node.orientation] as [number, number, number],
    };
    frame[RIG_FIELDS[channel.kind]][channel.axis] = value;
    out.nodes.set(channel.node, frame);
    out.channels[key] = channel.formulas;
    for (const k of channel.keys) out.evaluated.add(k);
    if (offKey) { for (const k of channel.keys) if (!offKeys.has(k)) offKeys.set(k, offKey); }
  }
  if (!out.nodes.size) dials.clear();
  return out;
}

/**
 * A stored rest-frame channel's value at the modifier values `read` gives: its written value plus
 * its `sum` formulas, times its `mult` ones; undefined when an input is unknown or the result is not
 * a finite number. `offKey` hears of a `spline_tcb` met between its keys.
 *
 * @example
 * ```ts
 * rigChannelValue({ value: 4, formulas: [{ stage: "sum", ops: [{ value: "FBMHeavy" }, 2, "mult"] }] }, () => 1); // 6
 * ```
 */
export function rigChannelValue(
  channel: StoredChannel,
  read: (id: string) => number | undefined,
  offKey: (span: TcbSpan) => void = () => {},
): number | undefined {
  let sum = channel.value, product = 1;
  for (const formula of channel.formulas ?? []) {
    const result = runOperations(formula.ops, read, () => undefined, offKey);
    if (result === undefined) return undefined;
    if (formula.stage === "sum") sum += result;
    else product *= result;
  }
  const value = sum * product;
  return Number.isFinite(value) ? value + 0 : undefined;
}

/** A modifier whose channel is an alias (its value is its target's: not read here). */
function isAlias(entry: DsonEntry): boolean {
  const channel = entry.value.channel;
  return !!channel && typeof channel === "object" && (channel as JsonRecord).type === "alias";
}

/**
 * A formula's operations in the stored form, or undefined when one is not of the forms read here:
 * numbers, spline keys, a value of one of the mesh's modifiers (no alias), the spec's operators.
 */
function compileRig(
  operations: unknown,
  values: ReadonlyMap<string, ModifierValue>,
): StoredOperation[] | undefined {
  if (!Array.isArray(operations)) return undefined;
  const ops: StoredOperation[] = [];
  for (const raw of operations) {
    const op = raw && typeof raw === "object" ? raw as JsonRecord : undefined;
    const literal = literalOperation(op);
    if (literal !== undefined) ops.push(literal);
    else if (op?.op === "push" && typeof op.url === "string") {
      const uri = parseDsonUri(op.url);
      if (uri.propertyPath.replace(/\/value$/, "") !== "value") return undefined;
      const id = uri.id.replace(/:$/, "");
      const own = values.get(id);
      if (!own || isAlias(own.entry)) return undefined;
      ops.push({ value: id });
    } else return undefined;
  }
  return ops;
}
