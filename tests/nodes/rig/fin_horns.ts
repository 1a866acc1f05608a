/**
 * Fins and rudders carrying a lone control horn, as real files have them: the rudder's horn stands off
 * one side of the fin (left or right, at one or two span places; sometimes a pair, one each side) with
 * no pushrod — the rod or cable is drawn with the body, or not at all. Surfaces: a central fin with its
 * rudder, twin fins, a ventral fin hanging below the tail, an all-moving fin (its whole surface turns,
 * horn at its root), and V-tail ruddervators canted 35–65°. Horns are plates or boxes merged into the
 * surface's mesh (no name) or child nodes named as files name them in several languages (`RudderHorn`,
 * `Ruderhorn`, `guignol`, `squadretta`, `Horn.001`) or not at all (`Cube.004`); sections are low-poly
 * (12–29 around) or dense (30–80). Each surface's true hinge is the construction's; an all-moving fin's
 * is its shaft as the rig draws it for the same fin with no horn (`reference`). Aircraft coordinates
 * (aft, up, left) mapped to the default world; deterministic from a seed.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { normalize } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { type AirfoilSurface, airfoilSurface } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { linkage } from "./linkage_shapes.ts";
import { surfaceFrame } from "./rough_surfaces.ts";
import { type ClassMesh, FUSELAGE, joined, mapMesh, mapTruth, type Place } from "./surface_classes.ts";
import type { Document } from "@gltf-transform/core";

/** The layouts, cycled by seed. */
export const FIN_LAYOUTS = ["rudder", "twin_fins", "ventral", "all_moving", "v_tail"] as const;

/** One layout of {@link FIN_LAYOUTS}. */
export type FinLayout = (typeof FIN_LAYOUTS)[number];

/** Names files give a rudder's horn, in several languages, and names that say nothing. */
export const FIN_HORN_NAMES = [
  "RudderHorn",
  "Rudder_Horn.001",
  "Ruderhorn",
  "Seitenruderhorn",
  "guignol_direction",
  "squadretta",
  "ControlHorn",
  "Horn.001",
  "Cube.004",
  "Object012",
];

/** A surface of the sample and its true hinge (undefined hinge: judged against `reference`). */
export interface FinTruth {
  readonly name: string;
  readonly origin: Vec3;
  readonly axis: Vec3;
  readonly span: number;
  readonly chord: number;
  /** Its side: a central fin's is the centre. */
  readonly side: "left" | "right" | "centre";
  /** The horns it carries: how many, and whether named a horn. */
  readonly horns: number;
  readonly named: boolean;
  /**
   * An all-moving fin's shaft by construction: through the quarter point of its mean aerodynamic chord
   * (a quarter of the way from the leading to the trailing edge, both on the chord line, at the
   * area's spanwise centroid), square to the flow, and the whole fin's chord at mid-span; undefined
   * for a rudder on a fixed fin.
   */
  readonly shaft?: { readonly origin: Vec3; readonly axis: Vec3; readonly chord: number };
}

/** A generated scene: with its horns, and the same scene without them (the all-moving reference). */
export interface FinSample {
  readonly doc: Document;
  readonly bare: Document;
  readonly truths: FinTruth[];
  readonly layout: FinLayout;
  readonly description: string;
}

/** Aircraft coordinates (aft, up, left) to the default world (−Z forward, +Y up, +X right). */
const toWorld = (p: ArrayLike<number>): Vec3 => [-p[2], p[1], p[0]];

/** Turns about the aft axis by `degrees`, the left tip rising. */
const roll = (degrees: number): Place => {
  const a = degrees * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
  return (p) => [p[0], p[1] * c + p[2] * s, -p[1] * s + p[2] * c];
};

/**
 * The quarter-chord shaft of `surface` joined to its fixed part (an all-moving fin), placed by
 * `place`, in the default world: see {@link FinTruth.shaft}. Each station is one ring of vertices at
 * one span position; the fixed part's ring reaches forward to the leading edge and the surface's aft
 * to the trailing edge, both on the chord line.
 */
