/**
 * Shared cases for the rig node tests: a standard aileron design, and a checker that rigs a scene and
 * measures each panel's hinge, pose keeping (in memory and after write/read) and +10° sense.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { dot, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import {
  addGroup,
  addPanel,
  axisErrorDegrees,
  distanceToLine,
  maxDisplacement,
  type PanelSpec,
  trueHinge,
  turnAttached,
  worldVertices,
} from "./fixtures.ts";
import { nodeNamed, rig, type RigResult } from "./pipeline.ts";

// Default frame: −Z forward, +Y up, so aft = +Z, right = +X.
/** Aft in the default frame. */
export const AFT: Vec3 = [0, 0, 1];
/** Up. */
export const UP: Vec3 = [0, 1, 0];
/** Down. */
export const DOWN: Vec3 = [0, -1, 0];
/** The aircraft's right in the default frame. */
export const RIGHT: Vec3 = [1, 0, 0];

/** A wing-panel design in a right wing's frame (x outboard). */
export function aileron(name: string): PanelSpec {
  return {
    name,
    root: [2.3, 0, 0.8],
    tip: [4.4, 0.05, 1.25],
    aft: AFT,
    normal: UP,
    chordRoot: 0.5,
    chordTip: 0.35,
    thickness: 0.03,
  };
}

/**
 * A `Rudders` group holding twin rudders (`Rudder_L` at x = −1, `Rudder_R` at x = 1) and a trim tab
 * inside the left one (`Rudder_L_Trim_Tab`), added to `doc`.
 */
export function addTwinRuddersWithTab(doc: Document): void {
  const rudder = (name: string, x: number): PanelSpec => ({
    name,
    root: [x, 1, 5],
    tip: [x, 2.2, 5.5],
    aft: AFT,
    normal: RIGHT,
    chordRoot: 0.7,
    chordTip: 0.5,
    thickness: 0.03,
  });
  const group = addGroup(doc, undefined, "Rudders");
  const left = addPanel(doc, group, rudder("Rudder_L", -1));
  addPanel(doc, group, rudder("Rudder_R", 1));
  addPanel(doc, left, {
    name: "Rudder_L_Trim_Tab",
    root: [-1, 1.2, 5.6],
    tip: [-1, 1.5, 5.7],
    aft: AFT,
    normal: RIGHT,
    chordRoot: 0.1,
    chordTip: 0.1,
    thickness: 0.005,
  });
}

/** Far edge (mid-span, mid-thickness) of a design panel, world space. */
export function farEdge(spec: PanelSpec, parentWorld: ArrayLike<number>): Vec3 {
  const f = 1 - (spec.hingeFraction ?? 0);
  const chord = (spec.chordRoot + spec.chordTip) / 2;
  const mid = [0, 1, 2].map((k) => (spec.root[k] + spec.tip[k]) / 2 + spec.aft[k] * f * chord) as Vec3;
  const m = parentWorld;
  return [0, 1, 2].map((r) => m[r] * mid[0] + m[4 + r] * mid[1] + m[8 + r] * mid[2] + m[12 + r]) as Vec3;
}

/** A synthetic panel and the name of the node it hangs under. */
export interface Case {
  spec: PanelSpec;
  parent: string;
  /** The design whose hinge is the true one, where it is not the panel's own (a split half's: the pair's). */
  hingeOf?: PanelSpec;
}

/** Checks hinge, pose keeping (in memory and after write/read) and +10° sense for each case. */
export async function checkCases(
  doc: Document,
  cases: Case[],
  wanted: (c: Case) => Vec3,
): Promise<RigResult> {
  const before = new Map(cases.map((c) => [c.spec.name, worldVertices(nodeNamed(doc, c.spec.name))]));
  const result = await rig(doc);
  const reread = await readGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  for (const c of cases) {
    const parentWorld = nodeNamed(doc, c.parent).getWorldMatrix();
    const truth = trueHinge(c.hingeOf ?? c.spec, parentWorld);
    const part = result.report.parts.find((p) => p.panel === c.spec.name);
    assert(part?.hinge, `${c.spec.name} rigged`);
    const degrees = axisErrorDegrees(part.hinge.world.axis, truth.axis);
    const offset = distanceToLine(truth.origin, part.hinge.world.origin, part.hinge.world.axis);
    assert(degrees < 0.05, `${c.spec.name}: axis error ${degrees}°`);
    assert(offset < 0.001, `${c.spec.name}: line offset ${offset} m`);

    const pivot = nodeNamed(result.scene, `HINGE_auto_${c.spec.name}`);
    let owner = pivot.getParentNode();
    while (owner?.getName().startsWith("HINGE_auto_")) owner = owner.getParentNode();
    assertEquals(owner?.getName(), c.parent);
    const moved = maxDisplacement(
      before.get(c.spec.name)!,
      worldVertices(nodeNamed(result.scene, c.spec.name)),
    );
    const movedOnDisk = maxDisplacement(
      before.get(c.spec.name)!,
      worldVertices(nodeNamed(reread, c.spec.name)),
    );
    assert(moved < 1e-5 && movedOnDisk < 1e-5, `${c.spec.name}: panel moved ${moved} / ${movedOnDisk} m`);

    const edge = farEdge(c.spec, parentWorld);
    const motion = sub(turnAttached(pivot, edge, 10), edge);
    const along = dot(motion, wanted(c)) / Math.hypot(...motion);
    assert(along > 0.5, `${c.spec.name}: +10° moved the far edge ${motion} (cos ${along} to wanted)`);
  }
  return result;
}
