/**
 * Applying a parsed pose or shape preset to a scene decoded by `decode.dson`: joint channels re-pose
 * the named nodes (the same local transform the decoder gives a node with those pose values), morph
 * values become the mesh's morph weights. Nodes of conforming items that follow a target are not
 * posed by name: they follow their target's new pose, as the decoder places them
 * (`preset_conform.ts`). What the scene does not have is warned about, never fatal. How a node is
 * posed is in `preset_pose.ts`.
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { fewNames as few, fittedItemMeshes, setMorphWeights } from "./preset_morphs.ts";
import { followsTarget, followTargetsAgain } from "./preset_conform.ts";
import { followedMeshes, moveFollowedMeshes } from "./preset_follow_mesh.ts";
import { followerStates, refitFollowers, warnSheared, warnStale } from "./follower_refit.ts";
import { poseInstanceCopies } from "./instance_copies.ts";
import { poseScaleWarning, restCarries } from "./follower_pose_scale.ts";
import { warnUnframed } from "./follower_frame.ts";
import { reevaluateFormulas } from "./preset_formulas.ts";
import { clampToLimit, describeClamp, storedLimits } from "./joint_limits.ts";
import { applyScales, dsonKey, dsonScales, record, repose } from "./preset_pose.ts";
import { scaleAfterPreset } from "./preset_scale_check.ts";
import { projectPresetMorphs } from "./preset_project.ts";
import { fitProjectedRigidity } from "./preset_rigidity.ts";
import { moveRigJoints } from "./preset_rig.ts";
import { presetScope } from "./preset_scope.ts";
import { percentDecode } from "./uri.ts";
import { type DsonPreset, type JointChannel, SELECTED_FIGURE } from "./preset_read.ts";

/** What {@link applyDsonPreset} changed. */
export interface PresetResult {
  /** Nodes re-posed. */
  readonly joints: number;
  /** Morph weights set (per mesh). */
  readonly morphs: number;
  /** Morph weights ERC formulas set at the preset's values (per mesh). */
  readonly drivenMorphs: number;
  /** Nodes ERC formulas posed at the preset's values (a hand-grasp controller's fingers). */
  readonly drivenJoints: number;
  /** Morphs projected onto fitted items from their body's auto_follow morphs the preset dialled. */
  readonly projectedMorphs: number;
  /** Targets the scene has no node or morph for. */
  readonly missing: readonly string[];
}

/**
 * Applies `preset` to `doc` in place. Throws when the scene has no DSON nodes (not decoded by
 * `decode.dson`).
 *
 * @example
 * ```ts
 * const scene = copyScene(decoded);
 * applyDsonPreset(scene, await readDsonPreset(bytes, "grip.duf", warn), warn);
 * ```
 */
