import { ok as assert } from "node:assert/strict";
import { fitHinge, HINGE_FIT_DEFAULTS, type HingeFitOptions } from "../../../nodes/rig/hinge_fit.ts";
import { fitRobustLine } from "../../../nodes/rig/line_fit.ts";
import { symmetricEigen3 } from "../../../nodes/rig/eigen3.ts";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { axisErrorDegrees, distanceToLine, panelMesh, type PanelSpec } from "./fixtures.ts";

// Aircraft coordinates: x aft, y up, z left.
const AFT: Vec3 = [1, 0, 0];
const UP: Vec3 = [0, 1, 0];
const LEFT: Vec3 = [0, 0, 1];

/** Fits from the surface (triangles sliced at stations), or from vertices alone with `vertices`. */
function fit(spec: PanelSpec, options: Partial<HingeFitOptions> = {}, vertices = false) {
  const { positions, indices } = panelMesh(spec);
  return fitHinge(
    positions,
    positions.length / 3,
    { ...HINGE_FIT_DEFAULTS, ...options },
    vertices ? undefined : indices,
  );
}

function errors(spec: PanelSpec, options: Partial<HingeFitOptions> = {}) {
  const result = fit(spec, options);
  const axis = normalize([
    spec.tip[0] - spec.root[0],
    spec.tip[1] - spec.root[1],
    spec.tip[2] - spec.root[2],
  ]);
  return {
    result,
    degrees: axisErrorDegrees(result.axis, axis),
    // Both ends of the fitted line must be on the true line, not only its middle.
    offset: Math.max(
      distanceToLine(result.origin, spec.root, axis),
      distanceToLine(
        [0, 1, 2].map((k) => result.origin[k] + result.axis[k] * 0.5 * result.spanLength) as Vec3,
        spec.root,
        axis,
      ),
    ),
  };
}

const swept: PanelSpec = {
  name: "Aileron_L",
  root: [0, 0, 2],
  tip: [Math.tan((20 * Math.PI) / 180) * 1.5, 0, 3.5],
  aft: AFT,
  normal: UP,
  chordRoot: 0.45,
  chordTip: 0.3,
  thickness: 0.04,
};

Deno.test("swept, tapered panel: hinge at the nose's mid-thickness", () => {
  const { degrees, offset, result } = errors(swept);
  assert(degrees < 0.01, `axis error ${degrees}°`);
  assert(offset < 1e-4, `line offset ${offset} m`);
  assert(
    result.binsFilled === 12 && result.inliers === 12,
    `bins ${result.binsFilled}, inliers ${result.inliers}`,
  );
});

Deno.test("the hinge is the band average, not a skin corner", () => {
  // A slanted nose face: the upper corner 8 mm ahead of the lower. Its mid-thickness point is 4 mm
  // ahead of the root/tip line; the single most-forward vertex is the upper corner, 20 mm above.
  const raked: PanelSpec = { ...swept, noseRake: 0.008 };
  const shift = (p: Vec3): Vec3 => [p[0] - 0.004, p[1], p[2]];
  const truth = { ...raked, root: shift(raked.root), tip: shift(raked.tip) };
  const result = fit(raked);
  const axis = normalize([truth.tip[0] - truth.root[0], 0, truth.tip[2] - truth.root[2]]);
  const offset = distanceToLine(result.origin, truth.root, axis);
  assert(offset < 2e-4, `offset ${offset}`);
  const corner = fit(raked, { bandFraction: 0 });
  assert(distanceToLine(corner.origin, truth.root, axis) > 0.015, "a single extreme vertex is a corner");
});

Deno.test("a horn balance at the tip does not tilt the hinge", () => {
  const horned: PanelSpec = { ...swept, stations: 25, horn: { fromSpan: 0.85, depth: 0.15 } };
  const { degrees, offset, result } = errors(horned);
  assert(degrees < 0.05, `axis error ${degrees}°`);
  assert(offset < 0.002, `line offset ${offset} m`);
  assert(result.inliers < result.binsFilled, "the horn bins are outliers");
  // Plain least squares through every bin (all inliers) is tilted by the horn.
  assert(errors(horned, { inlierFraction: 10 }).degrees > 1);
});

Deno.test("near-square panel: span from the normal, not the largest principal axis", () => {
  // 0.9 m chord × 0.84 m span: the chord is the larger extent, so raw PCA would take it as span.
  const brake: PanelSpec = {
    name: "SpeedBrake",
    root: [0, 0.8, -0.42],
    tip: [0, 0.8, 0.42],
    aft: AFT,
    normal: UP,
    chordRoot: 0.9,
    chordTip: 0.9,
    thickness: 0.03,
  };
  const { degrees, offset } = errors(brake);
  assert(degrees < 0.01, `axis error ${degrees}°`);
  assert(offset < 1e-4, `offset ${offset}`);
});