function quarterShaft(surface: AirfoilSurface, place: Place): NonNullable<FinTruth["shaft"]> {
  const span = normalize([0, surface.axis[1], surface.axis[2]]);
  const along = (p: ArrayLike<number>, i: number) => p[i * 3 + 1] * span[1] + p[i * 3 + 2] * span[2];
  const all = (p: ArrayLike<number>) => Array.from({ length: p.length / 3 }, (_, i) => i);
  const fixed = surface.wing.positions, moving = surface.positions;
  const us = all(fixed).map((i) => along(fixed, i));
  // The span read from the hinge, which a cambered tapered section tilts a little: a ring lies
  // within 2 % of the span of its station (stations are an eighth of it or more apart).
  const [lo, hi] = [Math.min(...us), Math.max(...us)], near = 0.02 * (hi - lo);
  const ends = [lo, hi].map((u) => {
    const ring = (p: ArrayLike<number>) => all(p).filter((i) => Math.abs(along(p, i) - u) < near);
    const pick = (p: ArrayLike<number>, better: (a: number, b: number) => boolean) =>
      ring(p).reduce((best, i) => better(p[i * 3], p[best * 3]) ? i : best);
    const l = pick(fixed, (a, b) => a < b), t = pick(moving, (a, b) => a > b);
    const lead = place([fixed[l * 3], fixed[l * 3 + 1], fixed[l * 3 + 2]]);
    const trail = place([moving[t * 3], moving[t * 3 + 1], moving[t * 3 + 2]]);
    const chord = Math.hypot(...[0, 1, 2].map((k) => trail[k] - lead[k]));
    return { quarter: [0, 1, 2].map((k) => lead[k] + (trail[k] - lead[k]) / 4) as Vec3, chord };
  });
  const [a, b] = ends;
  // The mean aerodynamic chord's station, the area's spanwise centroid: its quarter point, carried
  // along the shaft to mid-span.
  const t = (a.chord + 2 * b.chord) / (3 * (a.chord + b.chord));
  return {
    origin: toWorld(
      [0, 1, 2].map((k) =>
        a.quarter[k] + t * (b.quarter[k] - a.quarter[k]) + (k ? (0.5 - t) * (b.quarter[k] - a.quarter[k]) : 0)
      ),
    ),
    // Aft is aircraft x: the shaft is square to the flow.
    axis: toWorld(normalize([0, b.quarter[1] - a.quarter[1], b.quarter[2] - a.quarter[2]])),
    chord: (a.chord + b.chord) / 2,
  };
}

/** One placed surface: the moving part's place, its name and side, and the fixed part's name. */
interface Placed {
  readonly place: Place;
  readonly name: string;
  readonly fixed: string;
  readonly side?: "left" | "right";
}

