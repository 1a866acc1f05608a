/**
 * Alias channels whose target is a bone channel (a scene dial `Shoulder Bend` standing for
 * `lShldrBend:?xrotate/value`, or `#lShldrBend?rotation/x/value`): Daz's channel_alias "simply
 * reflects the target_channel properties and values", so the dial the scene gives the alias is the
 * bone's value. It is set on the bone before the formulas run, so formulas reading the bone (its
 * correctives) and driving it (their sums join its own value) see it, as in Daz.
 *
 * @module
 */
import type { ModifierTargets } from "./load_modifiers.ts";
import { aliasEnd, boneChannel } from "./formula_compile.ts";
import { type BoneLookup, figureBones, type ModifierValue } from "./formula_eval.ts";
import { clampToLimit, describeClamp } from "./joint_limits.ts";
import { poseNode } from "./pose_node.ts";

/** A bone channel's value at rest: 1 for scales, 0 otherwise. */
const restValue = (channel: string) => channel.startsWith("scale") ? 1 : 0;

/**
 * Sets each bone channel that a dialled alias instance of `values` (a mesh's modifiers) stands
 * for to the alias's dial, clamped to the bone's limits (warned), unless the scene already poses
 * that channel to another value (the bone's own value wins, as for an alias of a morph; warned).
 * An alias naming a bone the mesh's figure lacks, or a conforming item's bone (which takes its
 * target's pose), is warned and passes nothing. Before decode.dson v39 the dial was dropped silently.
 *
 * @example
 * ```ts
 * passAliasBoneDials(targets, state.values, state.dialled);
 * ```
 */
export function passAliasBoneDials(
  targets: ModifierTargets,
  values: ReadonlyMap<number, ReadonlyMap<string, ModifierValue>>,
  dialled: ReadonlyMap<number, ReadonlySet<string>>,
): void {
  const { nodes, meshes, library } = targets;
  for (const [mesh, own] of values) {
    const parts = meshes.parts[mesh];
    const bones = figureBones(nodes.list, parts.owner, targets.follows);
    // Every alias of a bone channel, recorded for dson.apply_preset (a preset dialling it poses the bone).
    for (const id of own.keys()) {
      const found = boneOf(id, own, bones);
      if (!found?.bone || found.bone.follows) continue;
      parts.boneAliases = {
        ...parts.boneAliases,
        [id]: { node: nodes.list[found.bone.node].id, channel: found.channel },
      };
    }
    const dials = dialled.get(mesh);
    if (!dials?.size) continue;
    const passed = new Map<string, number>(); // `nodeKey?channel` → the alias dial passed to it
    for (const id of dials) {
      const found = boneOf(id, own, bones);
      if (!found) continue;
      const { boneId, channel, bone } = found;
      const { entry, value } = own.get(id)!;
      const at = `${entry.path}/channel/target_channel`;
      if (!bone || bone.follows) {
        const why = bone
          ? "a conforming item's bone, which takes its target's pose"
          : "no single bone of that id in the figure";
        library.repaired(
          entry.file,
          at,
          `alias '${id}' dialled to ${value} stands for bone channel '${boneId}?${channel}': ${why}; not passed on`,
        );
        continue;
      }
      const key = `${bone.key}?${channel}`;
      const was = passed.get(key) ?? (bone.value !== restValue(channel) ? bone.value : undefined);
      if (was !== undefined) {
        if (was !== value) {
          library.repaired(
            entry.file,
            at,
            `the scene dials alias '${id}' to ${value} and poses its bone channel '${boneId}?${channel}' ` +
              `at ${was}; the bone keeps ${was} (an alias reflects its target)`,
          );
        }
        continue;
      }
      const clamped = clampToLimit(value, bone.limit);
      if (clamped !== value) {
        library.repaired(
          entry.file,
          at,
          `alias '${id}' passes its dial to '${boneId}': ${
            describeClamp(channel, value, clamped, bone.limit!)
          }`,
        );
      }
      passed.set(key, clamped);
      nodes.list[bone.node] = poseNode(nodes.list[bone.node], new Map([[channel, clamped]]));
    }
  }
}

/** The bone channel alias `id` of `values` ends at, and the bone `bones` finds for it (if any). */
function boneOf(id: string, values: ReadonlyMap<string, ModifierValue>, bones: BoneLookup) {
  const end = aliasEnd(id, values);
  const channel = end ? boneChannel(end.propertyPath) : undefined;
  if (!end || !channel) return undefined;
  // `lShldrBend:?xrotate/value` names its bone by the node path alone.
  const boneId = end.id.replace(/:$/, "") || end.nodePath.split("/").pop()!;
  return { boneId, channel, bone: bones(boneId, channel) };
}