export function applyDsonPreset(
  doc: Document,
  preset: DsonPreset,
  warn: WarningSink,
  figure = "",
): PresetResult {
  // Daz applies a preset to the selected figure and the items fitted to it, not to every figure.
  const scope = presetScope(doc, figure, preset.figureHints, warn);
  const { nodes, following } = nodesByName(doc, scope.hasNode);
  if (nodes.size === 0 && following.size === 0) {
    throw new Error("the scene has no DSON nodes: apply a preset to a scene from decode.dson");
  }
  const missingJoints: string[] = [];
  const jointValues = new Map<string, Map<JointChannel, number>>();
  const morphValues = new Map<string, number>();
  const boneAliases = boneAliasesOf(doc, scope.hasMesh);
  for (const presetChannel of preset.channels) {
    // A value dialling an alias of a bone channel ("Shoulder Bend" for lShldrBend's x rotation)
    // poses the bone, as Daz's alias reflects its target (decode.dson v39 records them).
    const alias = presetChannel.kind === "morph"
      ? boneAliases.get(presetChannel.target) ?? boneAliases.get(percentDecode(presetChannel.target))
      : undefined;
    const channel = alias ? { ...presetChannel, kind: "joint" as const, ...alias } : presetChannel;
    if (channel.kind === "morph") morphValues.set(channel.target, channel.value);
    else {
      const values = jointValues.get(channel.target) ?? new Map<JointChannel, number>();
      jointValues.set(channel.target, values.set(channel.channel!, channel.value));
    }
  }
  let joints = 0;
  const shared: string[] = [], conformed: string[] = [];
  const posed = new Map<Node, Map<JointChannel, number>>(); // the preset's channels by node
  for (const [target, values] of jointValues) {
    const found = target === SELECTED_FIGURE ? [...scope.selected] : nodes.get(target) ?? [];
    const named = target === SELECTED_FIGURE ? `${SELECTED_FIGURE} (the figure's root)` : target;
    if (found.length === 0 && following.has(target)) conformed.push(named);
    else if (found.length === 0) missingJoints.push(named);
    if (found.length > 1) shared.push(named);
    for (const node of found) posed.set(node, new Map([...(posed.get(node) ?? []), ...values]));
    joints += found.length;
  }
  // A limited joint takes the preset's value within its limits, as Daz sets it.
  const limitedByPreset = limitPose(posed);
  // Rigid followers' reference vertices before the preset's shape, to refit them to after it.
  const followers = followerStates(doc, false);
  const named: string[] = [], clampedMorphs: string[] = [];
  const items = fittedItemMeshes(doc);
  const onItems: string[] = [];
  const morphs = setMorphWeights(
    doc,
    morphValues,
    named,
    clampedMorphs,
    scope.hasMesh,
    (m) => items.has(m),
    onItems,
  );
  // Then the formulas decode.dson kept, at the preset's dials and pose: a dialled controller moves
  // its morphs and the bones it drives, a bent elbow its correctives (a value naming a controller
  // is no longer missing). Said after the posing's own warnings, in the order they always came.
  const later: string[] = [];
  const driven = reevaluateFormulas(doc, morphValues, posed, (message) => later.push(message), scope.hasMesh);
  // The body's auto_follow morphs now dialled that its fitted items lack: projected onto them, as
  // Daz does (decode.dson projected those dialled when decoded).
  // Daz applies a fitted item's rigidity to the morphs it projects, at their dial, now fixed: each
  // item before the items fitted to it take its morphs (body → coat → belt), then the rest.
  const fit = (meshes: (mesh: Mesh) => boolean) =>
    fitProjectedRigidity(
      doc,
      (mesh) => scope.hasMesh(mesh) && meshes(mesh),
      (message) => later.push(message),
    );
  const projection = projectPresetMorphs(doc, scope.hasMesh, (message) => later.push(message), fit);
  fit(() => true);
  // Joint centres a shape moves follow its new dials, before the poses are read about them.
  const moved = moveRigJoints(doc, morphValues, scope.hasMesh, (message) => later.push(message));
  // Daz fits each follower to its reference vertices as the shape moves them (and its joint).
  const sheared: string[] = [], uncertain: string[] = [], untwisted: string[] = [], surfaced: string[] = [];
  refitFollowers(doc, followers.states, sheared, uncertain, untwisted, surfaced);
  warnSheared(sheared, (message) => later.push(message), "dson preset", uncertain, untwisted, surfaced);
  if (moved || morphs || driven.morphs) {
    warnStale(followers.stale, (message) => later.push(message), "dson preset");
    // Refitted along principal axes: said here too, not only by the decode (before v46, silently).
    warnUnframed(followers.unframed, (message) => later.push(message), "dson preset", followers.framePaths);
  }
  // Each node posed once: the preset's channels, with those formulas drive at their driven value.
  const poses = new Map(posed);
  const byKey = nodesByKey(doc);
  let drivenJoints = 0;
  for (const [key, values] of driven.poses) {
    const node = byKey.get(key);
    if (!node) continue;
    poses.set(node, new Map([...(poses.get(node) ?? []), ...values]));
    drivenJoints++;
  }
  const scales = dsonScales(doc);
  const rescaled = new Set<Node>(), placed = new Set<Node>();
  const followed = followedMeshes(doc);
  for (const [node, values] of poses) repose(node, values, { scales, rescaled, placed });
  applyScales(rescaled, scales, placed);
  scaleAfterPreset(doc, new Set(poses.keys()), scales, warn);
  // After every target is posed and scaled; before the rigid followers' meshes, which ride them.
  followTargetsAgain(doc, warn);
  moveFollowedMeshes(followed, warn);
  poseInstanceCopies(doc);
  // Followers kept their size by scale_modes 'none' on a joint the preset poses or scales, or below one.
  const posedNodes = new Set(poses.keys());
  const underPosed = restCarries(followers.states).filter((carry) => {
    for (let n: Node | null = carry.joint; n; n = n.getParentNode()) if (posedNodes.has(n)) return true;
    return false;
  });
  const stretched = poseScaleWarning(underPosed, "dson preset");
  if (stretched) later.push(stretched);
  if (shared.length) {
    // The same figure twice (a conforming item's bones follow, so they are never matched here).
    warn(`dson preset: ${shared.length} name(s) match several nodes, all posed: ${few(shared)}`);
  }
  if (conformed.length) {
    warn(
      `dson preset: ${conformed.length} name(s) match only nodes of conforming items, which follow their target ` +
        `(as Daz drives them), not posed: ${few(conformed)}`,
    );
  }
  if (limitedByPreset.length) {
    warn(
      `dson preset: ${limitedByPreset.length} channel value(s) past the joint's limits (clamped: true) clamped ` +
        `to them, as Daz sets a limited joint: ${few(limitedByPreset)}`,
    );
  }
  if (clampedMorphs.length) {
    warn(
      `dson preset: ${clampedMorphs.length} morph value(s) past their range (clamped: true) clamped to it, as ` +
        `Daz sets a clamped morph: ${few(clampedMorphs)}`,
    );
  }
  if (onItems.length) {
    warn(
      `dson preset: ${onItems.length} morph(s) the figure lacks are set on several of its fitted items, as the ` +
        `preset names no item (Daz applies such a preset to the item selected when it was saved): ${
          few(onItems)
        }`,
    );
  }
  for (const message of later) warn(message);
  const missingMorphs = named.filter((target) => !driven.known.has(target));
  reportSkips(preset, missingJoints, missingMorphs, warn);
  const missing = [...missingJoints, ...missingMorphs];
  const scene = doc.getRoot().listScenes()[0];
  if (scene) {
    const dson = (getPartgraphExtras(scene).dson ?? {}) as { [key: string]: JsonValue };
    const applied = Array.isArray(dson.presets) ? dson.presets : [];
    const record = {
      asset_id: preset.assetId,
      asset_type: preset.assetType,
      joints,
      morphs,
      driven_morphs: driven.morphs,
      driven_joints: drivenJoints,
      projected_morphs: projection.morphs,
      missing,
    };
    setPartgraphExtras(scene, { dson: { ...dson, presets: [...applied, record] } });
  }
  return {
    joints,
    morphs,
    drivenMorphs: driven.morphs,
    drivenJoints,
    projectedMorphs: projection.morphs,
    missing,
  };
}

