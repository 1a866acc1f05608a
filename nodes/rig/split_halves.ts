/**
 * Split drag rudders (a B-2's or a flying wing's clamshells, ArduPilot's split elevons): the
 * surface is modelled as two objects, an upper and a lower half, that share one hinge and open
 * apart. Each half alone is half an airfoil tail: its own forward edge at its own mid-thickness lies
 * a quarter of the nose's thickness above or below the hinge and, where the nose is rounded, behind
 * it — 10–20 % of the chord off on generated flying wings, judged `good`. The halves are fitted as
 * one surface (the union of their triangles), and each takes that hinge; which way each opens stays
 * its own (`opening.ts`).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { HingeFit } from "./hinge_fit.ts";
import { overlapsInPlan } from "./opening.ts";

/** A panel's geometry in the aircraft frame, as fitted. */
export interface PanelGeometry {
  readonly positions: Float32Array | Float64Array;
  readonly count: number;
  readonly triangles?: Uint32Array;
}

/**
 * The split drag-rudder halves among the fits: drag rudders lying over each other in plan, paired
 * once each (first come, in the order of `fits`).
 */
export function splitHalfPairs(
  fits: ReadonlyMap<Node, HingeFit>,
  kindOf: (node: Node) => string,
): [Node, Node][] {
  const rudders = [...fits.keys()].filter((node) => kindOf(node) === "drag_rudder");
  const taken = new Set<Node>(), pairs: [Node, Node][] = [];
  for (const a of rudders) {
    if (taken.has(a)) continue;
    const b = rudders.find((other) =>
      other !== a && !taken.has(other) && overlapsInPlan(fits.get(a)!, fits.get(other)!)
    );
    if (!b) continue;
    taken.add(a).add(b);
    pairs.push([a, b]);
  }
  return pairs;
}

/** Both halves' geometry as one: positions appended, the second's triangles renumbered. */
export function unionGeometry(a: PanelGeometry, b: PanelGeometry): PanelGeometry {
  const positions = new Float64Array((a.count + b.count) * 3);
  positions.set(a.positions.subarray(0, a.count * 3));
  positions.set(b.positions.subarray(0, b.count * 3), a.count * 3);
  // Without triangles on either side the fit bins vertices, which needs none.
  if (!a.triangles || !b.triangles) return { positions, count: a.count + b.count };
  const triangles = new Uint32Array(a.triangles.length + b.triangles.length);
  triangles.set(a.triangles);
  for (let i = 0; i < b.triangles.length; i++) triangles[a.triangles.length + i] = b.triangles[i] + a.count;
  return { positions, count: a.count + b.count, triangles };
}

/**
 * A half's fit on the shared hinge: the union's line and measures (the sense is decided later, by
 * trial); the half keeps where it is (centre, far edge, lateral extent), so it opens away from its
 * partner and sides by its own place.
 */
export function onSharedHinge(half: HingeFit, union: HingeFit): HingeFit {
  return {
    ...union,
    centre: half.centre,
    farEdge: half.farEdge,
    lateral: half.lateral,
  };
}
