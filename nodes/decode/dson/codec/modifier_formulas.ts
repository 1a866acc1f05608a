/**
 * The ERC formulas of a load's meshes, evaluated once every modifier is applied: controllers and
 * bones driving morphs of the same mesh, controllers posing bones of its figure, and fitted items'
 * formulas reading their body's values (bodies first). Bone channels the formulas pose are set on the
 * scene's nodes; joint limits clamping them are one warning per mesh.
 *
 * @module
 */
import type { ModifierTargets } from "./load_modifiers.ts";
import { poseNode } from "./pose_node.ts";
import {
  type BoneLookup,
  drivenValues,
  evaluateMorphFormulas,
  figureBones,
  type LimitedPose,
  type ModifierValue,
  posedChannels,
} from "./formula_eval.ts";
import type { TcbSpan } from "./formula_spline.ts";
import { describeClamp } from "./joint_limits.ts";
import { BodyValues } from "./body_values.ts";
import { fittedChecks } from "./fitted_checks.ts";
import { evaluateRigFormulas } from "./rig_formulas.ts";

/**
 * Controllers and bones driving morphs of the same mesh, and controllers posing bones of its figure
 * (a hand grasp bending the fingers), at the dials and pose just read (see formula_eval.ts), and
 * shape morphs moving its joint centres (`rig_formulas.ts`). The
 * bones posed are set on the scene's nodes, as if the file had written those values. A bone channel
 * the formulas of two meshes pose is left to neither (warned). Returns the formulas evaluated; those
 * whose TCB spline met an input between its keys (read as the spec's Kochanek–Bartels) go in
 * `offKeys` with the other readings.
 *
 * @example
 * ```ts
 * const evaluated = evaluateFormulas(targets, valuesByMesh);
 * ```
 */
export function evaluateFormulas(
  targets: ModifierTargets,
  valuesByMesh: ReadonlyMap<number, ReadonlyMap<string, ModifierValue>>,
  offKeys: Map<string, TcbSpan> = new Map(),
): Set<string> {
  const { meshes, nodes } = targets;
  const evaluated = new Set<string>();
  const definitions = new Set(nodes.list.map((_, n) => nodes.definitionOf(n)).filter((d) => d !== undefined));
  const lookups = new Map<number, BoneLookup>();
  const posedBy = new Map<string, Set<number>>(); // `nodeKey?channel` → the meshes whose formulas pose it
  for (const [mesh, values] of valuesByMesh) {
    const bones = figureBones(nodes.list, meshes.parts[mesh].owner, targets.follows);
    lookups.set(mesh, bones);
    for (const key of posedChannels(values, bones)) {
      posedBy.set(key, (posedBy.get(key) ?? new Set()).add(mesh));
    }
  }
  // Values the scene's node definitions' formulas drive (no morph dial of those is clamped here).
  const byDefinitions = drivenValues(
    new Map([...definitions].map((entry, k) => [`${k}`, { entry, value: 0 }])),
  );
  // A fitted item's formulas may read its body's values (a follower morph): bodies first.
  const bodies = new BodyValues(targets);
  const rigMoved = new Set<number>(); // nodes whose centres a mesh's formulas moved
  for (const mesh of bodies.order([...valuesByMesh.keys()])) {
    const values = valuesByMesh.get(mesh)!;
    const parts = meshes.parts[mesh];
    const foreign = new Set(
      [...posedBy].filter(([, by]) => by.size > 1 || !by.has(mesh)).map(([key]) => key),
    );
    const done = evaluateMorphFormulas(parts.morphs, values, {
      others: definitions,
      bones: lookups.get(mesh),
      foreign,
      body: bodies.lookup(mesh),
      figure: bodies.figureKey(mesh),
    });
    bodies.evaluated(mesh, values, done.channelValue);
    for (const key of done.evaluated) evaluated.add(key);
    for (const [key, span] of done.offKeys ?? []) offKeys.set(key, span);
    // Kept for dson.apply_preset, which evaluates them again at a preset's dials and pose.
    if (done.graph) parts.formulas = done.graph;
    for (const [n, posed] of done.poses) nodes.list[n] = poseNode(nodes.list[n], posed);
    // Joint centres a shape morph moves (`rig_formulas.ts`), at the values just evaluated.
    const rig = evaluateRigFormulas(
      values,
      lookups.get(mesh)!,
      nodes.list,
      new Set([...drivenValues(values), ...byDefinitions]),
      done.channelValue,
      rigMoved,
      offKeys,
    );
    for (const [n, moved] of rig.nodes) {
      nodes.list[n] = { ...nodes.list[n], ...moved };
      rigMoved.add(n);
    }
    for (const key of rig.evaluated) evaluated.add(key);
    if (rig.dials.size) parts.rigDials = Object.fromEntries(rig.dials);
    if (Object.keys(rig.channels).length) parts.rigCentres = rig.channels;
    if (done.limited.length) warnLimited(targets, done.limited);
    const driven = new Set([...drivenValues(values), ...byDefinitions, ...parts.formulas?.morphs ?? []]);
    fittedChecks(targets.library, {
      parts,
      values,
      driven,
      bodies,
      mesh,
      figure: bodies.figureKey(mesh),
      unfollowed: done.unfollowed,
      nodes: nodes.list,
    });
  }
  return evaluated;
}

/**
 * One warning for the bone channels of one mesh's formulas that their joint limits clamped, at the
 * first bone's definition: Daz stops a limited joint there, and the user may expect the formula's
 * whole value (a grasp dialled past what the fingers allow).
 */
function warnLimited(targets: ModifierTargets, limited: readonly LimitedPose[]): void {
  const { nodes, library, main } = targets;
  const first = limited[0];
  const definition = nodes.definitionOf(first.node);
  const list = limited.map((l) =>
    `'${nodes.list[l.node].id}' ${describeClamp(l.channel, l.from, l.to, l.limit)}`
  );
  library.repaired(
    definition?.file ?? main,
    definition ? `${definition.path}/${first.channel.split("/")[0]}` : "/scene/nodes",
    `${limited.length} bone channel(s) ERC formulas drive past the joint's limits (clamped: true) are clamped ` +
      `to them, as Daz stops the joint there: ${list.slice(0, 8).join(", ")}${list.length > 8 ? ", …" : ""}`,
  );
}
