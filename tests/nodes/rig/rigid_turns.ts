/**
 * Measures whether turning a pivot moves its part rigidly: every vertex under the pivot must land on
 * the ideal rotation about the pivot's world hinge (its rest origin and X), and nothing else may move.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { gatherPositions, positionBounds, subtreeNodes } from "../../../nodes/rig/geometry.ts";
import {
  linearDeterminant,
  normalize,
  type Quat,
  quatMultiply,
  rotatePointAboutAxis,
  type Vec3,
} from "../../../nodes/rig/transform.ts";
import { axisAngle, IDENTITY } from "./fixtures.ts";

/** How far one pivot's turns were from rigid, relative to the model's size. */
export interface TurnError {
  pivot: string;
  /** Angles tried, degrees. */
  angles: number[];
  /** Worst distance of a vertex under the pivot from its ideal rigid turn, / model size. */
  offIdeal: number;
  /** Worst motion of a vertex not under the pivot, / model size. */
  othersMoved: number;
}

/**
 * Where a point rigidly attached under `pivot` (at rest) must go when the pivot turns by `degrees` about
 * its local X: the rotation about its rest world origin and X, the angle negated under a mirroring frame.
 */
export function idealTurn(pivot: Node): (point: Vec3, degrees: number) => Vec3 {
  const world = pivot.getWorldMatrix();
  const origin: Vec3 = [world[12], world[13], world[14]];
  const axis = normalize([world[0], world[1], world[2]]);
  const sense = linearDeterminant(world) < 0 ? -1 : 1;
  return (point, degrees) => rotatePointAboutAxis(point, origin, axis, (sense * degrees * Math.PI) / 180);
}

/** Nodes turned about local X by a rotation: the `ctrl_type: "rotation"` nodes. */
export function rotationPivots(doc: Document): Node[] {
  return doc.getRoot().listNodes().filter((n) =>
    (n.getExtras() as Record<string, unknown>).ctrl_type === "rotation"
  );
}

/**
 * Turns every rotation pivot by several angles in its [min, max] (±20° when unlimited) and measures
 * the vertices of every unskinned mesh node against the ideal rigid turn about its world hinge.
 */
export function measureTurns(doc: Document, pivots: Node[] = rotationPivots(doc)): TurnError[] {
  const meshes = doc.getRoot().listNodes().filter((n) => n.getMesh() && !n.getSkin());
  const rest = new Map(meshes.map((n) => [n, gatherPositions(n, IDENTITY, { descend: false })]));
  const all = new Float64Array([...rest.values()].flatMap((g) => [...g.positions.subarray(0, g.count * 3)]));
  const bounds = positionBounds({ positions: all, count: all.length / 3 })!;
  const size = Math.hypot(...[0, 1, 2].map((k) => bounds.max[k] - bounds.min[k]));
  return pivots.map((pivot) => {
    const extras = pivot.getExtras() as { min?: number; max?: number };
    const min = typeof extras.min === "number" ? extras.min : -20;
    const max = typeof extras.max === "number" ? extras.max : 20;
    const angles = [min, min / 2, max / 2, max].filter((a) => a !== 0);
    const turnIdeally = idealTurn(pivot);
    const under = new Set(subtreeNodes(pivot));
    const rotation = pivot.getRotation() as Quat;
    let offIdeal = 0, othersMoved = 0;
    for (const degrees of angles) {
      pivot.setRotation(quatMultiply(rotation, axisAngle([1, 0, 0], degrees)));
      for (const node of meshes) {
        const before = rest.get(node)!;
        const after = gatherPositions(node, IDENTITY, { descend: false });
        for (let o = 0; o < before.count * 3; o += 3) {
          const p: Vec3 = [before.positions[o], before.positions[o + 1], before.positions[o + 2]];
          const ideal = under.has(node) ? turnIdeally(p, degrees) : p;
          const d = Math.hypot(
            after.positions[o] - ideal[0],
            after.positions[o + 1] - ideal[1],
            after.positions[o + 2] - ideal[2],
          ) / size;
          if (under.has(node)) offIdeal = Math.max(offIdeal, d);
          else othersMoved = Math.max(othersMoved, d);
        }
      }
    }
    pivot.setRotation(rotation);
    return { pivot: pivot.getName(), angles, offIdeal, othersMoved };
  });
}
