/**
 * Node instances' copies kept in step with their originals after a scene is changed: decode.dson
 * (v52) marks each copied DSON node `copy_of` its original's key (`instances.ts`), and Daz draws an
 * instance from its target as it is now — posed by a preset (`dson.apply_preset` v38) or with a
 * shape baked that moved its joints (`dson.bake_morph` v4; before, the copies kept the joints'
 * old places, silently). The copies' skins share their originals' inverse binds, so a moved joint's
 * new bind reaches them already.
 *
 * A copy is its target's geometry moved by the instance's own transform, whatever the target's pivot
 * (decode.dson v56): a shape that moves the target's own centre or orientation (its `rig_centres`)
 * moves its content's frame, not where Daz draws the copy, so the pivot node between the instance
 * and the copy (`instance_pivot`) takes the target's new rest frame (before decode.dson v59,
 * dson.apply_preset v42 and dson.bake_morph v4 it kept the old one: the copy was off by the move).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { setPivot } from "./instances.ts";
import { dsonKey, record } from "./preset_pose.ts";
import type { Vec3 } from "./rigid_fit.ts";

/**
 * Gives each node marked `copy_of` its original's local transform (the first DSON node of that
 * key), and each pivot node whose target's rest frame moved the new pivot; a copy whose original is
 * gone keeps its own.
 *
 * @example
 * ```ts
 * poseInstanceCopies(doc); // after posing or moving the originals
 * ```
 */
export function poseInstanceCopies(doc: Document): void {
  const byKey = new Map<string, Node>();
  for (const node of doc.getRoot().listNodes()) {
    const key = dsonKey(node);
    if (key !== undefined && !byKey.has(key) && record(node)) byKey.set(key, node);
  }
  for (const node of doc.getRoot().listNodes()) {
    const of = (getPartgraphExtras(node).dson as { copy_of?: unknown } | undefined)?.copy_of;
    const original = typeof of === "string" ? byKey.get(of) : undefined;
    if (!original) continue;
    node.setTranslation(original.getTranslation()).setRotation(original.getRotation()).setScale(
      original.getScale(),
    );
  }
  for (const node of doc.getRoot().listNodes()) {
    const dson = getPartgraphExtras(node).dson as { instance_pivot?: PivotRecord } | undefined;
    const pivot = dson?.instance_pivot;
    const target = typeof pivot?.target === "string" ? byKey.get(pivot.target) : undefined;
    const now = target && record(target);
    if (!pivot || !now || !frame(pivot.center_point) || !frame(pivot.orientation)) continue;
    const same = (a: unknown, b: readonly number[]) => Array.isArray(a) && b.every((v, k) => v === a[k]);
    if (
      same(pivot.target_center_point, now.center_point) && same(pivot.target_orientation, now.orientation)
    ) {
      continue;
    }
    setPivot(
      node,
      { centerPoint: pivot.center_point as Vec3, orientation: pivot.orientation as Vec3 },
      { centerPoint: now.center_point, orientation: now.orientation },
    );
    const moved = {
      ...pivot,
      target_center_point: [...now.center_point],
      target_orientation: [...now.orientation],
    } as { [key: string]: JsonValue };
    setPartgraphExtras(node, { dson: { ...dson, instance_pivot: moved } });
  }
}

/** A pivot node's record as decode.dson writes it (anyone may have edited extras). */
interface PivotRecord {
  target?: unknown;
  center_point?: unknown;
  orientation?: unknown;
  target_center_point?: unknown;
  target_orientation?: unknown;
}

/** A rest-frame triple of finite numbers. */
function frame(value: unknown): value is Vec3 {
  return Array.isArray(value) && value.length === 3 && value.every(Number.isFinite);
}
