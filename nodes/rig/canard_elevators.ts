/**
 * Canards that carry elevators. On a canard aircraft whose foreplane is fixed (Rutan's VariEze and
 * Long-EZ, the Beech Starship), the model names the foreplane `Canard` and the surfaces hinged on its
 * trailing edge `Elevator_L`/`Elevator_R`. Taken at its word, the name makes the foreplane an
 * all-moving canard pivoting at quarter chord, and its elevators — with no fixed surface left ahead
 * of them — all-moving too: two wrong hinges, judged good. A canard with an elevator along it (inside
 * it, or the two objects' world bounds touching) is the fixed surface the elevator hangs on. An
 * all-moving canard beside tail elevators (Su-30-like) stays a canard: the two lie far apart.
 *
 * @module
 */
import { IDENTITY } from "./transform.ts";
import type { Node } from "@gltf-transform/core";
import { positionBounds } from "./geometry.ts";
import { gatherDrawn } from "./drawn_vertices.ts";

/** Bounds may be this share of the canard's largest extent apart and still touch (a cove's gap). */
const TOUCH = 0.02;

/** A node among the name matches, and the match it sits inside. */
export interface NestedCandidate {
  readonly node: Node;
  readonly outer?: NestedCandidate;
}

/** A name match as detection holds it: the node, its kind, and the candidate it sits inside. */
export interface KindCandidate extends NestedCandidate {
  readonly kind: string;
}

/** A canard found to carry an elevator: the canard node and the elevator that names it fixed. */
export interface FixedForeplane {
  readonly canard: Node;
  readonly elevator: Node;
}

/**
 * The canard candidates that carry an elevator candidate (nested in them, or touching them in world
 * space), each with the first such elevator. Geometry is read only when both kinds are present.
 */
export function foreplanesCarryingElevators(candidates: readonly KindCandidate[]): FixedForeplane[] {
  const canards = candidates.filter((c) => c.kind === "canard");
  const elevators = candidates.filter((c) => c.kind === "elevator");
  if (canards.length === 0 || elevators.length === 0) return [];
  const bounds = new Map<Node, ReturnType<typeof positionBounds>>();
  const boundsOf = (node: Node) => {
    // What its triangles draw: a loose vertex at the origin made a canard's box reach an elevator's.
    if (!bounds.has(node)) bounds.set(node, positionBounds(gatherDrawn(node, IDENTITY)));
    return bounds.get(node);
  };
  const out: FixedForeplane[] = [];
  for (const canard of canards) {
    const carried = elevators.find((e) =>
      isInside(e, canard) || touches(boundsOf(canard.node), boundsOf(e.node))
    );
    if (carried) out.push({ canard: canard.node, elevator: carried.node });
  }
  return out;
}

/** True when `outer`'s node holds `inner`'s among the matches (by node: the lists are copies). */
function isInside(inner: NestedCandidate, outer: NestedCandidate): boolean {
  for (let c = inner.outer; c; c = c.outer) if (c.node === outer.node) return true;
  return false;
}

function touches(a: ReturnType<typeof positionBounds>, b: ReturnType<typeof positionBounds>): boolean {
  if (!a || !b) return false;
  const extent = Math.max(...[0, 1, 2].map((k) => a.max[k] - a.min[k]));
  const slack = TOUCH * extent;
  return [0, 1, 2].every((k) => a.min[k] - slack <= b.max[k] && b.min[k] - slack <= a.max[k]);
}
