/**
 * Static wicks: thin rods standing aft from a control surface's trailing edge (three or so a surface
 * on airliners and business jets), drawn into the surface's mesh or as objects of their own
 * (`Aileron_L_Wick_1`, read as the aileron and joined to it as its piece). They continue the section
 * past its trailing edge and stay within its thickness there, so they must leave a right fit `good`;
 * a bracket hanging below the nose in the same mesh must still make it `weak` (`hanging.ts`).
 */
import { ok as assert } from "node:assert/strict";
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { hingeError } from "./coarse_panels.ts";
import { rod } from "./dressed_aircraft.ts";
import { rig } from "./pipeline.ts";
import { type ClassMesh, joined } from "./surface_classes.ts";
import { piecesAircraft, type PiecesPanel, piecesScene, type SceneObject } from "./surface_pieces.ts";

/** Aft (aircraft +X) square to the panel's true hinge. */
function aftOf(panel: PiecesPanel): Vec3 {
  return normalize(cross(cross(panel.truth!.axis, [1, 0, 0]), panel.truth!.axis));
}

/** A point of the panel relative to its true hinge: along the span (share of it, 0 mid) and aft. */
function placeOf(panel: PiecesPanel, p: ArrayLike<number>, v: number): { span: number; aft: number } {
  const t = panel.truth!, aft = aftOf(panel);
  const d = [0, 1, 2].map((k) => p[3 * v + k] - t.origin[k]);
  return {
    span: (d[0] * t.axis[0] + d[1] * t.axis[1] + d[2] * t.axis[2]) / t.span,
    aft: d[0] * aft[0] + d[1] * aft[1] + d[2] * aft[2],
  };
}

/**
 * The trailing edge at span share `f`: of the points where the mesh's edges cross the plane square
 * to the hinge there (the section), the one furthest aft.
 */
function trailingEdgeAt(panel: PiecesPanel, f: number): Vec3 {
  const { positions: p, triangles } = panel.mesh;
  let best: Vec3 = [NaN, NaN, NaN], bestAft = -Infinity;
  for (let t = 0; t < triangles.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = triangles[t + e], b = triangles[t + (e + 1) % 3];
      const sa = placeOf(panel, p, a).span - f, sb = placeOf(panel, p, b).span - f;
      if (sa * sb > 0 || sa === sb) continue;
      const w = sa / (sa - sb);
      const point = [0, 1, 2].map((k) => p[3 * a + k] + w * (p[3 * b + k] - p[3 * a + k])) as Vec3;
      const aft = placeOf(panel, point, 0).aft;
      if (aft > bestAft) [best, bestAft] = [point, aft];
    }
  }
  return best;
}

/**
 * Wicks at span shares `at` (0 mid): each from the trailing edge there on along the chord line
 * through it, 8–15 % of the chord long, 0.3–0.5 % of it thick.
 */
export function wicks(panel: PiecesPanel, next: () => number, at = [-0.35, 0, 0.35]): ClassMesh[] {
  const t = panel.truth!;
  return at.map((f) => {
    const te = trailingEdgeAt(panel, f);
    // The chord line through it: from the hinge line square to it (the section's nose) to the edge.
    const d = [0, 1, 2].map((k) => te[k] - t.origin[k]);
    const along = d[0] * t.axis[0] + d[1] * t.axis[1] + d[2] * t.axis[2];
    const chordDir = normalize([0, 1, 2].map((k) => d[k] - along * t.axis[k]) as Vec3);
    const length = (0.08 + 0.07 * next()) * t.chord;
    const tip = [0, 1, 2].map((k) => te[k] + chordDir[k] * length) as Vec3;
    return rod(te, tip, (0.003 + 0.002 * next()) * t.chord);
  });
}

/** A bracket hanging below the nose at mid-span: 25 % of the chord deep. */
function bracket(panel: PiecesPanel): ClassMesh {
  const t = panel.truth!, aft = aftOf(panel);
  const down = normalize(cross(aft, t.axis)), sign = down[1] > 0 ? -1 : 1;
  const at: Vec3 = [0, 1, 2].map((k) => t.origin[k] + aft[k] * 0.05 * t.chord) as Vec3;
  return rod(at, [0, 1, 2].map((k) => at[k] + sign * down[k] * 0.25 * t.chord) as Vec3, 0.02 * t.chord);
}

type Dress = "in_mesh" | "objects" | "bracket";

/** Rigs aircraft of `seeds` with wicks dressed as `dress`; per panel right/wrong and the judgement. */
async function tally(seeds: readonly number[], dress: Dress): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const seed of seeds) {
    const next = prng(seed * 7 + 3);
    const a = piecesAircraft(seed, seed % 3 === 0 ? [12, 20] : [30, 80]);
    const objects: SceneObject[] = a.fixed.map(({ name, mesh }) => ({ name, mesh }));
    for (const panel of a.panels) {
      const dressing = wicks(panel, next);
      if (dress === "objects") {
        objects.push({ name: panel.name, mesh: panel.mesh });
        dressing.forEach((mesh, k) => objects.push({ name: `${panel.name}_Wick_${k + 1}`, mesh }));
      } else {
        if (dress === "bracket") dressing.push(bracket(panel));
        objects.push({ name: panel.name, mesh: joined([panel.mesh, ...dressing]) });
      }
    }
    const { report } = await rig(piecesScene({ objects, panels: a.panels, description: `seed ${seed}` }));
    for (const panel of a.panels) {
      const part = report.parts.find((p) => p.panel === panel.name)!;
      const { degrees, offset } = hingeError(panel.truth!, part.hinge!.aircraft);
      const right = degrees <= 2 && offset <= 0.05 * panel.truth!.chord;
      const key = `${right ? "right" : "wrong"} ${
        (part.fit as unknown as { confidence: string }).confidence
      }`;
      out[key] = (out[key] ?? 0) + 1;
    }
  }
  return out;
}

const SEEDS = Array.from({ length: 12 }, (_, i) => 8100 + 13 * i);

Deno.test("static wicks at the trailing edge, in the surface's mesh or as objects, leave right fits good", async () => {
  for (const dress of ["in_mesh", "objects"] as const) {
    const t = await tally(SEEDS, dress);
    console.log(`wicks ${dress}: ${JSON.stringify(t)}`);
    assert((t["right good"] ?? 0) === SEEDS.length * 5, `${dress}: ${JSON.stringify(t)}`);
  }
});

Deno.test("a bracket hanging below the nose beside static wicks still makes the fit weak", async () => {
  const t = await tally(SEEDS.slice(0, 6), "bracket");
  console.log(`wicks and a bracket: ${JSON.stringify(t)}`);
  assert(!t["right good"] && !t["wrong good"], JSON.stringify(t));
});
