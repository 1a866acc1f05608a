/**
 * ERC formulas that move a figure's joint centres with its shape: a character or body morph
 * (Genesis's FBM/PBM morphs, every store character's shape) carries formulas whose output is a
 * bone's `center_point/x` or `end_point/y` (`lForearmBend:/data/…#lForearmBend?center_point/x`),
 * so the rig follows the shape and a bent elbow turns about the morphed elbow. Daz saves the dial,
 * not the centres it drives, so the decode works them out: each channel is its own value plus the
 * `sum` formulas, times the `mult` ones, as any driven channel.
 *
 * What is evaluated: pushes of numbers and of a modifier value of the same mesh (its value as the
 * decode's formula graph gives it, else its own dial when nothing drives it), and `add`, `sub`,
 * `mult`, `div`. A channel with any other formula (a spline, a bone channel read, an alias, a value
 * driven by a formula not evaluated) keeps its written value and stays in the "not evaluated"
 * warning. A centre of a node that follows another (a fitted item's bone named as its body's)
 * changes nothing drawn: such a node takes its target's movement from rest (`conform_follow.ts`),
 * about the target's centre, whatever its own; its formulas are counted as evaluated and left. Before decode.dson v57 every such formula was left in that warning: the joints
 * stood at the base figure's centres under a morphed body.
 *
 * @module
 */
import type { DsonEntry } from "./dson_file.ts";
import type { BoneLookup, ModifierValue } from "./formula_eval.ts";
import { formulaKey } from "./formula_eval.ts";
import type { SceneNode } from "./model.ts";
import type { JsonRecord } from "./read_json.ts";
import { parseDsonUri } from "./uri.ts";

/** A rest-frame channel a formula may drive: `center_point/x` … `end_point/z`. */
const RIG_CHANNEL = /^(center_point|end_point)\/([xyz])(?:\/value)?$/;

/** The centres formulas moved, by node index, and the formula keys evaluated. */
export interface RigResult {
  readonly nodes: Map<number, { centerPoint: [number, number, number]; endPoint: [number, number, number] }>;
  readonly evaluated: Set<string>;
  /** The modifier values the moved centres read, by id. */
  readonly dials: Map<string, number>;
}

/**
 * Evaluates the formulas of `values` (one mesh's modifiers) driving a joint centre or end point of
 * the mesh's figure, at the modifier values `valueOf` gives (the formula graph's; undefined: not
 * known there) or, for a modifier nothing drives (`driven` holds those some formula does), its dial.
 * Nodes in `moved` (another mesh's formulas moved them) are left alone.
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
): RigResult {
  // `node?kind/axis` → its formulas' results (undefined: one is not evaluable) and their keys.
  const channels = new Map<
    string,
    { node: number; kind: string; axis: number; sum: number; product: number; keys: string[] } | undefined
  >();
  const dials = new Map<string, number>();
  const read = (id: string): number | undefined => {
    const own = values.get(id);
    if (!own || isAlias(own.entry)) return undefined;
    const value = valueOf(id) ?? (driven.has(id) ? undefined : own.value);
    if (value !== undefined) dials.set(id, value);
    return value;
  };
  const out: RigResult = { nodes: new Map(), evaluated: new Set(), dials };
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
      const key = `${bone?.node ?? id}?${match[1]}/${match[2]}`;
      if (channels.has(key) && channels.get(key) === undefined) return;
      // A node another mesh's formulas moved already: its sum is not known here (left as said).
      if (bone?.follows) return out.evaluated.add(formulaKey(entry, k));
      if (!bone || moved.has(bone.node)) return channels.set(key, undefined);
      const result = run(formula.operations, read);
      const stage = formula.stage === undefined || formula.stage === "sum"
        ? "sum"
        : formula.stage === "mult" || formula.stage === "multiply"
        ? "mult"
        : undefined;
      if (result === undefined || !stage) return channels.set(key, undefined);
      const channel = channels.get(key) ??
        { node: bone.node, kind: match[1], axis: "xyz".indexOf(match[2]), sum: 0, product: 1, keys: [] };
      if (stage === "sum") channel.sum += result;
      else channel.product *= result;
      channel.keys.push(formulaKey(entry, k));
      channels.set(key, channel);
    });
  }
  for (const channel of channels.values()) {
    if (!channel) continue;
    const node = nodes[channel.node];
    const moved = out.nodes.get(channel.node) ??
      {
        centerPoint: [...node.centerPoint] as [number, number, number],
        endPoint: [...node.endPoint] as [number, number, number],
      };
    const target = channel.kind === "center_point" ? moved.centerPoint : moved.endPoint;
    const value = (target[channel.axis] + channel.sum) * channel.product;
    if (!Number.isFinite(value)) continue;
    target[channel.axis] = value;
    out.nodes.set(channel.node, moved);
    for (const key of channel.keys) out.evaluated.add(key);
  }
  if (!out.nodes.size) dials.clear();
  return out;
}

/** A modifier whose channel is an alias (its value is its target's: not read here). */
function isAlias(entry: DsonEntry): boolean {
  const channel = entry.value.channel;
  return !!channel && typeof channel === "object" && (channel as JsonRecord).type === "alias";
}

/** The value of a formula's operations, or undefined when one is not of the forms read here. */
function run(operations: unknown, read: (id: string) => number | undefined): number | undefined {
  if (!Array.isArray(operations)) return undefined;
  const stack: number[] = [];
  for (const raw of operations) {
    const op = raw && typeof raw === "object" ? raw as JsonRecord : undefined;
    if (op?.op === "push" && typeof op.val === "number" && Number.isFinite(op.val)) stack.push(op.val);
    else if (op?.op === "push" && typeof op.url === "string") {
      const uri = parseDsonUri(op.url);
      if (uri.propertyPath.replace(/\/value$/, "") !== "value") return undefined;
      const value = read(uri.id.replace(/:$/, ""));
      if (value === undefined) return undefined;
      stack.push(value);
    } else if (op?.op === "add" || op?.op === "sub" || op?.op === "mult" || op?.op === "div") {
      if (stack.length < 2) return undefined;
      const b = stack.pop()!, a = stack.pop()!;
      stack.push(op.op === "add" ? a + b : op.op === "sub" ? a - b : op.op === "mult" ? a * b : a / b);
    } else return undefined;
  }
  return stack.length === 1 && Number.isFinite(stack[0]) ? stack[0] : undefined;
}
