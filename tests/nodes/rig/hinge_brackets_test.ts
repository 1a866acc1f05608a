/**
 * Hinge brackets about a plain hinge, as objects of their own near the surface's span end: a wing
 * bracket reaching from the cove to just behind the hinge (it stays put when the surface is modelled
 * deflected) and the surface's fitting lug (it turns with it), each deeper than the nose, about the
 * hinge — the nose circle's centre, where the fit puts the line. They say the line is right, and
 * must not make the fit weak; a dropped hinge's brackets, hanging below the nose to a pivot or
 * rising inside it through its centre, must (`hinge_hardware.ts`, `hardware_on_line.ts`).
 */
import { ok as assert } from "node:assert/strict";
import { fitHinge, HINGE_FIT_DEFAULTS } from "../../../nodes/rig/hinge_fit.ts";
import { judgeFit, withHardware } from "../../../nodes/rig/fit_confidence.ts";
import { hardwareBeside, type HardwareObject } from "../../../nodes/rig/hinge_hardware.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { type AirfoilSurface, airfoilSurface } from "./airfoil_panels.ts";
import { hingeError } from "./coarse_panels.ts";

const DEFLECTIONS = [0, 15, 30, -15, 10, 20];

/** A box object from its eight corners (aircraft frame). */
function boxObject(name: string, corners: Vec3[]): HardwareObject {
  const positions = new Float64Array(corners.flat());
  return {
    name,
    generic: false,
    box: { corner: corners[0], edges: [[0, 0, 0], [0, 0, 0], [0, 0, 0]] },
    vertices: () => ({ positions, count: corners.length }),
  };
}

/** `q` turned by `angle` (radians) about the line through `at` along unit `axis`. */
function turnAbout(q: Vec3, at: Vec3, axis: Vec3, angle: number): Vec3 {
  const d = [q[0] - at[0], q[1] - at[1], q[2] - at[2]];
  const c = Math.cos(angle), s = Math.sin(angle), along = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
  const x = [
    axis[1] * d[2] - axis[2] * d[1],
    axis[2] * d[0] - axis[0] * d[2],
    axis[0] * d[1] - axis[1] * d[0],
  ];
  return [0, 1, 2].map((i) => at[i] + d[i] * c + x[i] * s + axis[i] * along * (1 - c)) as Vec3;
}

/** The nose radius the surface was built with, as a share of its chord. */
const noseRadius = (s: AirfoilSurface) => Number(/nose radius ([\d.]+) %/.exec(s.description)![1]) / 100;

/** Box corners about the surface's true hinge: span fractions `f`, chord shares `aft` and `up` of it. */
function about(
  s: AirfoilSurface,
  f: [number, number],
  aft: [number, number],
  up: [number, number],
  turn = 0,
) {
  const { origin, axis, span, chord } = s;
  const out: Vec3[] = [];
  for (const fi of f) {
    for (const a of aft) {
      for (const u of up) {
        const p: Vec3 = [
          origin[0] + axis[0] * fi * span + a * chord,
          origin[1] + axis[1] * fi * span + u * chord,
          origin[2] + axis[2] * fi * span,
        ];
        out.push(turnAbout(p, origin, axis, turn));
      }
    }
  }
  return out;
}

/** The surface's turn about its hinge (trailing edge down for a positive deflection). */
const turnOf = (s: AirfoilSurface) => ((s.axis[2] > 0 ? -1 : 1) * s.deflection * Math.PI) / 180;

/** Fits the surface and judges it with the hardware beside it: confidence and whether it is right. */
function judge(s: AirfoilSurface, objects: HardwareObject[]) {
  const fit = fitHinge(
    s.positions,
    s.positions.length / 3,
    { ...HINGE_FIT_DEFAULTS, edge: "forward" },
    s.triangles,
  );
  const judgement = withHardware(judgeFit(fit), hardwareBeside(fit, "forward", objects));
  const { degrees, offset } = hingeError(s, fit);
  return { judgement, right: degrees <= 1 && offset <= 0.02 * s.chord, degrees, offset: offset / s.chord };
}

