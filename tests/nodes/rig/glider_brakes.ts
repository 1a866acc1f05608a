/**
 * Gliders as Condor, MSFS and X-Plane modellers draw them (ASK 21, Discus, DG-1000, LS8-like): a
 * slender pod-and-boom fuselage, long thin wings (aspect ratio 15–30, 6–10 points a side, a little
 * dihedral, a kink on some), a T-tail, a one-piece canopy, ailerons — and Schempp-Hirth airbrakes: a
 * blade standing upright in each wing (thin along the chord, long along the span) that slides up out
 * of the upper skin, on some a lower blade sliding down out of the lower skin too. Blades are drawn
 * retracted (top flush with the skin, hidden in the wing) or extended (standing out by about their
 * height), one plate or two parallel plates, with a cap plate on top merged into the blade's mesh, as a
 * child node, or none. Some files are in centimetres under a 0.01 root, some draw the right side as
 * the left under a −1 scale. Names from English, German, Polish and Czech modellers, and unnamed.
 * A few gliders instead carry flat spoiler plates lying in the upper skin (a Ka 8's or an old
 * trainer's), hinged at their forward edge. Aircraft coordinates (aft, up, left); deterministic from a
 * seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { nacaThickness } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { type ClassMesh, joined } from "./surface_classes.ts";
import { cosineLoops, fuselageRing, loft, sectionDrawer } from "./airfoil_sections.ts";

/** An airbrake's names, left and right (`#` upper or lower where there are both), as modellers write them. */
export const BRAKE_NAMES: readonly (readonly [string, string])[] = [
  ["Airbrake_L", "Airbrake_R"],
  ["Spoiler_L", "Spoiler_R"],
  ["DiveBrake_L", "DiveBrake_R"],
  ["AirBrake.L", "AirBrake.R"],
  ["airbrake_left", "airbrake_right"],
  ["SH_brake_L", "SH_brake_R"],
  ["Schempp_Hirth_L", "Schempp_Hirth_R"],
  ["Bremsklappe_L", "Bremsklappe_R"],
  ["Bremsklappe_links", "Bremsklappe_rechts"],
  ["Bremsklappen_li", "Bremsklappen_re"],
  ["Hamulec_L", "Hamulec_P"],
  ["hamulec_aerodynamiczny_lewy", "hamulec_aerodynamiczny_prawy"],
  ["Brzda_L", "Brzda_P"],
  ["brzdici_klapka_leva", "brzdici_klapka_prava"],
  ["Object_23", "Object_24"],
  ["Cube.004", "Cube.005"],
  ["Bremse_L", "Bremse_R"],
  ["Brake_L", "Brake_R"],
  ["pCube12", "pCube13"],
];

/** A wheel's brake disc, named by the word for any brake (a shape finder must leave it alone). */
const DISC_NAMES = ["Hamulec_kola", "Brzda_kola", "Bremse_Rad", "Brake_disc", "Object_31", "Cylinder.002"];

/** What some files call the whole aircraft (a root or the fuselage's group): a glider by name. */
const GLIDER_NAMES = ["Glider", "Segelflugzeug_ASK21", "Szybowiec", "Kluzak_L13", "Planeur"];

/** Upper and lower words in those languages, appended to a two-surface brake's name. */
const SURFACE_WORDS: readonly (readonly [string, string])[] = [
  ["upper", "lower"],
  ["oben", "unten"],
  ["gorny", "dolny"],
  ["horni", "dolni"],
  ["Top", "Bottom"],
];

/** Flat spoiler plates' names (a glider whose brakes are hinged plates in the upper skin). */
const PLATE_NAMES: readonly (readonly [string, string])[] = [
  ["Spoiler_L", "Spoiler_R"],
  ["Stoerklappe_L", "Stoerklappe_R"],
  ["Airbrake_L", "Airbrake_R"],
];

