/**
 * Flying wings with split drag rudders, as a B-2 or an RC flying wing is modelled: inboard and
 * outboard elevons and, at the tip, a drag rudder in two objects — the upper and the lower half of
 * one surface, split along its chord plane, sharing its hinge. Every third one low-poly, every
 * other one unwelded (each triangle its own vertices). Aircraft coordinates; deterministic.
 *
 * @module
 */
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import {
  boxMesh,
  type ClassMesh,
  type ClassPanel,
  type ClassSample,
  mirroredPair,
} from "./surface_classes.ts";

const shift = (d: Vec3) => (p: Vec3): Vec3 => [p[0] + d[0], p[1] + d[1], p[2] + d[2]];

function lowest(mesh: ClassMesh, k: number, sign = 1): number {
  let out = Infinity;
  for (let i = k; i < mesh.positions.length; i += 3) out = Math.min(out, sign * mesh.positions[i]);
  return sign * out;
}

/** Each triangle with its own three vertices (an unwelded export). */
export function unwelded(mesh: ClassMesh): ClassMesh {
  const positions: number[] = [];
  for (let t = 0; t < mesh.triangles.length; t++) {
    const v = mesh.triangles[t];
    positions.push(mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]);
  }
  return { positions, triangles: Array.from({ length: mesh.triangles.length }, (_, i) => i) };
}

const NAMES = [
  ["Elevon_Inboard", "Elevon_Outboard", "DragRudder_Upper", "DragRudder_Lower"],
  ["Elevon_1", "Elevon_2", "SplitRudder_Upper", "SplitRudder_Lower"],
  ["InboardElevon", "OutboardElevon", "DragRudderUpper", "DragRudderLower"],
] as const;

/** A split drag rudder's half: which half, for the test's "opens apart" check. */
export interface SplitHalf extends ClassPanel {
  readonly half?: "upper" | "lower";
}

/**
 * One flying wing swept 25–45°: two elevon pairs and a split drag-rudder pair at the tips, each
 * surface behind its own fixed wing piece, laid side by side along the span, and a centre body.
 * The halves' truth is the whole surface's hinge.
 */
export function splitRudderWing(next: () => number, index: number): ClassSample & { panels: SplitHalf[] } {
  const sweep = 25 + 20 * next(), tan = Math.tan(sweep * Math.PI / 180);
  const names = NAMES[index % NAMES.length];
  const options = index % 3 === 0 ? { around: [12, 20] as const } : {};
  const panels: SplitHalf[] = [], fixed: ClassSample["fixed"] = [];
  let z = 1.5;
  for (const j of [0, 1, 2]) {
    const s = airfoilSurface(next, { sweep: [sweep - 2, sweep + 2], ...options });
    const place = shift([2 + z * tan - s.origin[0], 0.02 * z - s.origin[1], z - lowest(s, 2)]);
    const pair = mirroredPair(
      s,
      place,
      [`${names[j]}_L`, `${names[j]}_R`],
      j < 2 ? "elevon" : "drag_rudder",
      `Wing${j}`,
    );
    fixed.push(...pair.fixed);
    if (j < 2) {
      panels.push(...pair.panels);
      z = lowest(pair.panels[0].mesh, 2, -1) + 0.05;
      continue;
    }
    // The halves: the triangles above and below the chord plane through the hinge.
    const [left, right] = pair.panels;
    const truth = left.truth!, normal = normalize(cross(truth.axis, [1, 0, 0]));
    const height = (mesh: ClassMesh, v: number) =>
      [0, 1, 2].reduce((sum, k) => sum + (mesh.positions[3 * v + k] - truth.origin[k]) * normal[k], 0);
    for (const [half, sign] of [["upper", 1], ["lower", -1]] as const) {
      const triangles: number[] = [];
      for (let t = 0; t < left.mesh.triangles.length; t += 3) {
        const corners = [0, 1, 2].map((c) => left.mesh.triangles[t + c]);
        if (sign * corners.reduce((sum, v) => sum + height(left.mesh, v), 0) >= 0) triangles.push(...corners);
      }
      const word = names[half === "upper" ? 2 : 3];
      for (const side of [left, right]) {
        const mesh = { positions: side === left ? left.mesh.positions : right.mesh.positions, triangles };
        const name = `${word}_${side === left ? "L" : "R"}`;
        panels.push({ ...side, name, half, mesh });
      }
    }
  }
  const out = index % 2 === 1 ? panels.map((p) => ({ ...p, mesh: unwelded(p.mesh) })) : panels;
  return {
    panels: out,
    fixed: [{ name: "CentreBody", mesh: boxMesh([-1, -0.3, -1.2], [4, 0.3, 1.2]) }, ...fixed],
    description: `sweep ${sweep.toFixed(0)}°${index % 3 === 0 ? ", low-poly" : ""}${
      index % 2 ? ", unwelded" : ""
    }`,
  };
}
