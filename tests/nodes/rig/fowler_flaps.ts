/**
 * Airliner and business-jet wings with Fowler flaps, as low-poly models draw them: a coarse swept wing
 * (NACA sections, 5–10 points a side), one or two flap segments a side cut from its trailing edge, and
 * under each segment two track fairings (canoes: long pods along the flow, from under the wing to past
 * the trailing edge), drawn as objects of their own named by several tools' habits, all in one object a
 * side, named so the rig cannot read them (`FTF_1_L`), or not drawn (a business jet's tracks inside the
 * wing). Flaps named `Fowler…` or only `Flap…`. A `plain` family draws a light aircraft's plain flap with
 * one short track box and hinge fairings under it (as the demo fighter's `Flap_Track_1`), which is no
 * Fowler flap. Every flap's hinge is its forward edge at mid-thickness. Aircraft coordinates (aft, up,
 * left); deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { nacaCamber, nacaThickness } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { type ClassMesh, type ClassTruth, FUSELAGE, joined } from "./surface_classes.ts";
import { cosineLoops, loft, sectionDrawer } from "./airfoil_sections.ts";

/** The families: airliners (two segments), business jets (one), light aircraft with plain flaps. */
export type FlapFamily = "airliner" | "bizjet" | "plain";

/** Flap names, `#` the segment (left; the right swaps the side word). */
const FOWLER_NAMES = ["Fowler_#_L", "FowlerFlap#.L", "fowler_flap_#_left", "Fowler#_L"];
const FLAP_NAMES = ["Flap_#_L", "flap#_l", "Landeklappe_#_L", "TEF_#_L", "Flap_Inbd#_L"];

/** How the tracks are drawn. */
type TrackHabit = "objects" | "one_object" | "unread" | "none";

/** One generated aircraft: its scene, its flaps' truths and whether each is a Fowler flap. */
export interface FowlerSample {
  readonly scene: Document;
  readonly flaps: {
    readonly name: string;
    readonly side: "left" | "right";
    readonly truth: ClassTruth;
    /** A Fowler flap (airliner, business jet), or a plain one. */
    readonly fowler: boolean;
    /** Named `Fowler`, and how its tracks are drawn. */
    readonly named: boolean;
    readonly tracks: TrackHabit;
  }[];
  readonly description: string;
}