/** What a brake should do: slide (along `direction`, by about `travel`) or hinge (about its forward edge). */
export type BrakeTruth =
  | {
    readonly motion: "slide";
    /** Unit slide direction, aircraft coordinates (out of the skin). */
    readonly direction: Vec3;
    /** How far it slides out (its height), metres. */
    readonly travel: number;
    /** Modelled retracted or extended. */
    readonly pose: "retracted" | "extended";
  }
  | {
    readonly motion: "hinge";
    readonly origin: Vec3;
    readonly axis: Vec3;
    readonly span: number;
    readonly chord: number;
  };

/** One generated glider: its scene, its brakes' truths, and a description. */
export interface GliderSample {
  readonly scene: Document;
  readonly brakes: {
    readonly name: string;
    readonly side: "left" | "right";
    readonly truth: BrakeTruth;
    /** A cap drawn as an object of its own beside its blade, sliding with it. */
    readonly cap?: boolean;
  }[];
  /** Whether the brakes carry a name a modeller gives them (not a tool's default). */
  readonly named: boolean;
  /**
   * How the brakes are named: as airbrakes (`named`), by a word for any brake alone (`brake_word`:
   * Polish `Hamulec_L`, Czech `Brzda_L`, German `Bremse_L`, `Brake_L` — a wheel's brake too), or by a
   * tool's default (`default`: `Object_23`, `Cube.004`, Maya's `pCube12`).
   */
  readonly naming: "named" | "brake_word" | "default";
  readonly description: string;
}

/** An axis-aligned box (aircraft coordinates) as a mesh. */
function box(lo: Vec3, hi: Vec3): ClassMesh {
  const at = (x: number, y: number) =>
    [[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]]
      .map(([a, b]): Vec3 => [a, b, x === 0 ? lo[2] : hi[2]])[y];
  const section = (end: number) => [0, 1, 2, 3].map((k) => at(end, k));
  return loft([section(0), section(1)]);
}

/** A wheel (or a brake disc) of `radius` and `width` on the centre line under the pod: a 12-sided drum. */
function wheel(radius: number, width: number): ClassMesh {
  const ring = (z: number): Vec3[] =>
    Array.from({ length: 12 }, (_, k) => [
      0.6 + radius * Math.cos(k * Math.PI / 6),
      -0.45 + radius * Math.sin(k * Math.PI / 6),
      z,
    ]);
  return loft([ring(-width / 2), ring(width / 2)]);
}

/**
 * Options: `plates` gives the glider flat hinged spoiler plates in place of Schempp-Hirth blades;
 * `raised` draws them turned up about their hinge by that many degrees (a posed showcase model);
 * `engine` puts a named engine in its nose.
 */
export interface GliderOptions {
  readonly plates?: boolean;
  readonly raised?: number;
  /** A motor glider's engine and propeller in the nose, named so: a powered aircraft. */
  readonly engine?: boolean;
}

