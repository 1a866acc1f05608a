/**
 * ERC formulas that drive a morph's value (a controller dialled to 1 moving its morphs, a bent
 * elbow driving its corrective, Daz's "pJCM" morphs) are compiled into the mesh's
 * {@link FormulaGraph} and evaluated at the decoded dials and pose (`formula_graph.ts` says how).
 * The property's own value joins the sum, as a Daz slider keeps its own dial beside what drives it.
 *
 * Formulas whose output is a bone channel of the mesh's own figure (a hand-grasp controller bending
 * the fingers: `#l_index1?rotation/z/value`) are compiled into the same graph and pose the bone: the
 * channel's value is its own plus the `sum` stages, times the `mult` ones, as a morph's.
 *
 * What compiles: pushes of numbers, of spline keys, of other modifiers' `?value` on the same mesh
 * and of a bone channel (`l_forearm:…#l_forearm?rotation/y/value`: rotation, translation, scale
 * x/y/z or general scale of a node of the mesh's own figure that only this mesh's modifiers'
 * formulas drive, if any), of the body a fitted item is fitted to (`formula_body.ts`; a channel
 * marked `auto_follow` that no formula drives reads the body's same-named one, `auto_follow.ts`), `add`, `sub`,
 * `mult`, `div`, `neg`, `inv`, `spline_linear`, `spline_constant` and `spline_tcb`. A morph with any formula beyond that (another
 * mesh's modifier, a node's orientation, an operator the spec does not name, a loop) keeps its
 * written value and stays in the "not evaluated" warning; so does
 * one whose formulas cannot be known at the decoded pose (a spline with two keys at one x). A
 * `spline_tcb` between its keys takes the DSON spec's Kochanek–Bartels reading, as keyed channels
 * (`formula_spline.ts`), warned.
 *
 * @module
 */
import type { DsonEntry } from "./dson_file.ts";
import {
  evaluateFormulaGraph,
  type FormulaGraph,
  type StoredChannel,
  type StoredFormula,
} from "./formula_graph.ts";
import type { ChannelLimit } from "./joint_limits.ts";
import type { BodyLookup } from "./formula_body.ts";
import { autoFollowers, type Unfollowed } from "./auto_follow.ts";
import { aliasEnd, aliasTarget, boneChannel, compile, range } from "./formula_compile.ts";
import { figureRoot, type Morph, type SceneNode } from "./model.ts";
import type { JsonRecord } from "./read_json.ts";
import type { TcbSpan } from "./formula_spline.ts";
import { parseDsonUri, percentDecode } from "./uri.ts";

/** A modifier applied to a mesh and its value there (the scene's dial, else the authored value). */
export interface ModifierValue {
  readonly entry: DsonEntry;
  readonly value: number;
  /** The scene instance's `auto_follow`, where it writes one (it overrides the definition's). */
  readonly autoFollow?: boolean;
}

/**
 * A bone channel a formula reads or drives (`rotation/y`, `scale/general`) resolved to a node: the
 * key and index of the node posed (a conforming item's bone stands for its target's), its value of
 * the channel, and whether the node named `follows` another (then a formula cannot pose it).
 */
export type BoneLookup = (
  id: string,
  channel: string,
) => { key: string; value: number; node: number; follows: boolean; limit?: ChannelLimit } | undefined;

/** A formula compiled, with the key ({@link formulaKey}) that takes it out of the warning. */
interface Compiled {
  readonly formula: StoredFormula;
  readonly key: string;
}

/** The key {@link evaluateMorphFormulas} returns for formula `k` of `entry`. */
export function formulaKey(entry: DsonEntry, k: number): string {
  return `${entry.file.source}\u0000${entry.path}/formulas/${k}`;
}

/**
 * A {@link BoneLookup} for a mesh owned by node `owner`: the node of that id in the owner's figure
 * (one only), and its pose value of the channel. A node that `follows` another (a conforming
 * item's bone, which takes its target bone's pose as in Daz) stands for that one: its value, and
 * its key, which is the node a preset poses.
 */