/** The sample of `seed`, its layout cycled by seed. */
export function finHornSample(
  seed: number,
  layout: FinLayout = FIN_LAYOUTS[seed % FIN_LAYOUTS.length],
): FinSample {
  const next = prng(seed * 6151 + 17);
  const between = (a: number, b: number) => a + (b - a) * next();
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const lowPoly = next() < 0.5;
  const surface = airfoilSurface(next, { sweep: [0, 45], ...(lowPoly ? { around: [12, 29] as const } : {}) });
  const dihedral = Math.atan2(surface.axis[1], surface.axis[2]) * 180 / Math.PI;
  const centre = (p: Vec3): Vec3 => [p[0] - surface.origin[0], p[1] - surface.origin[1], p[2]];
  const rootLeft = Math.min(
    ...Array.from({ length: surface.positions.length / 3 }, (_, i) => surface.positions[i * 3 + 2]),
  );
  // The surface's root at the body's skin: its span turned up (or down), its root at `at`.
  const upright = (angle: number, at: Vec3): Place => {
    const turn = roll(angle - dihedral);
    // The hinge's mid-span point on the aircraft's middle plane (a dihedral turned away moves it aside).
    const aside = turn(centre([surface.origin[0], surface.origin[1], surface.origin[2] - rootLeft]))[2];
    return (p) => {
      const q = turn(centre([p[0], p[1], p[2] - rootLeft]));
      return [q[0] + at[0], q[1] + at[1], q[2] - aside + at[2]];
    };
  };
  const mirror = (f: Place): Place => (p) => {
    const q = f(p);
    return [q[0], q[1], -q[2]];
  };
  let placed: Placed[];
  let what: string;
  if (layout === "rudder" || layout === "all_moving") {
    const name = layout === "rudder"
      ? pick(["Rudder", "rudder", "Seitenruder", "Rudder_Main", "Rudder.001"])
      : "Rudder";
    placed = [{ place: upright(90, [8, 0.5, 0]), name, fixed: "Fin" }];
    what = layout === "rudder" ? "a rudder on a fin" : "an all-moving fin";
  } else if (layout === "ventral") {
    placed = [{
      place: upright(-90, [8, -0.5, 0]),
      name: pick(["Rudder_Lower", "VentralRudder", "Rudder_Ventral"]),
      fixed: "VentralFin",
    }];
    what = "a ventral fin's rudder";
  } else {
    const angle = layout === "twin_fins" ? between(75, 90) : between(35, 65);
    const names = layout === "twin_fins"
      ? pick([["Rudder_L", "Rudder_R"], ["Rudder.L", "Rudder.R"], ["RudderLeft", "RudderRight"]])
      : pick([["Ruddervator_L", "Ruddervator_R"], ["VTail_Ruddervator_Left", "VTail_Ruddervator_Right"]]);
    const left = upright(angle, [8, 0.5, layout === "twin_fins" ? between(0.5, 1.5) : 0.3]);
    placed = [
      { place: left, name: names[0], fixed: "Fin_L", side: "left" },
      { place: mirror(left), name: names[1], fixed: "Fin_R", side: "right" },
    ];
    what = `${layout === "twin_fins" ? "twin fins" : "a V-tail"} at ${angle.toFixed(0)}°`;
  }
  const allMoving = layout === "all_moving";
  const doc = newScene(), bare = newScene();
  for (const d of [doc, bare]) {
    addAircraftMesh(d, FUSELAGE.name, FUSELAGE.mesh.positions, FUSELAGE.mesh.triangles);
  }
  const truths: FinTruth[] = [];
  const asChildren = next() < 0.6;
  const hornName = pick(FIN_HORN_NAMES);
  // One span place (at the root end, where a cable or rod reaches it) or two; one side, or a pair.
  const places = next() < 0.6 ? [between(-0.45, -0.25)] : [between(-0.45, -0.25), between(0.1, 0.35)];
  const pairs = next() < 0.2;
  const side = next() < 0.5 ? 1 : -1;
  for (const p of placed) {
    const mesh = mapMesh(allMoving ? joined([surface, surface.wing]) : surface, p.place);
    const truth = mapTruth(surface, p.place);
    const frame = surfaceFrame(truth);
    const horns: ClassMesh[] = [];
    for (const s of places) {
      const at = (c: number, d: number, w = 0) => frame.point(c, d, s, w);
      // The mirror side's horn stands on its own outer (or inner) face alike.
      const here = p.side === "right" ? -side : side;
      horns.push(linkage(at, here, between(0.15, 0.4), 0, 1, next).horn);
      if (pairs) horns.push(linkage(at, -here, between(0.15, 0.4), 0, 1, next).horn);
    }
    for (const [d, extra] of [[doc, horns], [bare, []]] as const) {
      const merged = asChildren ? mesh : joined([mesh, ...extra]);
      const node = addAircraftMesh(d, p.name, merged.positions, merged.triangles);
      if (asChildren) {
        extra.forEach((h, i) =>
          addAircraftMesh(
            d,
            extra.length > 1 ? `${hornName}${i ? `.${i}` : ""}` : hornName,
            h.positions,
            h.triangles,
            node,
          )
        );
      }
      if (!allMoving) {
        const wing = mapMesh(surface.wing, p.place);
        addAircraftMesh(d, p.fixed, wing.positions, wing.triangles);
      }
    }
    truths.push({
      name: p.name,
      origin: toWorld(truth.origin),
      axis: toWorld(truth.axis),
      span: truth.span,
      chord: truth.chord,
      side: p.side ?? "centre",
      horns: horns.length,
      named: asChildren && /horn|guignol|squadretta/i.test(hornName),
      ...(allMoving ? { shaft: quarterShaft(surface, p.place) } : {}),
    });
  }
  return {
    doc,
    bare,
    truths,
    layout,
    description: `seed ${seed} ${layout}: ${what}, ${places.length} place(s)${pairs ? " pairs" : ""}, ${
      asChildren ? `children '${hornName}'` : "merged"
    }, ${lowPoly ? "low-poly" : "dense"}: ${surface.description}`,
  };
}