/** One glider; `index` picks names and habits, `next` the shape. */
export function gliderSample(next: () => number, index: number, options: GliderOptions = {}): GliderSample {
  const halfSpan = 7.5 + 5.5 * next(), aspect = 15 + 15 * next();
  const meanChord = 2 * halfSpan / aspect, taper = 0.35 + 0.2 * next();
  const rootChord = 2 * meanChord / (1 + taper);
  const t = 0.13 + 0.04 * next(), side = 6 + Math.floor(next() * 5);
  const dihedral = (1.5 + 3 * next()) * Math.PI / 180, sweep = (-4 + 5 * next()) * Math.PI / 180;
  const root = 0.35, root0 = root, lead0 = 1.6 + 0.4 * next(), y0 = 0.25;
  const at = (f: number) => ({
    z: root + f * halfSpan,
    lead: lead0 + f * halfSpan * Math.tan(sweep),
    chord: rootChord * (1 - (1 - taper) * f),
    y: y0 + f * halfSpan * Math.tan(dihedral),
  });
  type Station = ReturnType<typeof at>;
  const xs = cosineLoops(side);
  const upper = (x: number) => 0.02 * Math.sin(Math.PI * x) + nacaThickness(t, x);
  const lower = (x: number) => 0.02 * Math.sin(Math.PI * x) - nacaThickness(t, x);
  const section = sectionDrawer(xs, upper, lower);
  const kink = index % 3 === 0;
  const aileron = loft([at(0.72), at(0.97)].map((s) => section({ ...s, y: s.y + 0.003 * s.chord }, 0.8, 1)));
  // Fuselage: a pod ahead of the wing tapering into a boom; octagonal sections (aft, radius, height).
  const ring = fuselageRing;
  const tailX = lead0 + 5 + 2 * next();
  const fuselage = loft([
    ring(-1.2, 0.15, 0),
    ring(0, 0.38, 0.05),
    ring(1.5, 0.4, 0.1),
    ring(3.2, 0.18, 0.2),
    [
      ...ring(tailX + 0.6, 0.07, 0.35),
    ],
  ]);
  // A one-piece canopy over the pod (fixed in this rig: not a control surface).
  const canopy = loft(
    [ring(-0.6, 0.05, 0.35), ring(0.2, 0.3, 0.32), ring(1.2, 0.05, 0.4)].map((r) =>
      r.map((p): Vec3 => [p[0], Math.max(p[1], 0.33), p[2]])
    ),
  );
  // T-tail: a fin and rudder up the boom's end, a stabiliser and elevator on the fin's top.
  const finH = 1.0 + 0.3 * next(), finC = 0.9, finTop = 0.35 + finH;
  const finSection = (y: number, c: number, from = 0, to = 1): Vec3[] => {
    const pts: Vec3[] = [];
    for (const x of [from, (from + to) / 2, to]) pts.push([tailX - 0.3 + x * c, y, 0.06 * (1 - x) + 0.005]);
    for (const x of [to, (from + to) / 2, from]) {
      pts.push([tailX - 0.3 + x * c, y, -(0.06 * (1 - x) + 0.005)]);
    }
    return pts;
  };
  const fin = loft([finSection(0.3, finC, 0, 0.65), finSection(finTop, 0.8 * finC, 0, 0.65)]);
  const rudder = loft([finSection(0.3, finC, 0.66, 1), finSection(finTop - 0.05, 0.8 * finC, 0.66, 1)]);
  const stabSpan = 1.2 + 0.3 * next(), stabC = 0.55;
  const hs = (z: number, from: number, to: number): Vec3[] => {
    const pts: Vec3[] = [], x0 = tailX - 0.35;
    for (const x of [from, (from + to) / 2, to]) {
      pts.push([x0 + x * stabC, finTop + 0.04 * (1 - x) + 0.004, z]);
    }
    for (const x of [to, (from + to) / 2, from]) {
      pts.push([x0 + x * stabC, finTop - 0.04 * (1 - x) - 0.004, z]);
    }
    return pts;
  };
  const stab = loft([hs(0, 0, 0.6), hs(stabSpan, 0, 0.6)]);
  const elevator = loft([hs(0.02, 0.62, 1), hs(stabSpan, 0.62, 1)]);

  // The brake: a blade box at 45–60 % of the chord, 25–50 % of the half span, its length 10–17 % of it.
  const f0 = 0.25 + 0.15 * next(), f1 = f0 + 0.1 + 0.07 * next(), xc = 0.45 + 0.15 * next();
  const mid = at((f0 + f1) / 2), yu = mid.y + upper(xc) * mid.chord, yl = mid.y + lower(xc) * mid.chord;
  const thickness = yu - yl, plate = 0.008 + 0.008 * next();
  const twoBlades = index % 4 === 1, lowerToo = !options.plates && index % 5 === 2;
  const extended = index % 2 === 1;
  const capStyle = (["merged", "child", "none", "sibling"] as const)[(index >> 1) % 4];
  const cm = index % 7 === 3, mirrored = index % 3 === 1, authored = index % 2 === 0;
  const gap = 0.03 + 0.02 * next();
  // Some modellers cut a slot in the upper skin for the blade (edge loops tight about it, the quads
  // between them deleted); others leave the skin whole over a blade hidden in the wing.
  const slot = !options.plates && index % 3 === 2;
  const wing = slot
    ? slottedWing((twoBlades ? gap / 2 : 0) + plate / 2 + 0.003)
    : loft((kink ? [0, 0.55, 1] : [0, 1]).map(at).map((s) => section(s)));
  /** The wing with a slot `half` wide each side of the blade's place, through the upper skin, f0…f1. */
  function slottedWing(half: number): ClassMesh {
    const w = half / mid.chord, cut = [xc - w, xc + w];
    const inside = [0, ...xs.filter((x) => x > 0.01 && x < 0.99 && Math.abs(x - xc) > w + 0.005), ...cut, 1]
      .sort((a, b) => a - b);
    const ringOf = (st: Station): Vec3[] => {
      const pts: Vec3[] = [];
      for (const x of [...inside].reverse()) {
        pts.push([st.lead + x * st.chord, st.y + upper(x) * st.chord, st.z]);
      }
      for (const x of inside.filter((x) => x > 0 && x < 1)) {
        pts.push([st.lead + x * st.chord, st.y + lower(x) * st.chord, st.z]);
      }
      return pts;
    };
    const mesh = loft([0, f0, f1, 1].map(at).map(ringOf));
    // Ring points i, i + 1 of the upper skin between the cuts: their quad between stations f0 and f1 goes.
    const n = ringOf(at(0)).length, first = inside.length - 1 - inside.indexOf(cut[1]);
    const gone = new Set([2 * (n + first), 2 * (n + first) + 1]);
    const triangles: number[] = [];
    for (let t = 0; t < mesh.triangles.length / 3; t++) {
      if (!gone.has(t)) triangles.push(...Array.from(mesh.triangles).slice(3 * t, 3 * t + 3));
    }
    return { positions: mesh.positions, triangles };
  }
  /** A blade (or two parallel ones) from `y0b` to `y1b`, with its cap at `capAt` (mesh, cap mesh). */
  const blade = (
    from: number,
    to: number,
    capAt?: number,
    rootOn?: "upper" | "lower",
  ): { blade: ClassMesh; cap?: ClassMesh } => {
    const x0 = mid.lead + xc * mid.chord, z0 = at(f0).z, z1 = at(f1).z;
    const rises = (z: number) => (z - mid.z) * Math.tan(dihedral);
    const plates = (twoBlades ? [-gap / 2, gap / 2] : [0]).map((dx) => {
      const m = box([x0 + dx - plate / 2, from, z0], [x0 + dx + plate / 2, to, z1]);
      const tilt = tilted(m, rises);
      if (!rootOn) return tilt;
      // Its root drawn on the skin along the whole span (snapped to it, as a modeller's does).
      const root = rootOn === "upper" ? from : to, p = Array.from(tilt.positions);
      for (let i = 0; i < p.length; i += 3) {
        if (Math.abs(m.positions[i + 1] - root) > 1e-9) continue;
        const st = at((p[i + 2] - root0) / halfSpan), x = (p[i] - st.lead) / st.chord;
        p[i + 1] = st.y + (rootOn === "upper" ? upper(x) : lower(x)) * st.chord;
      }
      return { positions: p, triangles: tilt.triangles };
    });
    const width = (twoBlades ? gap : 0) + plate + 0.03 + 0.03 * next();
    const cap = capAt === undefined ? undefined : tilted(
      box([x0 - width / 2, capAt - 0.004, z0 - 0.01], [x0 + width / 2, capAt, z1 + 0.01]),
      rises,
    );
    return { blade: joined(plates), cap };
  };
  // Tilt a mesh built level at mid-span by the wing's dihedral (its height follows the wing's).
  function tilted(m: ClassMesh, rises: (z: number) => number): ClassMesh {
    const p = Array.from(m.positions);
    for (let i = 0; i < p.length; i += 3) p[i + 1] += rises(p[i + 2]);
    return { positions: p, triangles: m.triangles };
  }
  const up: Vec3 = [0, Math.cos(dihedral), -Math.sin(dihedral)];
  type Built = { name: string; mesh: ClassMesh; cap?: ClassMesh; truth: BrakeTruth };
  const built: Built[] = [];
  const names = options.plates
    ? PLATE_NAMES[index % PLATE_NAMES.length]
    : BRAKE_NAMES[index % BRAKE_NAMES.length];
  const surface = SURFACE_WORDS[index % SURFACE_WORDS.length];
  const named = !/^(Object|Cube|pCube)/.test(names[0]);
  const naming = !named
    ? "default"
    : /^(Hamulec|Brzda|Bremse|Brake)_/.test(names[0])
    ? "brake_word"
    : "named";
  if (options.plates) {
    // A flat plate lying on the upper skin from c0 to c1 of the chord, hinged at its forward edge.
    const c0 = 0.5 + 0.1 * next(), c1 = c0 + 0.08 + 0.05 * next(), th = 0.006;
    const plateOn = (s: Station): Vec3[] => {
      const pts: Vec3[] = [], bottom: Vec3[] = [];
      for (const x of [c0, (c0 + c1) / 2, c1]) {
        const y = s.y + upper(x) * s.chord + 0.002;
        pts.push([s.lead + x * s.chord, y + th, s.z]);
        bottom.push([s.lead + x * s.chord, y, s.z]);
      }
      return [...pts, ...bottom.reverse()];
    };
    const ends = [at(f0), at(f1)];
    const hinge = ends.map((
      s,
    ): Vec3 => [s.lead + c0 * s.chord, s.y + upper(c0) * s.chord + 0.002 + th / 2, s.z]);
    // Raised: turned about its hinge line (trailing edge up), as a posed model draws an open spoiler.
    const axis = normalizeV([0, 1, 2].map((k) => hinge[1][k] - hinge[0][k]) as Vec3);
    const turn = (p: Vec3): Vec3 => turnAbout(p, hinge[0], axis, (options.raised ?? 0) * Math.PI / 180);
    built.push({
      name: names[0],
      mesh: loft(ends.map((s) => plateOn(s).map(turn))),
      truth: {
        motion: "hinge",
        origin: [0, 1, 2].map((k) => (hinge[0][k] + hinge[1][k]) / 2) as Vec3,
        axis: normalizeV([0, 1, 2].map((k) => hinge[1][k] - hinge[0][k]) as Vec3),
        span: Math.hypot(...[0, 1, 2].map((k) => hinge[1][k] - hinge[0][k])),
        chord: (c1 - c0) * mid.chord,
      },
    });
  } else {
    // Upper blade: retracted, its top flush with the upper skin; extended, standing out by ~85 % of it.
    const h = (lowerToo ? 0.55 : 0.85) * thickness;
    const out = extended ? 0.85 * h : 0;
    // Some modellers draw an extended blade only as far as it shows: its root on the skin, none inside.
    const shown = extended && index % 8 === 7;
    const upperBlade = blade(
      shown ? yu : yu - h + out,
      yu + out - (capStyle === "none" ? 0 : 0.004),
      capStyle === "none" ? undefined : yu + out,
      shown ? "upper" : undefined,
    );
    const travel = h;
    const upperName = lowerToo ? withWord(names[0], surface[0]) : names[0];
    built.push({
      name: upperName,
      mesh: capStyle === "merged" ? joined([upperBlade.blade, upperBlade.cap!]) : upperBlade.blade,
      cap: capStyle === "child" || capStyle === "sibling" ? upperBlade.cap : undefined,
      truth: { motion: "slide", direction: up, travel, pose: extended ? "extended" : "retracted" },
    });
    if (lowerToo) {
      const hl = 0.4 * thickness, outl = extended ? 0.85 * hl : 0;
      const lowerBlade = blade(
        yl - outl,
        shown ? yl : yl - outl + hl,
        undefined,
        shown ? "lower" : undefined,
      );
      built.push({
        name: withWord(names[0], surface[1]),
        mesh: lowerBlade.blade,
        truth: {
          motion: "slide",
          direction: [0, -up[1], -up[2]],
          travel: hl,
          pose: extended ? "extended" : "retracted",
        },
      });
    }
  }
  const scene = newScene();
  // Centimetres under a 0.01 root, as some exporters leave a model; else metres at the root.
  // Some files name the aircraft (a root group, in its modeller's language), most do not.
  const rootName = index % 6 === 5 ? GLIDER_NAMES[(index / 6 | 0) % GLIDER_NAMES.length] : undefined;
  const top = cm
    ? scene.createNode("Glider").setScale([0.01, 0.01, 0.01])
    : rootName
    ? scene.createNode(rootName)
    : undefined;
  if (top) scene.getRoot().getDefaultScene()!.addChild(top);
  const k = cm ? 100 : 1;
  const toScene = (v: Vec3): Vec3 => [-v[2] * k, v[1] * k, v[0] * k];
  const add = (name: string, mesh: ClassMesh, right: boolean, parent?: Node, origin?: Vec3): Node => {
    const flat = right && !mirrored;
    const place = (v: Vec3): Vec3 => (flat ? [v[0], v[1], -v[2]] : v);
    const o = origin ? place(origin) : [0, 0, 0];
    const positions: number[] = [];
    for (let i = 0; i < mesh.positions.length; i += 3) {
      const v = place([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]);
      positions.push((v[0] - o[0]) * k, (v[1] - o[1]) * k, (v[2] - o[2]) * k);
    }
    const triangles = flat ? flip(mesh.triangles) : Array.from(mesh.triangles);
    const node = addAircraftMesh(scene, name, positions, triangles, parent ?? top);
    if (!parent && right && mirrored) {
      node.setScale([-1, 1, 1]);
      if (origin) node.setTranslation(toScene([origin[0], origin[1], -origin[2]]));
    } else if (!parent && origin) node.setTranslation(toScene(o as Vec3));
    return node;
  };
  add("Fuselage", fuselage, false);
  add(["Canopy", "Haube", "Kabina", "Canopy_glass"][index % 4], canopy, false);
  add(["Wing_L", "Fluegel_L", "Skrzydlo_L", "Kridlo_L"][index % 4], wing, false);
  add(["Wing_R", "Fluegel_R", "Skrzydlo_P", "Kridlo_P"][index % 4], wing, true);
  add(["Aileron_L", "Querruder_L", "Lotka_L", "Kridelko_L"][index % 4], aileron, false);
  add(["Aileron_R", "Querruder_R", "Lotka_P", "Kridelko_P"][index % 4], aileron, true);
  add("Fin", fin, false);
  if (options.engine) {
    add(
      ["Engine", "Motor", "Silnik", "Propeller"][index % 4],
      box([-1.5, -0.1, -0.1], [-1.1, 0.1, 0.1]),
      false,
    );
  }
  // The main wheel under the pod and its brake disc (round, facing the span, on the centre line), named
  // by the word for a brake as the airbrakes may be: no airbrake, whatever a shape finder reads.
  add(["Wheel", "Kolo", "Rad", "Kolo_glowne"][index % 4], wheel(0.2, 0.06), false);
  add(DISC_NAMES[index % DISC_NAMES.length], wheel(0.09, 0.012), false);
  add(["Rudder", "Seitenruder", "Ster_kierunku", "Smerovka"][index % 4], rudder, false);
  add("Stabilizer_L", stab, false);
  add("Stabilizer_R", stab, true);
  add(["Elevator_L", "Hoehenruder_L", "Ster_wysokosci_L", "Vyskovka_L"][index % 4], elevator, false);
  add(["Elevator_R", "Hoehenruder_R", "Ster_wysokosci_P", "Vyskovka_P"][index % 4], elevator, true);
  const brakes: GliderSample["brakes"][number][] = [];
  const mirror = (v: Vec3): Vec3 => [v[0], v[1], -v[2]];
  for (const b of built) {
    const rightName = rightOf(b.name, names);
    const truthOf = (right: boolean): BrakeTruth =>
      b.truth.motion === "slide"
        ? (right ? { ...b.truth, direction: mirror(b.truth.direction) } : b.truth)
        : (right ? { ...b.truth, origin: mirror(b.truth.origin), axis: mirror(b.truth.axis) } : b.truth);
    for (const [name, right] of [[b.name, false], [rightName, true]] as const) {
      const centre = centreOf(b.mesh);
      const node = add(name, b.mesh, right, undefined, authored ? centre : undefined);
      if (b.cap && capStyle === "child") {
        add(named ? `${name}_cap` : `${name}.001`, b.cap, right, node, authored ? centre : undefined);
      }
      // A cap drawn as an object of its own beside its blade (named for the brake, `Airbrake_L_cap`, or a
      // tool's default): it slides with the blade.
      if (b.cap && capStyle === "sibling") {
        const capName = named ? capNameOf(name, index) : `${name}.002`;
        add(capName, b.cap, right, undefined, authored ? centreOf(b.cap) : undefined);
        brakes.push({ name: capName, side: right ? "right" : "left", truth: truthOf(right), cap: true });
      }
      brakes.push({ name, side: right ? "right" : "left", truth: truthOf(right) });
    }
  }
  return {
    scene,
    brakes,
    named,
    naming,
    description: `span ${(2 * halfSpan).toFixed(1)} m, AR ${aspect.toFixed(0)}, ${
      options.plates
        ? "flat spoiler plates"
        : `${twoBlades ? "two blades" : "one blade"}${lowerToo ? " upper and lower" : ""}, ${
          extended ? "extended" : "retracted"
        }, cap ${capStyle}`
    }${!options.plates && extended && index % 8 === 7 ? ", drawn as shown" : ""}${slot ? ", slot cut" : ""}${
      cm ? ", cm under 'Glider'" : ""
    }${rootName ? `, under '${rootName}'` : ""}${options.engine ? ", engine" : ""}${
      mirrored ? ", mirrored" : ""
    }${authored ? ", origin on the brake" : ""}`,
  };
}