export function figureBones(
  nodes: readonly SceneNode[],
  owner: number,
  follows: ReadonlyMap<number, number> = new Map(),
): BoneLookup {
  const figure = figureRoot(nodes, owner);
  let byId: Map<string, number[]> | undefined; // the figure's nodes by id, made on first use
  return (id, channel) => {
    if (!byId) {
      byId = new Map();
      nodes.forEach((node, n) => {
        if (figureRoot(nodes, n) !== figure) return;
        for (const key of new Set([node.id, percentDecode(node.id)])) {
          byId!.set(key, [...(byId!.get(key) ?? []), n]);
        }
      });
    }
    const found = byId.get(id) ?? [];
    if (found.length !== 1) return undefined;
    const index = follows.get(found[0]) ?? found[0];
    // Read when asked, not when indexed: a formula may have posed the node since.
    const node = nodes[index];
    const [kind, axis] = channel.split("/");
    const value = axis === "general"
      ? node.generalScale
      : node[kind as "rotation" | "translation" | "scale"]["xyz".indexOf(axis)];
    const limit = node.limits && Object.hasOwn(node.limits, channel) ? node.limits[channel] : undefined;
    return { key: node.key, value, node: index, follows: follows.has(found[0]), ...(limit ? { limit } : {}) };
  };
}

/** Bone channels (`nodeKey?channel`) posed by formulas, by scene node index. */
export type FormulaPoses = Map<number, Map<string, number>>;

/**
 * Calls `each` for every formula of `entry` with a string `output`: the formula, the id and
 * property path it outputs, its index, and the bone channel when it drives one.
 */
function eachOutput(
  entry: DsonEntry,
  each: (formula: JsonRecord, id: string, property: string, k: number, channel?: string) => void,
  values?: ReadonlyMap<string, ModifierValue>,
): void {
  if (!Array.isArray(entry.value.formulas)) return;
  entry.value.formulas.forEach((formula, k) => {
    const output = formula && typeof formula === "object" ? (formula as JsonRecord).output : undefined;
    if (typeof output !== "string") return;
    let uri = parseDsonUri(output);
    // A formula driving an alias channel drives its target (a morph, or a bone channel), as Daz's
    // alias reflects it (decode.dson v39; before, the alias's own value was driven, and its target
    // stayed as written, silently).
    const isValue = uri.propertyPath.replace(/\/value$/, "") === "value";
    const end = values && isValue ? aliasEnd(uri.id.replace(/:$/, ""), values) : undefined;
    if (end) uri = { ...end, id: end.id.replace(/:$/, "") || end.nodePath.split("/").pop()! };
    each(formula as JsonRecord, uri.id.replace(/:$/, ""), uri.propertyPath, k, boneChannel(uri.propertyPath));
  });
}

/**
 * The bone channels (`nodeKey?channel`) formulas of `values` (one mesh's modifiers) can pose: a
 * node of the mesh's figure `bones` finds that follows no other. A channel two meshes pose is
 * left unknown in both (`foreign` of {@link evaluateMorphFormulas}).
 */
export function posedChannels(values: ReadonlyMap<string, ModifierValue>, bones: BoneLookup): Set<string> {
  const keys = new Set<string>();
  for (const { entry } of values.values()) {
    eachOutput(entry, (_, id, __, ___, channel) => {
      const bone = channel ? bones(id, channel) : undefined;
      if (bone && !bone.follows) keys.add(`${bone.key}?${channel}`);
    }, values);
  }
  return keys;
}

/** What {@link evaluateMorphFormulas} resolves a mesh's formulas against. */
export interface FormulaContext {
  /** The scene's node definitions: a value or bone their formulas drive is unknown. */
  readonly others?: Iterable<DsonEntry>;
  /** The bones of the mesh's figure. */
  readonly bones?: BoneLookup;
  /** `nodeKey?channel` of bone channels other meshes' formulas pose: unknown. */
  readonly foreign?: ReadonlySet<string>;
  /** The body the mesh's figure is fitted to, whose values its formulas may read. */
  readonly body?: BodyLookup;
  /** The DSON key of the mesh's figure (kept in the graph). */
  readonly figure?: string;
}

/** A driven bone channel its joint limits clamped: the value its formulas gave, and the one kept. */
export interface LimitedPose {
  readonly node: number;
  readonly channel: string;
  readonly from: number;
  readonly to: number;
  readonly limit: ChannelLimit;
}

/** The modifier ids (`#id?value`) the formulas of `values` drive. */
export function drivenValues(values: ReadonlyMap<string, ModifierValue>): Set<string> {
  const ids = new Set<string>();
  for (const { entry } of values.values()) {
    eachOutput(entry, (_, id, __, ___, channel) => channel || ids.add(id), values);
  }
  return ids;
}