/** One aircraft of `family`; `index` picks names and habits. */
export function fowlerAircraft(next: () => number, index: number, family: FlapFamily): FowlerSample {
  const airliner = family === "airliner", plain = family === "plain";
  const span = plain ? 4 + 1.5 * next() : 5 + 9 * next(),
    rootChord = plain ? 1.4 + 0.4 * next() : 2.5 + 3 * next();
  const taper = plain ? 0.7 + 0.3 * next() : 0.25 + 0.2 * next();
  const sweep = (plain ? 0 : airliner ? 22 + 13 * next() : 8 + 15 * next()) * Math.PI / 180;
  const dihedral = (2 + 4 * next()) * Math.PI / 180, t = 0.1 + 0.05 * next(), m = 0.02 * next();
  const side = 5 + Math.floor(next() * 6), root = 0.5, lead0 = 2 + 2 * next(), y0 = plain ? 0.3 : -0.3;
  const at = (f: number) => ({
    z: root + f * span,
    lead: lead0 + f * span * Math.tan(sweep),
    chord: rootChord * (1 - (1 - taper) * f),
    y: y0 + f * span * Math.tan(dihedral),
  });
  type Station = ReturnType<typeof at>;
  const xs = cosineLoops(side);
  const upper = (x: number) => nacaCamber(m, 0.4, x) + nacaThickness(t, x);
  const lower = (x: number) => nacaCamber(m, 0.4, x) - nacaThickness(t, x);
  const section = sectionDrawer(xs, upper, lower);
  const wing = loft([at(0), at(1)].map((s) => section(s)));
  const a = plain ? 0.75 + 0.05 * next() : 0.68 + 0.07 * next();
  const segments: [number, number][] = airliner
    ? [[0.04, 0.33], [0.36, 0.68]]
    : [[0.04, plain ? 0.55 : 0.62]];
  const habits: TrackHabit[] = plain ? ["objects"] : ["objects", "one_object", "unread", "none"];
  const tracks = habits[index % habits.length];
  const named = !plain && (index >> 2) % 2 === 0;
  const names = named ? FOWLER_NAMES : FLAP_NAMES;
  const pattern = names[index % names.length];
  const scene = newScene();
  const toRight = (v: Vec3): Vec3 => [v[0], v[1], -v[2]];
  const flip = (triangles: ArrayLike<number>) => {
    const out: number[] = [];
    for (let i = 0; i < triangles.length; i += 3) out.push(triangles[i], triangles[i + 2], triangles[i + 1]);
    return out;
  };
  const add = (name: string, mesh: ClassMesh, right: boolean) => {
    const positions: number[] = [];
    for (let i = 0; i < mesh.positions.length; i += 3) {
      const v: Vec3 = [mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]];
      positions.push(...(right ? toRight(v) : v));
    }
    addAircraftMesh(scene, name, positions, right ? flip(mesh.triangles) : Array.from(mesh.triangles));
  };
  const rightName = (left: string) =>
    left.replace(/_L$/, "_R").replace(/\.L$/, ".R").replace(/_left$/, "_right").replace(/_l$/, "_r");
  addAircraftMesh(scene, FUSELAGE.name, FUSELAGE.mesh.positions, FUSELAGE.mesh.triangles);
  add("Wing_L", wing, false);
  add("Wing_R", wing, true);
  const flaps: FowlerSample["flaps"][number][] = [];
  const canoes: ClassMesh[] = [];
  segments.forEach(([f0, f1], j) => {
    // The flap nested under the wing's trailing edge, a little below its skins.
    const drop = (s: Station): Station => ({ ...s, y: s.y - 0.01 * s.chord });
    const flap = loft([at(f0), at(f1)].map((s) => section(drop(s), a, 1)));
    const [h0, h1] = [at(f0), at(f1)].map((s): Vec3 => [
      s.lead + a * s.chord,
      s.y - 0.01 * s.chord + (upper(a) + lower(a)) / 2 * s.chord,
      s.z,
    ]);
    const truth: ClassTruth = {
      origin: [0, 1, 2].map((k) => (h0[k] + h1[k]) / 2) as Vec3,
      axis: normalize([0, 1, 2].map((k) => h1[k] - h0[k]) as Vec3),
      span: Math.hypot(h1[0] - h0[0], h1[1] - h0[1], h1[2] - h0[2]),
      chord: (1 - a) * (at(f0).chord + at(f1).chord) / 2,
    };
    const name = pattern.replace("#", String(j + 1));
    add(name, flap, false);
    add(rightName(name), flap, true);
    flaps.push({ name, side: "left", truth, fowler: !plain, named, tracks });
    flaps.push({
      name: rightName(name),
      side: "right",
      truth: { ...truth, origin: toRight(truth.origin), axis: toRight(truth.axis) },
      fowler: !plain,
      named,
      tracks,
    });
    // Two canoes under the segment (one short track box under a plain flap), long along the flow.
    for (const f of plain ? [(f0 + f1) / 2] : [f0 + 0.2 * (f1 - f0), f0 + 0.8 * (f1 - f0)]) {
      const s = at(f), w = (plain ? 0.05 : 0.06 + 0.04 * next()) * s.chord / 2;
      const from = plain ? a + 0.05 : 0.55, to = plain ? 1.05 : 1 + 0.3 * (1 - a) + 0.2 * next();
      const depth = (plain ? 0.04 : 0.06 + 0.04 * next()) * s.chord;
      const ring = (x: number, r: number): Vec3[] => {
        const yl = s.y + lower(Math.min(x, 1)) * s.chord;
        return Array.from({ length: 6 }, (_, k) => {
          const q = k * Math.PI / 3;
          return [s.lead + x * s.chord, yl - r * depth * (1 + Math.cos(q)) / 2, s.z + r * w * Math.sin(q)];
        });
      };
      canoes.push(loft([ring(from, 0.2), ring(from + 0.15, 1), ring(to - 0.1, 0.8), ring(to, 0.15)]));
    }
  });
  if (tracks === "objects" || tracks === "unread") {
    const words = tracks === "unread"
      ? ["FTF_#_L", "Pod#_L"]
      : ["Flap_Track_Fairing_#_L", "FlapTrack_L_#", "canoe_#.L", "Track_Fairing#_L"];
    const word = words[index % words.length];
    canoes.forEach((mesh, k) => {
      const name = word.replace("#", String(k + 1));
      add(name, mesh, false);
      add(name.replace(/_L$/, "_R").replace(/\.L$/, ".R").replace(/_L_/, "_R_"), mesh, true);
    });
  } else if (tracks === "one_object") {
    add("Flap_Tracks_L", joined(canoes), false);
    add("Flap_Tracks_R", joined(canoes), true);
  }
  if (plain) {
    // Hinge fairings: short bumps under the flap's forward edge, no tracks.
    const [f0, f1] = segments[0];
    for (const [k, f] of [[1, f0 + 0.25 * (f1 - f0)], [2, f0 + 0.75 * (f1 - f0)]] as const) {
      const s = at(f), yl = s.y + lower(a) * s.chord;
      const lo: Vec3 = [s.lead + (a - 0.04) * s.chord, yl - 0.03 * s.chord, s.z - 0.03];
      const hi: Vec3 = [s.lead + (a + 0.05) * s.chord, yl, s.z + 0.03];
      const box = loft([lo[2], hi[2]].map((z) =>
        [[lo[0], lo[1], z], [hi[0], lo[1], z], [hi[0], hi[1], z], [
          lo[0],
          hi[1],
          z,
        ]] as Vec3[]
      ));
      add(`Flap_Fairing_${k}_L`, box, false);
      add(`Flap_Fairing_${k}_R`, box, true);
    }
  }
  return {
    scene,
    flaps,
    description: `${family}, sweep ${(sweep * 180 / Math.PI).toFixed(0)}°, tracks ${tracks}${
      named ? ", named Fowler" : ""
    }`,
  };
}
