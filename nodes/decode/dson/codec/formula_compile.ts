/**
 * Compiling one ERC formula of a mesh (`formula_eval.ts`) into stored operations
 * (`formula_graph.ts`): pushes of numbers, spline keys, the mesh's own modifiers' values, its
 * body's (`formula_body.ts`) and bone channels, and the spec's operators; anything else leaves the
 * formula uncompiled, so what it drives keeps its written value.
 *
 * @module
 */
import { bodyChannel, bodyChannelKey, type BodyLookup, readsBody } from "./formula_body.ts";
import type { BoneLookup, ModifierValue } from "./formula_eval.ts";
import { OPERATORS, type StoredChannel, type StoredFormula, type StoredOperation } from "./formula_graph.ts";
import type { JsonRecord } from "./read_json.ts";
import { parseDsonUri } from "./uri.ts";

/**
 * A bone channel of a formula's input or output (`rotation/y/value` → `rotation/y`,
 * `general_scale/value` → `scale/general`), as presets name it; undefined for other properties.
 */
export function boneChannel(propertyPath: string): string | undefined {
  const path = propertyPath.replace(/\/value$/, "");
  if (path === "general_scale" || path === "scale/general") return "scale/general";
  // Daz Studio's own channel names (`xrotate`, `YTranslate`, `zscale`), which aliases and some store
  // products write where the spec's form is `rotation/x` (decode.dson v39; before, not a bone channel).
  const named = /^([xyz])(rotate|translate|scale)$/i.exec(path);
  if (named) {
    const kind = { rotate: "rotation", translate: "translation", scale: "scale" }[named[2].toLowerCase()];
    return `${kind}/${named[1].toLowerCase()}`;
  }
  return /^(rotation|translation|scale)\/[xyz]$/.test(path) ? path : undefined;
}

/** What {@link compile} resolves inputs against and records them in. */
export interface CompileScope {
  readonly bones: BoneLookup;
  /** `id?channel` of bone channels driven by formulas not compiled here: unknown. */
  readonly unknownBones: ReadonlySet<string>;
  /** `nodeKey?channel` of bone channels other meshes' formulas pose: unknown. */
  readonly foreign: ReadonlySet<string>;
  /** Bone channels this mesh's formulas pose: read through the graph's `poses`. */
  readonly poses: ReadonlyMap<string, unknown>;
  /** The modifier ids the formula reads (added to). */
  readonly reads: Set<string>;
  /** The bone channels read and their values (added to). */
  readonly bonesRead: [string, number][];
  /** The body the mesh's figure is fitted to, if any. */
  readonly body?: BodyLookup;
  /** The body's channels read, by graph key (added to). */
  readonly bodyRead: Map<string, StoredChannel>;
}

/** Compiles a formula whose every operation is evaluable here; undefined otherwise. */
export function compile(
  formula: JsonRecord,
  values: ReadonlyMap<string, ModifierValue>,
  scope: CompileScope,
): StoredFormula | undefined {
  const stage = formula.stage === undefined || formula.stage === "sum"
    ? "sum"
    : formula.stage === "mult" || formula.stage === "multiply"
    ? "mult"
    : undefined;
  if (!stage || !Array.isArray(formula.operations)) return undefined;
  const ops: StoredOperation[] = [];
  for (const raw of formula.operations) {
    const op = raw && typeof raw === "object" ? raw as JsonRecord : undefined;
    const literal = literalOperation(op);
    if (literal !== undefined) ops.push(literal);
    else if (op?.op === "push" && typeof op.url === "string") {
      const uri = throughAliases(parseDsonUri(op.url), values);
      if (!uri) return undefined;
      const id = uri.id.replace(/:$/, "");
      const channel = boneChannel(uri.propertyPath);
      const isValue = uri.propertyPath.replace(/\/value$/, "") === "value";
      if (isValue && readsBody(uri, id, values.has(id), scope.body)) {
        // The body's value, as Daz shows it; unknown there, unknown here.
        const value = scope.body!.value(id);
        if (value === undefined) return undefined;
        const key = bodyChannelKey(scope.body!.figure, id);
        scope.bodyRead.set(key, bodyChannel(scope.body!, id, value));
        ops.push({ value: key });
      } else if (isValue && values.has(id)) {
        ops.push({ value: id });
        scope.reads.add(id);
      } else if (channel && !scope.unknownBones.has(`${id}?${channel}`)) {
        const bone = scope.bones(id, channel);
        const key = bone && `${bone.key}?${channel}`;
        if (!bone || !key || scope.foreign.has(key)) return undefined;
        ops.push({ bone: key });
        // A channel this mesh's formulas pose is read at its driven value, from the graph's poses.
        if (!scope.poses.has(key)) scope.bonesRead.push([key, bone.value]);
      } else return undefined;
    } else return undefined;
  }
  return { stage, ops };
}