/** A bone channel the formulas of a mesh drive, while they are compiled. */
interface DrivenPose {
  readonly node: number;
  readonly channel: string;
  readonly value: number;
  /** Its joint limits. */
  readonly limit?: ChannelLimit;
  /** Undefined: a formula driving it is not evaluable here. */
  formulas: Compiled[] | undefined;
  /** The modifier ids its formulas read. */
  readonly reads: Set<string>;
}

/**
 * Compiles the formulas of `values` (the modifiers applied to a mesh, by id) that drive morphs of
 * `morphs` or bone channels of the mesh's figure (a hand-grasp controller bending the fingers)
 * into a {@link FormulaGraph}, and sets each such morph's weight where the graph gives one at the
 * decoded dials and pose. A driven bone channel is `(own + Σ sums) · Π mults` like a morph, clamped
 * to its joint limits (returned in `limited` when that changed it); formulas
 * reading it read that, in dependency order (controller, finger, the finger's corrective). A value
 * or bone that a formula of `others` (the scene's node definitions) drives is unknown, and so is a
 * bone channel (`nodeKey?channel`) of `foreign`, which other meshes' formulas pose. A push of the
 * `body`'s value (a fitted item's follower morph) reads the body's (`formula_body.ts`). Returns the
 * keys ({@link formulaKey}) of the formulas evaluated, the graph when any morph or bone is driven,
 * the bone channels posed (by node index) for the caller to set, and the graph's channel values.
 *
 * @example
 * ```ts
 * const { evaluated, graph, poses } = evaluateMorphFormulas(parts.morphs, values, { others: definitions, bones });
 * ```
 */