/**
 * Clamps each preset value of `posed` to its node's joint limits (`extras.partgraph.dson.limits`,
 * see `joint_limits.ts`); returns what it clamped, as `node rotation/z 120 → 90 (limits …)`.
 */
function limitPose(posed: Map<Node, Map<JointChannel, number>>): string[] {
  const said: string[] = [];
  for (const [node, values] of posed) {
    const limits = storedLimits((getPartgraphExtras(node).dson as { limits?: unknown } | undefined)?.limits);
    for (const [channel, value] of values) {
      const limit = Object.hasOwn(limits, channel) ? limits[channel] : undefined;
      const to = clampToLimit(value, limit);
      if (to === value) continue;
      values.set(channel, to);
      said.push(`${node.getName()} ${describeClamp(channel, value, to, limit!)}`);
    }
  }
  return said;
}

/** DSON nodes by their DSON key (`extras.partgraph.dson.key`), the first of a key. */
function nodesByKey(doc: Document): Map<string, Node> {
  const byKey = new Map<string, Node>();
  for (const node of doc.getRoot().listNodes()) {
    const key = dsonKey(node);
    if (key !== undefined && !byKey.has(key) && record(node)) byKey.set(key, node);
  }
  return byKey;
}

/**
 * DSON nodes the preset may reach (`inScope`) by glTF name and by DSON id (a name match first),
 * without the nodes that follow a
 * target (clothing bones carrying the body's names: they take the target's pose afterwards), whose
 * names and ids are `following`.
 */