Deno.test("upright panel (rudder): span is up, hinge swept back", () => {
  const rudder: PanelSpec = {
    name: "Rudder",
    root: [5, 1, 0],
    tip: [5 + Math.tan((35 * Math.PI) / 180) * 1.2, 2.2, 0],
    aft: AFT,
    normal: LEFT,
    chordRoot: 0.6,
    chordTip: 0.35,
    thickness: 0.03,
  };
  const { degrees, offset, result } = errors(rudder);
  assert(degrees < 0.05, `axis error ${degrees}°`);
  assert(offset < 0.0015, `offset ${offset}`);
  assert(Math.abs(result.normal[2]) > 0.99, "normal is lateral");
});

Deno.test("all-moving surface pivots at quarter chord", () => {
  const stab: PanelSpec = {
    name: "Stabilator_L",
    root: [6, 0, 1],
    tip: [6, -0.2, 3.4],
    aft: AFT,
    normal: normalize([0, 1, 0.083]),
    chordRoot: 2.2,
    chordTip: 2.2,
    thickness: 0.06,
    hingeFraction: 0.25,
  };
  const { degrees, offset } = errors(stab, { edge: "quarter" });
  assert(degrees < 0.05, `axis error ${degrees}°`);
  assert(offset < 0.01 * 2.2, `offset ${offset}`);
  // The forward edge is 0.55 m ahead: fitting the wrong edge would be far off.
  assert(errors(stab, { edge: "forward" }).offset > 0.4);
});

Deno.test("leading-edge device hinges on its aft edge", () => {
  const lef: PanelSpec = {
    name: "LEF_L",
    root: [0.3, 0, 0.4],
    tip: [1.6, 0, 4.4],
    aft: AFT,
    normal: UP,
    chordRoot: 0.6,
    chordTip: 0.25,
    thickness: 0.05,
    hingeEdge: "aft",
  };
  const { degrees, offset } = errors(lef, { edge: "aft" });
  assert(degrees < 0.05, `axis error ${degrees}°`);
  assert(offset < 0.002, `offset ${offset}`);
});

Deno.test("low-poly panel (two sections): the surface fills every station, vertices only two bins", () => {
  const coarse = { ...swept, stations: 2, divisions: 1 };
  const { degrees, offset, result } = errors(coarse);
  assert(result.fromSurface && result.binsFilled === 12 && result.inliers === 12, `${result.binsFilled}`);
  assert(degrees < 1e-3 && offset < 1e-4, `${degrees}°, ${offset} m`);
  const binned = fit(coarse, {}, true);
  assert(!binned.fromSurface && binned.binsFilled === 2 && binned.inliers === 2);
});

Deno.test("far-off coordinates keep precision (moments are taken about a vertex)", () => {
  const far: PanelSpec = {
    ...swept,
    root: [swept.root[0] + 1000, swept.root[1] + 200, swept.root[2] - 500],
    tip: [swept.tip[0] + 1000, swept.tip[1] + 200, swept.tip[2] - 500],
  };
  const { degrees, offset } = errors(far);
  assert(degrees < 0.02 && offset < 5e-4, `${degrees}°, ${offset} m`);
});

Deno.test("robust line: outliers are rejected, inliers fitted by total least squares", () => {
  const points = new Float64Array([
    0,
    0,
    0,
    1,
    0.001,
    0,
    2,
    0,
    0,
    3,
    0.001,
    0,
    4,
    0,
    0,
    5,
    0.8,
    0,
    6,
    0.9,
    0,
  ]);
  const line = fitRobustLine(points, 7, 0.01, [1, 0, 0]);
  assert(line.inlierCount === 5, `inliers ${line.inlierCount}`);
  assert(Math.abs(line.direction[1]) < 0.001 && line.direction[0] > 0.999);
});

Deno.test("symmetric eigen-solver handles repeated eigenvalues", () => {
  const { values, vectors } = symmetricEigen3(2, 0, 0, 2, 0, 1);
  assert(Math.abs(values[0] - 1) < 1e-12 && Math.abs(values[2] - 2) < 1e-12);
  assert(Math.abs(Math.abs(vectors[0][2]) - 1) < 1e-12);
  const rotated = symmetricEigen3(3, 1, 0, 3, 0, 5);
  assert(Math.abs(rotated.values[0] - 2) < 1e-12 && Math.abs(rotated.values[2] - 5) < 1e-12);
});
