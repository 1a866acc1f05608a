/**
 * Jet layouts as fighter models have them: a wide fuselage, a big swept wing whose trailing edge lies
 * close ahead of the tail, and a tail of stabilators (all-moving, named `Elevator_L`/`_R` as many
 * files name them: F-16, F-15, MiG-29, Tornado) or, on control samples, elevators behind a fixed
 * stabiliser in the same place. The tail sits a gap of 2–80 % of its root chord behind the wing's
 * root trailing edge and above or below the wing's plane (tailerons); optionally leading-edge root
 * extensions (LERX) ahead of the wing, twin fins beside the tail, and the wing drawn whole (its
 * flaperons in its mesh) or with separate flaperons. {@link jetLayout} also gives the same tail with
 * no wing, fins or LERX beside it (`alone`): there nothing but the fuselage lies near it, so its
 * shaft there is the rig's all-moving convention the full layout must keep. Aircraft coordinates
 * (aft, up, left); deterministic from a seed.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import {
  boxMesh,
  type ClassMesh,
  type ClassPanel,
  type ClassSample,
  joined,
  mirroredPair,
} from "./surface_classes.ts";

/** A jet layout and the same tail with nothing but the fuselage beside it. */
export interface JetLayout extends ClassSample {
  /** True when the tail is all-moving (stabilators); false: elevators on a fixed stabiliser. */
  readonly stabilators: boolean;
  /** The fuselage and the tail alone (for the all-moving convention's shaft). */
  readonly alone: ClassSample;
}

type Place = (p: Vec3) => Vec3;

/** The root section's forward and aft ends and height: the vertices nearest the root (least left). */
function rootSection(mesh: ClassMesh): { lead: number; trail: number; up: number } {
  const p = mesh.positions;
  let minLeft = Infinity, maxLeft = -Infinity;
  for (let i = 2; i < p.length; i += 3) {
    minLeft = Math.min(minLeft, p[i]);
    maxLeft = Math.max(maxLeft, p[i]);
  }
  const band = minLeft + 0.03 * (maxLeft - minLeft);
  let lead = Infinity, trail = -Infinity, up = 0, n = 0;
  for (let i = 0; i < p.length; i += 3) {
    if (p[i + 2] > band) continue;
    lead = Math.min(lead, p[i]);
    trail = Math.max(trail, p[i]);
    up += p[i + 1];
    n++;
  }
  return { lead, trail, up: up / n };
}

const leftOf = (mesh: ClassMesh) => {
  let least = Infinity;
  for (let i = 2; i < mesh.positions.length; i += 3) least = Math.min(least, mesh.positions[i]);
  return least;
};

/** A map taking `mesh`'s root to `to` (forward end of its root when `at` is "lead", else aft end), scaled. */
function placing(mesh: ClassMesh, at: "lead" | "trail", to: Vec3, scale = 1): Place {
  const root = rootSection(mesh);
  const from: Vec3 = [at === "lead" ? root.lead : root.trail, root.up, leftOf(mesh)];
  return (p) => [0, 1, 2].map((k) => to[k] + scale * (p[k] - from[k])) as Vec3;
}

/** An upright fixed fin: a thin closed box `chord` long and `height` high at `left`, from `aft`. */
function fin(aft: number, up: number, left: number, chord: number, height: number): ClassMesh {
  return boxMesh([aft, up, left - 0.02 * chord], [aft + chord, up + height, left + 0.02 * chord]);
}

const mirrorMesh = (mesh: ClassMesh): ClassMesh => {
  const positions = Array.from(mesh.positions);
  for (let i = 2; i < positions.length; i += 3) positions[i] = -positions[i];
  return { positions, triangles: mesh.triangles };
};

/**
 * A jet layout (see the module): stabilators on odd `index`, elevators behind a fixed stabiliser on
 * even ones; the rest drawn from `next`.
 */