/** A cap's name beside its blade's, as modellers write it (`Airbrake_L_cap`, `Bremsklappe_L_Deckel`). */
function capNameOf(blade: string, index: number): string {
  const word = ["cap", "Cap", "Deckel", "pokrywa", "kryt"][index % 5];
  return index % 2
    ? `${blade}_${word}`
    : blade.replace(/([._-]?)(L|R|P|left|right|links|rechts|li|re)$/i, `_${word}$1$2`);
}

/** A name with an upper/lower word put before its side (`Airbrake_upper_L`). */
function withWord(name: string, word: string): string {
  const m = /^(.*?)([._-]?)(L|left|links|li|lewy|leva)$/i.exec(name);
  return m ? `${m[1]}_${word}${m[2] || "_"}${m[3]}` : `${name}_${word}`;
}

/** The right-hand name matching a left one made from `names[0]` (a word may have been put in). */
function rightOf(left: string, names: readonly [string, string]): string {
  const common = commonPrefix(names[0], names[1]);
  const leftEnd = names[0].slice(common.length), rightEnd = names[1].slice(common.length);
  return left.endsWith(leftEnd) ? left.slice(0, left.length - leftEnd.length) + rightEnd : `${left}_R`;
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

function centreOf(mesh: ClassMesh): Vec3 {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], mesh.positions[i + k]);
      hi[k] = Math.max(hi[k], mesh.positions[i + k]);
    }
  }
  return [0, 1, 2].map((k) => Math.round((lo[k] + hi[k]) / 2 * 1000) / 1000) as Vec3;
}

/** `p` turned by `angle` (radians, right-hand) about the line through `o` along unit `k`. */
function turnAbout(p: Vec3, o: Vec3, k: Vec3, angle: number): Vec3 {
  if (!angle) return p;
  const v = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
  const c = Math.cos(angle), s = Math.sin(angle), d = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
  const x = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]];
  return [0, 1, 2].map((i) => o[i] + v[i] * c + x[i] * s + k[i] * d * (1 - c)) as Vec3;
}

function normalizeV(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}

function flip(triangles: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < triangles.length; i += 3) out.push(triangles[i], triangles[i + 2], triangles[i + 1]);
  return out;
}
