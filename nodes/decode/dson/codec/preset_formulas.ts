/**
 * A preset's values re-driving the ERC formulas `decode.dson` kept (`extras.partgraph.dson.formulas`
 * of each mesh, see `formula_graph.ts`): a controller the preset dials moves the morphs it drives,
 * and a bone the preset poses drives its correctives (Daz's "pJCM" morphs, which keep an elbow or a
 * knee from collapsing when bent), and a controller posing bones (a hand grasp bending the fingers)
 * gives them their driven pose, as Daz evaluates them once the preset is applied. The updated
 * dials and pose are written back, so a second preset starts from them.
 *
 * @module
 */
import { describeSpan } from "./formula_spline.ts";
import { formulaGraphJson } from "./formula_json.ts";
import type { Document, Mesh, Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras, isExtrasFlag, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { evaluateFormulaGraph, type FormulaGraph, readsAny } from "./formula_graph.ts";
import { readFormulaGraph } from "./formula_graph_read.ts";
import { describeClamp } from "./joint_limits.ts";
import { fewNames as few } from "./preset_morphs.ts";
import type { JointChannel } from "./preset_read.ts";
import { dsonKey } from "./preset_pose.ts";
import { percentDecode } from "./uri.ts";

/** The dials of a mesh outside the preset's figure: none. */
const NO_VALUES: ReadonlyMap<string, number> = new Map();

/** What {@link reevaluateFormulas} changed. */
export interface FormulaResult {
  /** Morph weights the formulas set (per mesh). */
  readonly morphs: number;
  /** The preset's morph-value targets that name a channel of the formulas (a controller). */
  readonly known: ReadonlySet<string>;
  /**
   * Bone channels the formulas pose at the preset's values, by the node's DSON key: those whose
   * inputs (or own value) the preset changed, for the caller to pose with the preset's own.
   */
  readonly poses: ReadonlyMap<string, ReadonlyMap<JointChannel, number>>;
}

/**
 * Sets each formula channel the preset names (`allValues`, by modifier id, on the meshes `inScope`) and each bone channel
 * it poses (`posed`, by the glTF nodes posed; a bone channel the formulas drive takes the preset's
 * value as its own, beside what drives it), evaluates every mesh's formulas again, sets the
 * weights they give and returns the bone channels they pose. Morphs and bones whose formulas
 * cannot be evaluated at the new values (an input not known) keep their weight or pose, in one
 * warning each; a TCB spline between its keys takes the DSON spec's Kochanek–Bartels reading,
 * warned with the other readers'.
 *
 * @example
 * ```ts
 * const { known } = reevaluateFormulas(doc, new Map([["CTRLBodyShape", 1]]), posed, warn);
 * ```
 */
export function reevaluateFormulas(
  doc: Document,
  allValues: ReadonlyMap<string, number>,
  posed: ReadonlyMap<Node, ReadonlyMap<JointChannel, number>>,
  warn: WarningSink,
  inScope: (mesh: Mesh) => boolean = () => true,
): FormulaResult {
  const pose = new Map<string, number>(); // `nodeKey?channel` → value
  for (const [node, values] of posed) {
    const key = dsonKey(node);
    if (key === undefined) continue;
    for (const [channel, value] of values) pose.set(`${key}?${channel}`, value);
  }
  const known = new Set<string>();
  const unknown: string[] = [], unknownBones: string[] = [], unreadable: string[] = [];
  const posing = new Set<string>(); // controllers dialled that also drive bones not evaluated
  const limited: string[] = []; // driven bone channels their joint limits clamped
  const offKeys: string[] = [], offKeySeen = new Set<string>(); // TCB splines met between their keys
  const poses = new Map<string, Map<JointChannel, number>>();
  let morphs = 0;
  // Bodies before the items fitted to them, which read the bodies' new values (`formula_body.ts`).
  const figureValues = new Map<string, Map<string, number>>();
  for (const { mesh, dson, graph } of byBodyFirst(doc, unreadable)) {
    // Another figure's mesh takes none of the preset's dials; its formulas still see the pose.
    const morphValues = withAliases(inScope(mesh) ? allValues : NO_VALUES, graph.aliases, known);
    const changed = { channels: new Set<string>(), bones: new Set<string>() };
    // Values the mesh reads from another figure's (a graft merged into its body reads its own).
    const fromBody = new Set(
      Object.values(graph.channels).flatMap((
        c,
      ) => (c.of === undefined || c.of === graph.figure ? [] : [c.id!])),
    );
    for (const [key, channel] of Object.entries(graph.channels)) {
      const id = channel.of === undefined ? key : channel.id!;
      const target = morphValues.has(id) ? id : percentDecode(id);
      if (channel.of !== undefined) {
        // The body's new value: evaluated with the body's formulas, else the preset's dial of it.
        const preset = morphValues.has(target) ? morphValues.get(target) : undefined;
        const value = figureValues.get(channel.of)?.get(id) ?? preset;
        if (preset !== undefined) known.add(target);
        if (value !== undefined && value !== channel.value) {
          channel.value = value;
          changed.channels.add(key);
        }
        continue;
      }
      if (!morphValues.has(target)) continue;
      known.add(target);
      // A value the item follows from its body is the body's: the preset dials the body, not the
      // item's own dial of that name (which would add to it).
      if (fromBody.has(id)) continue;
      channel.value = morphValues.get(target)!;
      if (channel.drives_bones) posing.add(target);
      changed.channels.add(key);
    }
    // A driven bone channel the preset sets keeps that as its own value, beside what drives it.
    for (const record of [graph.bones, graph.poses ?? {}]) {
      for (const key of Object.keys(record)) {
        if (!pose.has(key)) continue;
        if (typeof record[key] === "number") (record as Record<string, number>)[key] = pose.get(key)!;
        else (record[key] as { value: number }).value = pose.get(key)!;
        changed.bones.add(key);
      }
    }
    if (!changed.channels.size && !changed.bones.size) continue;
    // A TCB spline met between its keys: read as the spec's Kochanek–Bartels, said with the others, once per
    // formula of the figure (its meshes share the formulas), when the preset moved it (one it did not
    // move the decode said already).
    const results = evaluateFormulaGraph(graph, (at, span) => {
      const said = `${graph.figure ?? mesh.getName()}\n${at.kind}\n${at.key}\n${at.index}`;
      const moved = at.kind === "bone" && changed.bones.has(at.key) ||
        readsAny(graph, at.key, changed.channels, changed.bones, at.kind);
      if (!moved || offKeySeen.has(said)) return;
      offKeySeen.add(said);
      const name = at.kind === "value" ? at.key : at.key.replace("?", " ");
      offKeys.push(`${mesh.getName()}/${name}: ${describeSpan(span)}`);
    });
    if (graph.figure !== undefined) {
      const values = figureValues.get(graph.figure) ?? new Map<string, number>();
      figureValues.set(graph.figure, values);
      for (const [key, channel] of Object.entries(graph.channels)) {
        const value = channel.of === undefined ? results.channelValue(key) : undefined;
        if (value !== undefined && !values.has(key)) values.set(key, value);
      }
    }
    morphs += setDrivenWeights(mesh, graph, results.morphs, changed, unknown);
    for (const [key, value] of results.poses) {
      if (!changed.bones.has(key) && !readsAny(graph, key, changed.channels, changed.bones, "bone")) continue;
      const at = key.lastIndexOf("?");
      const [node, channel] = [key.slice(0, at), key.slice(at + 1) as JointChannel];
      if (value === undefined) unknownBones.push(`${node} ${channel}`);
      else poses.set(node, (poses.get(node) ?? new Map()).set(channel, value));
      const from = results.limited.get(key);
      const range = graph.poses?.[key];
      if (value !== undefined && from !== undefined && range) {
        limited.push(`${node} ${describeClamp(channel, from, value, range)}`);
      }
    }
    setPartgraphExtras(mesh, { dson: { ...dson, formulas: formulaGraphJson(graph) } });
  }
  if (offKeys.length) {
    warn(
      `dson preset: ${offKeys.length} ERC formula(s) met a spline_tcb input between its keys, where readers ` +
        `disagree; the DSON spec's Kochanek–Bartels reading is used: ${few(offKeys)}`,
    );
  }
  if (unknown.length) {
    warn(
      `dson preset: ${unknown.length} morph(s) driven by ERC formulas cannot be evaluated at the preset's values ` +
        `(an input not evaluated); they keep their weight: ${few(unknown)}`,
    );
  }
  if (unknownBones.length) {
    warn(
      `dson preset: ${unknownBones.length} bone channel(s) driven by ERC formulas cannot be evaluated at the ` +
        `preset's values (an input not evaluated, or a loop); they keep their ` +
        `pose: ${few(unknownBones)}`,
    );
  }
  if (limited.length) {
    warn(
      `dson preset: ${limited.length} bone channel(s) ERC formulas drive past the joint's limits (clamped: true) ` +
        `clamped to them, as Daz stops the joint there: ${few(limited)}`,
    );
  }
  if (posing.size) {
    warn(
      `dson preset: ${posing.size} controller(s) the preset dials also drive bones through ERC formulas that ` +
        `are not evaluated (a bone of no figure here, or a conforming item's, which follows its target); ` +
        `their morphs and other bones are: ${few([...posing])}`,
    );
  }
  if (unreadable.length) {
    warn(
      `dson preset: ${unreadable.length} mesh(es) carry extras.partgraph.dson.formulas that are not the ` +
        `formulas decode.dson writes; their morphs are not re-evaluated: ${few(unreadable)}`,
    );
  }
  return { morphs, known, poses };
}

/**
 * The meshes with formula graphs, ordered by how many fittings deep their figure is: a mesh whose
 * graph reads no other figure (`of`) first, then the items reading it, then the items fitted to
 * those (a belt fitted to a coat fitted to the body reads the coat's new values, whatever order the
 * scene lists them in). Meshes whose extras hold something else are named in `unreadable`.
 */
function byBodyFirst(
  doc: Document,
  unreadable: string[],
): { mesh: Mesh; dson: { [key: string]: JsonValue }; graph: FormulaGraph }[] {
  const out: { mesh: Mesh; dson: { [key: string]: JsonValue }; graph: FormulaGraph }[] = [];
  for (const mesh of doc.getRoot().listMeshes()) {
    const dson = getPartgraphExtras(mesh).dson as { [key: string]: JsonValue } | undefined;
    if (dson?.formulas === undefined) continue;
    const graph = readFormulaGraph(dson.formulas);
    if (graph) out.push({ mesh, dson, graph });
    else unreadable.push(mesh.getName());
  }
  // The figures each figure's graphs read (a graft merged into its body reads its own: not counted).
  const reads = new Map<string, Set<string>>();
  for (const { graph } of out) {
    if (graph.figure === undefined) continue;
    const set = reads.get(graph.figure) ?? new Set<string>();
    reads.set(graph.figure, set);
    for (const c of Object.values(graph.channels)) {
      if (c.of !== undefined && c.of !== graph.figure) set.add(c.of);
    }
  }
  const depths = new Map<string, number>();
  // The longest chain of reads below a figure, level by level (not recursion), capped at the figure
  // count: a loop of fitted items (warned by the decode) ends there.
  const depthOf = (figure: string): number => {
    let depth = 0;
    for (let level = new Set([figure]); depth <= reads.size; depth++) {
      level = new Set([...level].flatMap((f) => [...reads.get(f) ?? []]));
      if (!level.size) break;
    }
    return depth;
  };
  const depth = (graph: FormulaGraph) => {
    if (graph.figure === undefined) {
      // No figure recorded (an older decode): one level down if it reads any body.
      return Object.values(graph.channels).some((c) => c.of !== undefined) ? 1 : 0;
    }
    if (!depths.has(graph.figure)) depths.set(graph.figure, depthOf(graph.figure));
    return depths.get(graph.figure)!;
  };
  return out.map((m, i) => ({ m, i, d: depth(m.graph) })).sort((a, b) => a.d - b.d || a.i - b.i).map((x) =>
    x.m
  );
}

/**
 * Sets the weights `graph` gives the mesh's morphs (`weightsById`); names in `unknown` those it
 * cannot give that read what the preset `changed` (the others were said by the decode already).
 */
function setDrivenWeights(
  mesh: Mesh,
  graph: FormulaGraph,
  weightsById: ReadonlyMap<string, number | undefined>,
  changed: { channels: ReadonlySet<string>; bones: ReadonlySet<string> },
  unknown: string[],
): number {
  const dson = getPartgraphExtras(mesh).dson as { morphs?: { id?: unknown; graft_own?: unknown }[] };
  // A merged graft's own morph of the body's name, following nothing (decode.dson v26), is no
  // morph of the graph: the body's channel of that id does not drive it.
  const ids = Array.isArray(dson.morphs)
    ? dson.morphs.map((m) => (isExtrasFlag(m?.graft_own) ? undefined : String(m?.id)))
    : [];
  const weights = [...mesh.getWeights()];
  let set = 0;
  for (const [id, value] of weightsById) {
    // Every morph of the id: a graft merged into its body brings its own morph of the body's name,
    // its follower (auto-follow), which the merged graph's one channel of that id (the body's) drives.
    // One that follows nothing is marked `graft_own` and left out above.
    const at = ids.flatMap((other, k) => (other === id && k < weights.length ? [k] : []));
    if (!at.length) continue;
    if (value === undefined) {
      if (readsAny(graph, id, changed.channels, changed.bones)) unknown.push(`${mesh.getName()}/${id}`);
    } else {
      for (const k of at) weights[k] = value;
      set++;
    }
  }
  mesh.setWeights(weights);
  return set;
}

/**
 * The preset's values with an alias the graph lists (DSON channel_alias, which reflects its target)
 * dialling its target instead, unless the preset sets the target too; each alias so read is `known`.
 */
function withAliases(
  values: ReadonlyMap<string, number>,
  aliases: Record<string, string> | undefined,
  known: Set<string>,
): ReadonlyMap<string, number> {
  if (!aliases || !values.size) return values;
  let out: Map<string, number> | undefined;
  for (const [alias, target] of Object.entries(aliases)) {
    const key = values.has(alias)
      ? alias
      : values.has(percentDecode(alias))
      ? percentDecode(alias)
      : undefined;
    if (key === undefined) continue;
    known.add(key);
    if (values.has(target)) continue;
    out ??= new Map(values);
    out.set(target, values.get(key)!);
  }
  return out ?? values;
}
