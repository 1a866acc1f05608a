/**
 * WWII dive bombers with their dive brakes drawn open, as showcase and sim models draw them: a Ju 87's
 * or Aichi D3A's slatted plates hanging under the wing (turned 75–90° down out of the lower skin about
 * their forward edge, under the wing ahead of or at mid chord), a Vengeance's plates out of both skins
 * at mid chord, a Dauntless's perforated split flaps at the trailing edge (the lower half down, the upper
 * half up, 60–90°). Each plate's forward edge sits in the skin, the plate outside the wing: a hinged
 * plate, no blade sliding out of a slot. A low, straight wing (aspect ratio 5.5–7.5), a fuselage with a
 * named engine, fixed gear on some; names English and German (`DiveBrake_L`, `Sturzflugbremse_links`,
 * `Bremsklappe_L`), some files in centimetres, some right sides mirrored. Aircraft coordinates (aft, up,
 * left); deterministic from a seed.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { nacaThickness } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { type ClassMesh, joined } from "./surface_classes.ts";
import type { Document, Node } from "@gltf-transform/core";
import { cosineLoops, fuselageRing, loft, sectionDrawer } from "./airfoil_sections.ts";

/** Dive brakes' names, left and right, as modellers write them. */
export const DIVE_BRAKE_NAMES: readonly (readonly [string, string])[] = [
  ["DiveBrake_L", "DiveBrake_R"],
  ["Sturzflugbremse_L", "Sturzflugbremse_R"],
  ["Bremsklappe_L", "Bremsklappe_R"],
  ["Sturzflugbremse_links", "Sturzflugbremse_rechts"],
  ["dive_brake_left", "dive_brake_right"],
  ["Divebrake.L", "Divebrake.R"],
];

/** The dive bombers drawn: where their brakes are and which skins they leave. */
export const DIVE_FAMILIES = ["ju87", "d3a", "vengeance", "dauntless"] as const;

/** One dive brake's truth: the line it turns about (its forward edge, in the skin). */
export interface DiveBrakeTruth {
  readonly origin: Vec3;
  readonly axis: Vec3;
  readonly span: number;
  readonly chord: number;
}

/** One generated dive bomber. */
export interface DiveSample {
  readonly scene: Document;
  readonly brakes: {
    readonly name: string;
    readonly side: "left" | "right";
    /** The skin it turns out of. */
    readonly skin: "upper" | "lower";
    readonly truth: DiveBrakeTruth;
  }[];
  readonly description: string;
}