export function evaluateMorphFormulas(
  morphs: Morph[],
  values: ReadonlyMap<string, ModifierValue>,
  context: FormulaContext = {},
): {
  evaluated: Set<string>;
  graph?: FormulaGraph;
  poses: FormulaPoses;
  limited: LimitedPose[];
  channelValue?: (id: string) => number | undefined;
  unfollowed: Unfollowed[];
  /** Formulas (by {@link formulaKey}) whose `spline_tcb` met an input between its keys (read as Kochanek–Bartels). */
  offKeys?: Map<string, TcbSpan>;
} {
  const { others = [], bones = () => undefined, foreign = new Set(), body, figure } = context;
  const driven = new Map<string, Compiled[] | undefined>(); // undefined: a formula not evaluable
  // `id?channel` of bone channels formulas drive that are not compiled here: read, they are unknown.
  const unknownBones = new Set<string>();
  // Formulas of `others` driving these values are not evaluated here, so what they drive is left as
  // written rather than driven by half its formulas.
  for (const entry of others) {
    eachOutput(entry, (_, id, __, ___, channel) => {
      driven.set(id, undefined);
      if (channel) unknownBones.add(`${id}?${channel}`);
    });
  }
  // The bone channels this mesh's modifiers drive, and which modifiers drive one they cannot pose.
  const poses = new Map<string, DrivenPose>();
  const posing = new Set<string>(); // modifiers driving a bone channel not posable here
  for (const [modifier, { entry }] of values) {
    eachOutput(entry, (_, id, __, ___, channel) => {
      if (!channel) return;
      const bone = bones(id, channel);
      if (!bone || bone.follows) {
        posing.add(modifier);
        unknownBones.add(`${id}?${channel}`);
        return;
      }
      const key = `${bone.key}?${channel}`;
      const pose = poses.get(key) ??
        { node: bone.node, channel, value: bone.value, limit: bone.limit, formulas: [], reads: new Set() };
      poses.set(key, pose);
      if (unknownBones.has(`${id}?${channel}`) || foreign.has(key)) pose.formulas = undefined;
    }, values);
  }
  const read = new Map<string, Set<string>>(); // the modifier ids each driven id reads
  const bonesRead: [string, number][] = [];
  const bodyRead = new Map<string, StoredChannel>(); // the body's channels read, by graph key
  const scope = { bones, unknownBones, foreign, poses, bonesRead, body, bodyRead };
  for (const { entry } of values.values()) {
    eachOutput(entry, (formula, id, property, k, channel) => {
      if (channel) {
        const bone = bones(id, channel);
        const pose = bone && !bone.follows ? poses.get(`${bone.key}?${channel}`) : undefined;
        if (!pose?.formulas) return;
        const compiled = compile(formula, values, { ...scope, reads: pose.reads });
        pose.formulas = compiled
          ? [...pose.formulas, { formula: compiled, key: formulaKey(entry, k) }]
          : undefined;
        return;
      }
      if (!values.has(id)) return;
      // A formula on another property of a modified value (`?value/min`) makes it unknowable.
      if (property.replace(/\/value$/, "") !== "value") return driven.set(id, undefined);
      const reads = read.get(id) ?? new Set<string>();
      read.set(id, reads);
      const compiled = compile(formula, values, { ...scope, reads });
      const list = driven.has(id) ? driven.get(id) : [];
      driven.set(
        id,
        compiled && list ? [...list, { formula: compiled, key: formulaKey(entry, k) }] : undefined,
      );
    }, values);
  }
  // Auto-follow channels no formula drives take the body's same-named value (`auto_follow.ts`).
  const { followers, unfollowed } = autoFollowers(values, driven, body);
  for (const [id, follower] of followers) {
    driven.set(id, [{ formula: follower.formula, key: follower.source }]);
    bodyRead.set(follower.key, follower.channel);
  }
  const morphIds = morphs.filter((morph) => driven.has(morph.id) && values.has(morph.id)).map((m) => m.id);
  if (!morphIds.length && !poses.size) {
    return { evaluated: new Set(), poses: new Map(), limited: [], unfollowed };
  }
  // The channels the driven morphs and bones reach, each once.
  const channels = new Map<string, StoredChannel>(bodyRead);
  const keys = new Map<string, string[]>();
  // A stack, not recursion: a hostile chain of controllers is as deep as the file is long.
  const pending = [...morphIds, ...[...poses.values()].flatMap((pose) => [...pose.reads])];
  while (pending.length) {
    const id = pending.pop()!;
    const own = values.get(id);
    if (channels.has(id) || !own) continue;
    // A follower's own dial is the body's value as Daz showed it: inherited, not added to.
    const value = followers.has(id) ? 0 : own.value;
    const channel: StoredChannel = { value, ...range(own.entry.value.channel) };
    if (posing.has(id)) channel.drives_bones = true;
    channels.set(id, channel);
    if (!driven.has(id)) continue;
    const compiled = driven.get(id);
    if (!compiled) {
      channel.unknown = true;
      continue;
    }
    channel.formulas = compiled.map((c) => c.formula);
    keys.set(id, compiled.map((c) => c.key));
    pending.push(...read.get(id) ?? []);
  }
  const graph: FormulaGraph = {
    channels: Object.fromEntries(channels),
    bones: Object.fromEntries(bonesRead),
    morphs: morphIds,
    ...(figure === undefined ? {} : { figure }),
  };
  // Aliases of the channels reached, for a preset that dials an alias rather than its target.
  const aliases = [...values.keys()].flatMap((id) => {
    const target = aliasTarget(id, values);
    return target !== undefined && channels.has(target) ? [[id, target] as const] : [];
  });
  if (aliases.length) graph.aliases = Object.fromEntries(aliases);
  if (poses.size) {
    graph.poses = Object.fromEntries(
      [...poses].map(([key, pose]) => [
        key,
        pose.formulas
          ? { value: pose.value, ...pose.limit, formulas: pose.formulas.map((c) => c.formula) }
          : { value: pose.value, ...pose.limit, unknown: true as const },
      ]),
    );
  }
  // A TCB spline met between its keys: both readings, by the formula's key (one per formula), for
  // the warning.
  const offKeys = new Map<string, TcbSpan>();
  const results = evaluateFormulaGraph(graph, (at, span) => {
    const key = at.kind === "value"
      ? keys.get(at.key)?.[at.index]
      : poses.get(at.key)?.formulas?.[at.index]?.key;
    if (key !== undefined && !offKeys.has(key)) offKeys.set(key, span);
  });
  const evaluated = new Set<string>();
  morphs.forEach((morph, m) => {
    const weight = results.morphs.get(morph.id);
    if (weight === undefined) return;
    morphs[m] = { ...morph, weight };
    for (const key of keys.get(morph.id) ?? []) evaluated.add(key);
  });
  const posed: FormulaPoses = new Map();
  const limited: LimitedPose[] = [];
  for (const [key, pose] of poses) {
    const value = results.poses.get(key);
    if (value === undefined) continue;
    posed.set(pose.node, (posed.get(pose.node) ?? new Map()).set(pose.channel, value));
    for (const { key: formula } of pose.formulas ?? []) evaluated.add(formula);
    const from = results.limited.get(key);
    if (from !== undefined && pose.limit) {
      limited.push({ node: pose.node, channel: pose.channel, from, to: value, limit: pose.limit });
    }
  }
  return { evaluated, graph, poses: posed, limited, channelValue: results.channelValue, unfollowed, offKeys };
}
