/**
 * Two surfaces that are each other's mirror image across the centre plane: a V-tail's ruddervators,
 * each its own object, whose roots meet across the plane as real V-tails' do. Each alone reaches
 * both sides of the centre line, but the pair says it is one side of a mirrored pair — one surface,
 * not a V planform in one piece, and sided as its name says.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { positionBounds } from "./geometry.ts";
import { gatherDrawn } from "./drawn_vertices.ts";
import { getPart } from "./part_extras.ts";
import type { Mat4 } from "./transform.ts";

/**
 * A box in aircraft coordinates (aft, up, left about the centre line), and where the surface's mass
 * lies across the flow (`middle`: its vertices' mean, or its hinge's mid-span point).
 */
export interface AircraftBox {
  readonly min: readonly number[];
  readonly max: readonly number[];
  readonly middle: number;
}

/** Boxes mirror each other within this share of their largest extent. */
export const MIRROR_BOX = 0.03;
/** A surface whose middle lies within this share of its width of the centre line is its own mirror image. */
const OWN_MIRROR = 0.03;

/**
 * True when `b` is `a` mirrored left for right, middles too (within {@link MIRROR_BOX} of the larger
 * extent), and `a` is not its own mirror image (its middle off the centre line by 3 % of its width or
 * more; a V-tail surface whose root reaches far across has it at 8 %): two copies of one symmetric V,
 * their middles on the line but for triangulation, are no mirrored pair. Such a V-tail surface's box
 * is nearly its own mirror's; its middle tells it.
 */
export function mirroredBoxes(a: AircraftBox, b: AircraftBox): boolean {
  const extent = Math.max(...[0, 1, 2].map((k) => Math.max(a.max[k] - a.min[k], b.max[k] - b.min[k])));
  const near = (x: number, y: number) => Math.abs(x - y) <= MIRROR_BOX * extent;
  if (Math.abs(a.middle) < OWN_MIRROR * (a.max[2] - a.min[2])) return false;
  return near(a.middle, -b.middle) && near(a.min[0], b.min[0]) && near(a.max[0], b.max[0]) &&
    near(a.min[1], b.min[1]) &&
    near(a.max[1], b.max[1]) && near(a.min[2], -b.max[2]) && near(a.max[2], -b.min[2]);
}

/**
 * The panel node of the same kind drawing `node`'s mirror image ({@link mirroredBoxes}; `toAircraft`
 * maps the scene to aircraft coordinates about the centre line), or undefined.
 *
 * @example
 * ```ts
 * mirrorPartnerOf(ruddervatorL, panels, toAircraft); // the node Ruddervator_R
 * ```
 */
export function mirrorPartnerOf(node: Node, panels: Iterable<Node>, toAircraft: Mat4): Node | undefined {
  const kind = getPart(node)?.kind;
  const box = (n: Node): AircraftBox | undefined => {
    // What its triangles draw: a loose vertex at the origin or a leftover corner stretches one box.
    const gathered = gatherDrawn(n, toAircraft, { descend: false });
    const bounds = positionBounds(gathered);
    if (!bounds) return undefined;
    let sum = 0;
    for (let i = 0; i < gathered.count; i++) sum += gathered.positions[i * 3 + 2];
    return { ...bounds, middle: sum / gathered.count };
  };
  const own = box(node);
  if (!own || kind === undefined) return undefined;
  for (const other of panels) {
    if (other === node || getPart(other)?.kind !== kind || !other.getMesh()) continue;
    const theirs = box(other);
    if (theirs && mirroredBoxes(own, theirs)) return other;
  }
  return undefined;
}