/** One dive bomber of `family`; `index` picks names and habits, `next` the shape. */
export function diveBomber(
  next: () => number,
  index: number,
  family: (typeof DIVE_FAMILIES)[number] = DIVE_FAMILIES[index % DIVE_FAMILIES.length],
  options: { arms?: boolean } = {},
): DiveSample {
  const halfSpan = 6 + 1.5 * next(), aspect = 5.5 + 2 * next();
  const meanChord = 2 * halfSpan / aspect, taper = 0.45 + 0.2 * next();
  const rootChord = 2 * meanChord / (1 + taper), t = 0.13 + 0.04 * next();
  const dihedral = (3 + 4 * next()) * Math.PI / 180, root = 0.55, lead0 = 1.2 + 0.4 * next(), y0 = -0.3;
  const at = (f: number) => ({
    z: root + f * halfSpan,
    lead: lead0 + f * halfSpan * 0.15 * (1 - taper),
    chord: rootChord * (1 - (1 - taper) * f),
    y: y0 + f * halfSpan * Math.tan(dihedral),
  });
  type Station = ReturnType<typeof at>;
  const side = 6 + Math.floor(next() * 5);
  const xs = cosineLoops(side);
  const upper = (x: number) => 0.02 * Math.sin(Math.PI * x) + nacaThickness(t, x);
  const lower = (x: number) => 0.02 * Math.sin(Math.PI * x) - nacaThickness(t, x);
  const section = sectionDrawer(xs, upper, lower);
  const wing = loft([at(0), at(1)].map((s) => section(s, 0, family === "dauntless" ? 0.75 : 1)));
  const aileron = loft([at(0.7), at(0.97)].map((s) => section({ ...s, y: s.y + 0.003 * s.chord }, 0.78, 1)));
  const ring = fuselageRing;
  const tailX = lead0 + 6 + 1.5 * next();
  const fuselage = loft([
    ring(-0.6, 0.45, 0),
    ring(0.5, 0.65, 0.05),
    ring(3, 0.6, 0.1),
    ring(tailX + 0.5, 0.15, 0.3),
  ]);
  const engine = loft([ring(-1.5, 0.3, 0), ring(-0.6, 0.5, 0)]);
  const stab = loft([0, 2.2].map((z) => section({ z, lead: tailX - 0.4, chord: 1.1, y: 0.35 }, 0, 0.6)));
  const elevator = loft(
    [0.05, 2.2].map((z) => section({ z, lead: tailX - 0.4, chord: 1.1, y: 0.352 }, 0.62, 1)),
  );

  // The brakes: span 30–45 % of the half span from 20–30 % out; chord and place by family.
  const f0 = 0.2 + 0.1 * next(), f1 = f0 + 0.3 + 0.15 * next();
  const place = {
    ju87: { x: 0.2 + 0.12 * next(), c: 0.12 + 0.06 * next(), skins: ["lower"], most: 90, least: 75 },
    d3a: { x: 0.38 + 0.1 * next(), c: 0.12 + 0.05 * next(), skins: ["lower"], most: 90, least: 80 },
    vengeance: {
      x: 0.45 + 0.1 * next(),
      c: 0.12 + 0.05 * next(),
      skins: ["upper", "lower"],
      most: 90,
      least: 80,
    },
    dauntless: { x: 0.75, c: 0.25, skins: ["upper", "lower"], most: 90, least: 60 },
  }[family];
  const angle = (place.least + (place.most - place.least) * next()) * Math.PI / 180;
  const slats = family === "ju87" ? 3 : family === "d3a" ? 2 : 1, th = 0.012;
  /** A plate turned `angle` out of `skin` about its forward edge, as slats along the span. */
  const brake = (skin: string): { mesh: ClassMesh; truth: DiveBrakeTruth } => {
    const s = skin === "upper" ? 1 : -1;
    const edge = (st: Station): Vec3 => [
      st.lead + place.x * st.chord,
      st.y + (skin === "upper" ? upper(place.x) : lower(place.x)) * st.chord,
      st.z,
    ];
    const ends = [at(f0), at(f1)];
    const gap = 0.25 / slats;
    const width = (1 - gap * (slats - 1)) / slats;
    // Along the plate (aft and out of the skin) and across it (its thickness), in the section's plane.
    const along = [Math.cos(angle), s * Math.sin(angle)], across = [-s * Math.sin(angle), Math.cos(angle)];
    // Hung on arms (options.arms): the plate a third of its chord out from its edge, an arm at each end
    // of its span reaching back to the hinge in the skin.
    const arm = options.arms ? 1 / 3 : 0;
    const strip = (u0: number, u1: number, stations: Station[]) =>
      loft(stations.map((st) => {
        const e = edge(st), c = place.c * st.chord;
        return [[u0, 0], [u1, 0], [u1, th], [u0, th]].map(([u, v]): Vec3 => [
          e[0] + u * c * along[0] + v * across[0],
          e[1] + u * c * along[1] + v * across[1],
          e[2],
        ]);
      }));
    const meshes = Array.from({ length: slats }, (_, k) => {
      const u0 = k * (width + gap), u1 = u0 + width;
      return strip(arm + (1 - arm) * u0, arm + (1 - arm) * u1, ends);
    });
    if (arm) {
      const w = 0.04 * (f1 - f0);
      meshes.push(strip(0, arm + 0.05, [at(f0), at(f0 + w)]), strip(0, arm + 0.05, [at(f1 - w), at(f1)]));
    }
    const [a, b] = ends.map(edge);
    const d = [0, 1, 2].map((k) => b[k] - a[k]) as Vec3, l = Math.hypot(...d);
    return {
      mesh: joined(meshes),
      truth: {
        origin: [0, 1, 2].map((k) => (a[k] + b[k]) / 2) as Vec3,
        axis: d.map((v) => v / l) as Vec3,
        span: l,
        chord: place.c * at((f0 + f1) / 2).chord,
      },
    };
  };
  const names = DIVE_BRAKE_NAMES[index % DIVE_BRAKE_NAMES.length];
  const words = index % 2 ? ["oben", "unten"] : ["upper", "lower"];
  const cm = index % 5 === 3, mirrored = index % 3 === 1;
  const scene = newScene();
  const top = cm ? scene.createNode("Stuka").setScale([0.01, 0.01, 0.01]) : undefined;
  if (top) scene.getRoot().getDefaultScene()!.addChild(top);
  const k = cm ? 100 : 1;
  const add = (name: string, mesh: ClassMesh, right: boolean, parent?: Node): Node => {
    const flat = right && !mirrored;
    const positions: number[] = [];
    for (let i = 0; i < mesh.positions.length; i += 3) {
      const v = [mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]];
      positions.push(v[0] * k, v[1] * k, (flat ? -v[2] : v[2]) * k);
    }
    const triangles = Array.from(mesh.triangles);
    if (flat) {
      for (let i = 0; i < triangles.length; i += 3) {
        [triangles[i + 1], triangles[i + 2]] = [triangles[i + 2], triangles[i + 1]];
      }
    }
    const node = addAircraftMesh(scene, name, positions, triangles, parent ?? top);
    if (right && mirrored) node.setScale([-1, 1, 1]);
    return node;
  };
  add("Fuselage", fuselage, false);
  add(["Engine", "Motor", "Engine_Jumo211"][index % 3], engine, false);
  add(["Wing_L", "Fluegel_L", "Tragflaeche_L"][index % 3], wing, false);
  add(["Wing_R", "Fluegel_R", "Tragflaeche_R"][index % 3], wing, true);
  add(["Aileron_L", "Querruder_L"][index % 2], aileron, false);
  add(["Aileron_R", "Querruder_R"][index % 2], aileron, true);
  add("Stabilizer_L", stab, false);
  add("Stabilizer_R", stab, true);
  add(["Elevator_L", "Hoehenruder_L"][index % 2], elevator, false);
  add(["Elevator_R", "Hoehenruder_R"][index % 2], elevator, true);
  const brakes: DiveSample["brakes"][number][] = [];
  const mirror = (v: Vec3): Vec3 => [v[0], v[1], -v[2]];
  for (const skin of place.skins) {
    const built = brake(skin);
    const word = place.skins.length > 1 ? `_${words[skin === "upper" ? 0 : 1]}` : "";
    for (const [name, right] of [[names[0], false], [names[1], true]] as const) {
      const m = /^(.*?)([._-]?)(L|R|links|rechts|left|right)$/i.exec(name)!;
      const full = `${m[1]}${word}${m[2]}${m[3]}`;
      add(full, built.mesh, right);
      const truth = right
        ? { ...built.truth, origin: mirror(built.truth.origin), axis: mirror(built.truth.axis) }
        : built.truth;
      brakes.push({ name: full, side: right ? "right" : "left", skin: skin as "upper" | "lower", truth });
    }
  }
  return {
    scene,
    brakes,
    description: `${family}, span ${(2 * halfSpan).toFixed(1)} m, AR ${aspect.toFixed(1)}, brakes at ${
      Math.round(100 * place.x)
    } % open ${(angle * 180 / Math.PI).toFixed(0)}°, ${slats} slat${slats > 1 ? "s" : ""}${cm ? ", cm" : ""}${
      mirrored ? ", mirrored" : ""
    }`,
  };
}
