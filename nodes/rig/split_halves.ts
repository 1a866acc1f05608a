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
 *
 * Only rudders that can lie over each other are tried: {@link overlapsInPlan} holds only where the
 * pair's larger chord and larger span are both positive numbers, so a rudder of no chord (a plate seen
 * edge-on to the flow, or a failed fit) is tried only against those of a chord, and one with a NaN
 * measure against none. Every pair was tried before: 20,000 small panels at a scene's top (2,857 of
 * them drag rudders, none with a chord) made 4·10⁶ tries. Which rudder pairs with which is unchanged.
 */
export function splitHalfPairs(
  fits: ReadonlyMap<Node, HingeFit>,
  kindOf: (node: Node) => string,
): [Node, Node][] {
  const rudders: Node[] = [], fitted: HingeFit[] = [];
  for (const [node, fit] of fits) if (kindOf(node) === "drag_rudder") rudders.push(node), fitted.push(fit);
  // By what each has (1: a chord, 2: a span); a pair can overlap only where the two have both.
  const byHas: number[][] = [[], [], [], []], has: number[] = [];
  fitted.forEach((fit, i) => {
    has.push(measures(fit));
    if (has[i] >= 0) byHas[has[i]].push(i);
  });
  const taken = new Set<number>(), pairs: [Node, Node][] = [];
  for (let a = 0; a < rudders.length; a++) {
    if (taken.has(a) || has[a] < 0) continue;
    // The first partner in the order of `fits`: the earliest of each group that may overlap.
    let b = -1;
    for (const [group, list] of byHas.entries()) {
      if ((group | has[a]) !== 3) continue;
      for (const other of list) {
        if (b >= 0 && other > b) break;
        if (other !== a && !taken.has(other) && overlapsInPlan(fitted[a], fitted[other])) {
          b = other;
          break;
        }
      }
    }
    if (b < 0) continue;
    taken.add(a).add(b);
    pairs.push([rudders[a], rudders[b]]);
  }
  return pairs;
}

/**
 * What a fit's measures allow: 1 for a positive chord, 2 for a positive span length, summed; -1 when
 * either is NaN (the larger of a pair is then NaN, and no comparison with it holds).
 */
function measures(fit: HingeFit): number {
  if (Number.isNaN(fit.chord) || Number.isNaN(fit.spanLength)) return -1;
  return (fit.chord > 0 ? 1 : 0) + (fit.spanLength > 0 ? 2 : 0);
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