export function jetLayout(next: () => number, index: number): JetLayout {
  const between = (a: number, b: number) => a + (b - a) * next();
  const stabilators = index % 2 === 1;
  const half = between(0.4, 1); // the fuselage's half width
  const tail = airfoilSurface(next, { sweep: [25, 50] });
  const wing = airfoilSurface(next, { sweep: [20, 45] });
  const tailWhole = joined([tail, tail.wing]);
  const tailRoot = rootSection(tailWhole);
  const tailChord = tailRoot.trail - tailRoot.lead;
  // The wing's root chord 1.5–3 times the tail's, its root trailing edge at aft 0 on the fuselage's side.
  const wingWhole = joined([wing, wing.wing]);
  const wingRoot = rootSection(wingWhole);
  const wingScale = between(1.5, 3) * tailChord / (wingRoot.trail - wingRoot.lead);
  const placeWing = placing(wingWhole, "trail", [0, 0, half], wingScale);
  // The tail a gap behind the wing's trailing edge, above or below its plane.
  const gap = between(0.02, 0.8), rise = between(-0.3, 0.3);
  const placeTail = placing(tailWhole, "lead", [gap * tailChord, rise * tailChord, half]);
  const tailPair = mirroredPair(tail, placeTail, ["Elevator_L", "Elevator_R"], "elevator", "Stabiliser");
  const panels: ClassPanel[] = stabilators
    ? tailPair.panels.map(({ truth: _, ...panel }, i) => ({
      ...panel,
      mesh: joined([panel.mesh, tailPair.fixed[i].mesh]),
    }))
    : tailPair.panels;
  const tailFixed = stabilators ? [] : tailPair.fixed;
  const length = gap * tailChord + 2 * tailChord + 2;
  const fuselage = {
    name: "Fuselage",
    mesh: boxMesh([-12, -0.6 * half, -half], [length, 0.6 * half, half]),
  };
  const fixed: ClassSample["fixed"] = [fuselage];
  const flaperons = next() < 0.5;
  const wingPair = mirroredPair(wing, placeWing, ["Flaperon_L", "Flaperon_R"], "aileron", "Wing");
  if (flaperons) {
    // Flaperon truths are at the wing's unscaled size: not judged here.
    panels.push(...wingPair.panels.map(({ truth: _, ...panel }) => panel));
    fixed.push(...wingPair.fixed);
  } else {
    fixed.push(
      ...wingPair.fixed.map((f, i) => ({ name: f.name, mesh: joined([f.mesh, wingPair.panels[i].mesh]) })),
    );
  }
  const extras: string[] = [];
  if (next() < 0.5) {
    // Leading-edge root extensions: thin strakes along the fuselage ahead of the wing.
    const chord = (wingRoot.trail - wingRoot.lead) * wingScale;
    const lerx = boxMesh([-chord * 1.8, -0.02, half], [-chord * 0.6, 0.02, half + 0.15 * chord]);
    fixed.push({ name: "LERX_L", mesh: lerx }, { name: "LERX_R", mesh: mirrorMesh(lerx) });
    extras.push("LERX");
  }
  if (next() < 0.5) {
    // Twin fins on the tail booms beside the stabilators' roots.
    const f = fin(
      gap * tailChord - 0.3 * tailChord,
      0.6 * half,
      0.8 * half,
      1.2 * tailChord,
      1.5 * tailChord,
    );
    fixed.push({ name: "Fin_L", mesh: f }, { name: "Fin_R", mesh: mirrorMesh(f) });
    extras.push("twin fins");
  }
  const description =
    `${stabilators ? "stabilators" : "elevators"} ${(gap * 100).toFixed(0)} % of the tail's ` +
    `chord behind the wing, ${(rise * 100).toFixed(0)} % above it; wing ×${
      (wingScale * (wingRoot.trail - wingRoot.lead) / tailChord).toFixed(1)
    } the tail's chord${flaperons ? " with flaperons" : " whole"}${extras.map((e) => `, ${e}`).join("")}; ` +
    `tail ${tail.description}`;
  return {
    panels,
    fixed: [...fixed, ...tailFixed],
    stabilators,
    description,
    alone: {
      panels: panels.filter((p) => p.name.startsWith("Elevator")),
      fixed: [fuselage, ...tailFixed],
      description,
    },
  };
}