Deno.test("300 surfaces with hinge brackets about the hinge near the span end: right and good, not weak", () => {
  // rig.fit_hinge v18: 20 good, 280 weak — every one right (the bracket "reaches 6–20 % of its chord
  // outside its sections (a dropped hinge?)"). v19: 281 good, 19 weak (wing brackets beside
  // surfaces modelled deflected standing out of the turned sections on one side only).
  const next = prng(904), own = prng(1904);
  const tally = { good: 0, weak: 0, silent: 0 };
  for (let i = 0; i < 300; i++) {
    const s = airfoilSurface(next, { deflection: DEFLECTIONS[i % DEFLECTIONS.length] });
    const r = noseRadius(s), objects: HardwareObject[] = [];
    for (const end of own() < 0.5 ? [1] : [-1, 1]) {
      const f0 = end * (0.4 + 0.09 * own()), width = 0.005 + 0.02 * own();
      const kind = ["plate", "lug", "both"][Math.floor(own() * 3)];
      const h = r * (1.1 + 0.8 * own());
      if (kind !== "lug") {
        const aft: [number, number] = [-(0.15 + 0.25 * own()), 0.02 + 0.06 * own()];
        objects.push(
          boxObject(
            `Aileron_Hinge_Bracket_${objects.length + 1}`,
            about(s, [f0 - width / 2, f0 + width / 2], aft, [-h, h]),
          ),
        );
      }
      if (kind !== "plate") {
        const aft: [number, number] = [-(0.02 + 0.04 * own()), 0.1 + 0.2 * own()];
        const shift = kind === "both" ? width : 0;
        const f: [number, number] = [f0 - width / 2 + shift, f0 + width / 2 + shift];
        objects.push(
          boxObject(`Aileron_Hinge_Fitting_${objects.length + 1}`, about(s, f, aft, [-h, h], turnOf(s))),
        );
      }
    }
    const { judgement, right, degrees, offset } = judge(s, objects);
    if (judgement.confidence === "good") {
      tally.good++;
      if (!right) tally.silent++;
      assert(right, `#${i} ${s.description}: good ${degrees.toFixed(2)}°, ${(offset * 100).toFixed(1)} %`);
    } else tally.weak++;
  }
  console.log(`brackets about the hinge: ${JSON.stringify(tally)}`);
  assert(tally.good >= 270, JSON.stringify(tally));
});

Deno.test("300 flaps on a dropped hinge whose brackets rise inside the nose through its centre: weak wherever one reaches out", () => {
  // The bracket reaches above the fitted line (the nose circle's centre) as far as 0.5–0.95 of the
  // nose radius and below it to the pivot, 5–25 % of the chord further down: outside the sections
  // below only. (2 of the 300, deflected 20°, have no bracket reaching 5 % outside: not judged.)
  const next = prng(907), own = prng(1907);
  let good = 0;
  const missed: string[] = [];
  for (let i = 0; i < 300; i++) {
    const deflection = DEFLECTIONS[i % DEFLECTIONS.length];
    const s = airfoilSurface(next, { deflection });
    const r = noseRadius(s), drop = 0.05 + 0.2 * own(), objects: HardwareObject[] = [];
    for (const f0 of [-0.45, 0, 0.45]) {
      const top = r * (0.5 + 0.45 * own()),
        aft: [number, number] = [-(0.02 + 0.05 * own()), 0.05 + 0.2 * own()];
      objects.push(
        boxObject(
          `Flap_Bracket_${objects.length + 1}`,
          about(s, [f0 - 0.01, f0 + 0.01], aft, [-(r + drop), top], turnOf(s)),
        ),
      );
    }
    const { judgement } = judge(s, objects);
    if (judgement.confidence === "good") {
      good++;
      missed.push(`#${i} ${s.description}`);
    }
  }
  console.log(`dropped hinges, brackets through the nose: ${good} good (${missed.join("; ")})`);
  assert(good <= 2, missed.join("; "));
  assert(missed.every((m) => m.includes("deflected 20°")), missed.join("; "));
});
