/**
 * Trim tabs beside their surface: a tab modelled next to its elevator or rudder (not under it) is
 * moved under the surface's pivot so it turns with it, keeping its world pose.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { scenesTopped } from "./child_order.ts";
import { gatherBonePositions } from "./bone_geometry.ts";
import { positionBounds } from "./geometry.ts";
import { gatherDrawn } from "./drawn_vertices.ts";
import { getPart, setPart } from "./part_extras.ts";
import {
  canonicalQuat,
  canonicalVec3,
  IDENTITY,
  invertAffine,
  linearDeterminant,
  type Mat4,
  multiply,
  normalize,
  type Quat,
  quatConjugate,
  quatFromBasis,
  quatMultiply,
  quatRotate,
  sub,
  type Vec3,
} from "./transform.ts";
import { isSimilarity } from "./unscale.ts";

/**
 * The nodes inserted for one panel, outermost first: `top` (`HINGE_auto_<name>_unscale` under a
 * non-uniformly scaled parent, else `mount`), `mount` (`HINGE_auto_<name>_rest` with `zero_rest`,
 * else the pivot), the turning `pivot`, and the `panel` (under `HINGE_auto_<name>_rescale` when unscaled).
 */
export interface InsertedPivot {
  readonly top: Node;
  readonly mount: Node;
  readonly pivot: Node;
  readonly panel: Node;
  readonly unscale: boolean;
}

/**
 * A trim tab modelled beside its surface rather than inside it (exporters keep unparented objects
 * side by side) must still turn with it: when the tab's hinge lies within the geometry of a surface
 * pivot sharing its parent, the tab's pivot moves under that pivot. Both are rigid (unit scale) in
 * one parent space, so the move composes exactly and keeps the tab's world pose; under a
 * non-uniformly scaled parent both hang in similarity frames of the same scale, so the composed
 * transform is rigid too, and the tab's emptied unscale node is removed. `siblings` are the pivots
 * whose tops hang where the tab's does (equal {@link ownersKey}).
 */
export function rideOnHost(
  doc: Document,
  tab: InsertedPivot,
  siblings: readonly InsertedPivot[],
  bounds: HostBounds = new HostBounds(doc),
): void {
  const part = getPart(tab.pivot)!;
  const hinge = part.hinge!;
  let host: InsertedPivot | undefined;
  let hostVolume = Infinity;
  for (const candidate of siblings) {
    if (getPart(candidate.pivot)!.kind === "trim_tab") continue;
    const box = bounds.of(candidate);
    if (!box) continue;
    const size = sub(box.max, box.min);
    const margin = 0.05 * Math.hypot(...size);
    const inside = [0, 1, 2].every((k) =>
      hinge.origin_world[k] >= box.min[k] - margin && hinge.origin_world[k] <= box.max[k] + margin
    );
    const volume = (size[0] + margin) * (size[1] + margin) * (size[2] + margin);
    if (inside && volume < hostVolume) [host, hostVolume] = [candidate, volume];
  }
  if (!host) return;
  const moved = host.unscale || tab.unscale
    ? rigidBetween(host.pivot.getWorldMatrix(), tab.mount.getWorldMatrix())
    : composeInParent(host.mount, tab.mount);
  if (!moved) return;
  bounds.changedUnder(tab.mount.getParentNode());
  host.pivot.addChild(tab.mount);
  bounds.changedUnder(host.pivot);
  tab.mount.setTranslation(moved.translation).setRotation(moved.rotation);
  if (tab.top !== tab.mount) tab.top.dispose();
  if (tab.mount === tab.pivot) {
    setPart(tab.pivot, {
      ...part,
      hinge: {
        ...hinge,
        origin: moved.translation,
        axis: canonicalVec3(quatRotate(moved.rotation, [1, 0, 0])),
      },
    });
  }
}

/**
 * The world-space box of each candidate host's geometry, gathered once, not once per tab (1,400 tabs
 * beside 20,000 surfaces gathered 28 million times), and forgotten for every pivot whose subtree a
 * tab leaves or joins.
 */
export class HostBounds {
  readonly #known = new Map<Node, ReturnType<typeof positionBounds>>();
  constructor(private readonly doc: Document) {}

  /**
   * The box of what the pivot turns as its triangles draw it (a bone's pivot: the vertices skinned to
   * the bone): a surface drawn out of a game rip's one vertex buffer was as large as the aircraft, and
   * every tab rode on the first surface listed.
   */
  of(candidate: InsertedPivot): ReturnType<typeof positionBounds> {
    if (!this.#known.has(candidate.pivot)) {
      this.#known.set(
        candidate.pivot,
        positionBounds(
          getPart(candidate.pivot)!.driven_by === "skin"
            ? gatherBonePositions(this.doc, candidate.panel, IDENTITY)
            : gatherDrawn(candidate.pivot, IDENTITY),
        ),
      );
    }
    return this.#known.get(candidate.pivot);
  }

  /** Forgets the boxes of `node` and every node above it: what they hold has changed. */
  changedUnder(node: Node | null): void {
    for (let at = node; at; at = at.getParentNode()) this.#known.delete(at);
  }
}

/** `inner`'s transform relative to `outer`, both rigid children of one parent. */
function composeInParent(outer: Node, inner: Node): { translation: Vec3; rotation: Quat } {
  const toOuter = quatConjugate(outer.getRotation() as Quat);
  return {
    translation: canonicalVec3(
      quatRotate(toOuter, sub(inner.getTranslation() as Vec3, outer.getTranslation() as Vec3)),
    ),
    rotation: canonicalQuat(quatMultiply(toOuter, inner.getRotation() as Quat)),
  };
}

/** The rigid transform taking world matrix `outer` to `inner`, or `undefined` when it is not rigid. */
function rigidBetween(outer: Mat4, inner: Mat4): { translation: Vec3; rotation: Quat } | undefined {
  const local = multiply(invertAffine(outer), inner);
  if (!isSimilarity(local) || Math.abs(linearDeterminant(local) - 1) > 1e-9) return undefined;
  const column = (j: number) => normalize([local[4 * j], local[4 * j + 1], local[4 * j + 2]]);
  return {
    translation: canonicalVec3([local[12], local[13], local[14]]),
    rotation: canonicalQuat(quatFromBasis(column(0), column(1), column(2))),
  };
}

/**
 * What a node hangs under: its parent node, or the scenes it sits at the top of (as one key), so
 * nodes with equal keys are siblings a tab may ride between.
 */
export function ownersKey(doc: Document, node: Node): Node | string {
  const parent = node.getParentNode();
  if (parent) return parent;
  const scenes = doc.getRoot().listScenes();
  return scenesTopped(node).map((scene) => scenes.indexOf(scene))
    .sort((a, b) => a - b).join(",");
}