/**
 * A formula operation that reads nothing, in the stored form: a number or a spline key
 * (`[x, y, tension, continuity, bias]`) pushed, or an operator; undefined for anything else.
 */
export function literalOperation(op: JsonRecord | undefined): StoredOperation | undefined {
  if (op?.op === "push" && typeof op.val === "number" && Number.isFinite(op.val)) return op.val;
  if (
    op?.op === "push" && Array.isArray(op.val) && op.val.length >= 2 &&
    op.val.every((v) => typeof v === "number" && Number.isFinite(v))
  ) {
    return [...op.val as number[]];
  }
  // An operator carrying its own operands (`{op: "spline_tcb", val: […]}`) is no form the spec or
  // Diffeomorphic reads: its keys come from the stack.
  if (typeof op?.op === "string" && OPERATORS.has(op.op) && op.val === undefined && op.url === undefined) {
    return op.op as StoredOperation;
  }
  return undefined;
}

/**
 * The modifier of the mesh that alias `id` stands for, through chains of aliases; undefined when
 * `id` is no alias, or its target is no modifier value of the mesh (a bone channel, a loop).
 */
export function aliasTarget(id: string, values: ReadonlyMap<string, ModifierValue>): string | undefined {
  const channel = values.get(id)?.entry.value.channel;
  if (!channel || typeof channel !== "object" || (channel as JsonRecord).type !== "alias") return undefined;
  const uri = throughAliases({ ...parseDsonUri(`#${id}?value`) }, values);
  const target = uri?.id.replace(/:$/, "");
  const isValue = uri !== undefined && uri.propertyPath.replace(/\/value$/, "") === "value";
  return isValue && target !== id && values.has(target!) ? target : undefined;
}

/**
 * Where alias `id` ends once chains of aliases are followed: the parsed URI of the last target (a
 * modifier's value or a bone channel); undefined when `id` is no alias, or for a loop or a chain
 * without a target.
 */
export function aliasEnd(
  id: string,
  values: ReadonlyMap<string, ModifierValue>,
): ReturnType<typeof parseDsonUri> | undefined {
  const channel = values.get(id)?.entry.value.channel;
  if (!channel || typeof channel !== "object" || (channel as JsonRecord).type !== "alias") return undefined;
  return throughAliases({ ...parseDsonUri(`#${id}?value`) }, values);
}

/** How many aliases of aliases are followed before a chain is taken for a loop. */
const MAX_ALIASES = 16;

/**
 * The channel `uri` reads once aliases are followed: a modifier of the mesh whose channel is an
 * alias (`"type": "alias"`, `target_channel`: the DSON spec's channel_alias, which "simply reflects
 * the target_channel properties and values") stands for its target, another modifier's value or a
 * bone channel. Undefined for a loop of aliases or one without a target (the formula is then not
 * compiled, and what it drives is warned). Before decode.dson v34 a formula read the alias's own
 * value, its default 0, whatever its target was dialled to, silently.
 */
function throughAliases(
  uri: ReturnType<typeof parseDsonUri>,
  values: ReadonlyMap<string, ModifierValue>,
): ReturnType<typeof parseDsonUri> | undefined {
  for (let depth = 0; depth <= MAX_ALIASES; depth++) {
    const id = uri.id.replace(/:$/, "");
    const isValue = uri.propertyPath.replace(/\/value$/, "") === "value";
    const channel = isValue ? values.get(id)?.entry.value.channel : undefined;
    if (!channel || typeof channel !== "object" || (channel as JsonRecord).type !== "alias") return uri;
    const target = (channel as JsonRecord).target_channel;
    if (typeof target !== "string" || target === "") return undefined;
    uri = parseDsonUri(target);
  }
  return undefined;
}

/** The range of a `clamped` channel. */
export function range(channel: unknown): { min?: number; max?: number } {
  if (!channel || typeof channel !== "object") return {};
  const { clamped, min, max } = channel as JsonRecord;
  if (clamped !== true) return {};
  return {
    ...(typeof min === "number" && Number.isFinite(min) ? { min } : {}),
    ...(typeof max === "number" && Number.isFinite(max) ? { max } : {}),
  };
}