function nodesByName(
  doc: Document,
  inScope: (node: Node) => boolean,
): { nodes: Map<string, Node[]>; following: Set<string> } {
  const byName = new Map<string, Node[]>();
  const byId = new Map<string, Node[]>();
  const byDecodedId = new Map<string, Node[]>();
  const following = new Set<string>();
  const add = (map: Map<string, Node[]>, key: string, node: Node) =>
    map.set(key, [...(map.get(key) ?? []), node]);
  for (const node of doc.getRoot().listNodes()) {
    const dson = record(node) as { id?: unknown } | undefined;
    if (!dson || !inScope(node)) continue;
    // The id as written first: a literal '%' (`Bone%41`, which Daz addresses as `Bone%2541`) is
    // the preset's decoded URL as is. Then the id decoded, since some files keep ids
    // percent-encoded ("l%20hand") where the decoded URL says "l hand".
    const id = typeof dson.id === "string" ? dson.id : undefined;
    const decoded = id === undefined ? undefined : percentDecode(id);
    if (followsTarget(node)) {
      following.add(node.getName());
      if (id !== undefined) following.add(id).add(decoded!);
      continue;
    }
    add(byName, node.getName(), node);
    if (id !== undefined) add(byId, id, node);
    if (decoded !== undefined && decoded !== id) add(byDecodedId, decoded, node);
  }
  for (const [id, list] of byId) if (!byName.has(id)) byName.set(id, list);
  for (const [id, list] of byDecodedId) if (!byName.has(id)) byName.set(id, list);
  return { nodes: byName, following };
}

/** One warning per kind of thing not applied, naming the first few. */
function reportSkips(
  preset: DsonPreset,
  missingJoints: string[],
  missingMorphs: string[],
  warn: WarningSink,
): void {
  if (missingJoints.length) {
    warn(`dson preset: ${missingJoints.length} node(s) not in the scene, not posed: ${few(missingJoints)}`);
  }
  if (missingMorphs.length) {
    warn(
      `dson preset: ${missingMorphs.length} value(s) name no morph of the scene, not applied: ${
        few(missingMorphs)
      }` +
        " (controllers that drive bones of no figure here through ERC formulas are not evaluated)",
    );
  }
  if (preset.skipped.length) {
    const list = preset.skipped.map((s) => `${s.url} (${s.reason})`);
    warn(`dson preset: ${preset.skipped.length} channel(s) not applied: ${few(list)}`);
  }
  if (preset.animated) {
    warn(`dson preset: ${preset.animated} channel(s) have several keys; only frame 0 is applied`);
  }
}

/**
 * The bone aliases (`extras.partgraph.dson.bone_aliases`) of the meshes `hasMesh` takes: alias id →
 * the bone's node id (as a preset names it) and channel.
 */
function boneAliasesOf(
  doc: Document,
  hasMesh: (mesh: Mesh) => boolean,
): Map<string, { target: string; channel: JointChannel }> {
  const out = new Map<string, { target: string; channel: JointChannel }>();
  for (const mesh of doc.getRoot().listMeshes()) {
    if (!hasMesh(mesh)) continue;
    const dson = getPartgraphExtras(mesh).dson as { bone_aliases?: unknown } | undefined;
    const aliases = dson?.bone_aliases;
    if (!aliases || typeof aliases !== "object") continue;
    for (
      const [id, alias] of Object.entries(aliases as Record<string, { node?: unknown; channel?: unknown }>)
    ) {
      if (typeof alias?.node !== "string" || typeof alias.channel !== "string") continue;
      if (!out.has(id)) out.set(id, { target: alias.node, channel: alias.channel as JointChannel });
    }
  }
  return out;
}
