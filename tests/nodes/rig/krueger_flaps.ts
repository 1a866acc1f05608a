/**
 * Airliners with Krueger flaps, as real low-poly models draw them: a coarse swept wing (NACA
 * sections, 8–16 points a side, a kink at the Yehudi break on some) on a fuselage box, and under its
 * inboard leading edge a Krueger flap — a thin curved plate lying in the wing's lower skin just
 * behind its nose, hinged at its own forward edge (it swings down and forward about it, ahead of the
 * wing). Half have their pivot authored on the hinge (node origin there, mesh about it), a third draw
 * the right side as the left mesh under a −1 scale (Blender's mirrored duplicate); names from several
 * tools and languages. Outboard, every other aircraft has slats and every aircraft ailerons, whose
 * hinges are not measured here (a slat's is a convention); with generic names those slats are named
 * `LE_Flap_Outbd`, droop noses that must not be taken for Kruegers. Aircraft coordinates (aft, up, left);
 * deterministic from a seed.
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

/** A Krueger flap's names, left and right, as tools write them. */
export const KRUEGER_NAMES: readonly (readonly [string, string])[] = [
  ["Krueger_L", "Krueger_R"],
  ["KruegerFlap.L", "KruegerFlap.R"],
  ["krueger_flap_left", "krueger_flap_right"],
  ["LE_Krueger_Inbd_L", "LE_Krueger_Inbd_R"],
  ["pCube12_krueger_L", "pCube13_krueger_R"],
  ["KRUEGER_LH", "KRUEGER_RH"],
  ["Krueger_Flap_L_geo", "Krueger_Flap_R_geo"],
  ["krueger_1_l_anim", "krueger_1_r_anim"],
  ["Krügerklappe_links", "Krügerklappe_rechts"], // German, as a German modeller names it
];

/**
 * A Krueger flap named as any leading-edge flap (a 747 model's `LE_Flap_Inbd_L`): only its place in
 * the wing's lower skin, behind the fixed nose, tells it from a droop flap.
 */
export const GENERIC_NAMES: readonly (readonly [string, string])[] = [
  ["LE_Flap_Inbd_L", "LE_Flap_Inbd_R"],
  ["LEF_1_L", "LEF_1_R"],
  ["leading_edge_flap_L", "leading_edge_flap_R"],
  ["LeadingEdgeFlap.L", "LeadingEdgeFlap.R"],
  ["Object021_LEFlap_L", "Object022_LEFlap_R"],
];

/** One generated aircraft: its scene, the Krueger flaps' truths, and a description. */
export interface KruegerSample {
  readonly scene: Document;
  readonly panels: { readonly name: string; readonly side: "left" | "right"; readonly truth: ClassTruth }[];
  readonly description: string;
  /** With `tabs`: the ailerons and the trim tabs drawn as their children, each hinged at its forward edge. */
  readonly tabs?: {
    readonly name: string;
    readonly kind: "aileron" | "trim_tab";
    readonly side: "left" | "right";
    readonly truth: ClassTruth;
  }[];
  /** With `spoilers`: the spoilers on the wing's top, each hinged at its forward edge. */
  readonly spoilers?: {
    readonly name: string;
    readonly side: "left" | "right";
    readonly truth: ClassTruth;
  }[];
}

/** Ailerons and their tabs' names, left and right. */
const TAB_NAMES: readonly (readonly [string, string, string, string])[] = [
  ["Aileron_L", "Aileron_R", "Aileron_Tab_L", "Aileron_Tab_R"],
  ["aileron.L", "aileron.R", "trim_tab.L", "trim_tab.R"],
  ["AileronLeft", "AileronRight", "AileronTrimLeft", "AileronTrimRight"],
  ["ail_l", "ail_r", "ail_l_tab", "ail_r_tab"],
  ["Aileron_L", "Aileron_R", "ServoTab_L", "ServoTab_R"],
];

/** Spoilers' names, `#` their number, left and right. */
const SPOILER_NAMES: readonly (readonly [string, string])[] = [
  ["Spoiler_#_L", "Spoiler_#_R"],
  ["FlightSpoiler#.L", "FlightSpoiler#.R"],
  ["spoiler_l_#", "spoiler_r_#"],
  ["Spoiler#_Left", "Spoiler#_Right"],
  ["pCube3#_spoiler_L", "pCube4#_spoiler_R"],
];

/** Wing geometry at a span station: leading edge (aft), chord, height of the chord line. */
type Station = { z: number; lead: number; chord: number; y: number };

/**
 * One airliner: wing, Krueger flaps inboard, optional slats and ailerons outboard. `index` picks the
 * names and the habits (authored pivot on even, mirrored right side on every third); `generic` names
 * the Krueger flaps as leading-edge flaps, `pieces` draws each in two objects, `droopPieces` the slats
 * and droop noses outboard.
 */
export function kruegerAircraft(
  next: () => number,
  index: number,
  options: {
    generic?: boolean;
    spoilers?: boolean;
    tabs?: boolean;
    pieces?: boolean;
    droopPieces?: boolean;
  } = {},
): KruegerSample {
  const span = 5 + 3 * next(), rootChord = 2.5 + 1.5 * next(), taper = 0.25 + 0.25 * next();
  const sweep = (15 + 20 * next()) * Math.PI / 180, dihedral = (3 + 4 * next()) * Math.PI / 180;
  const t = 0.1 + 0.04 * next(), m = 0.03 * next(), p = 0.4;
  const side = 4 + 2 * Math.floor(next() * 7);
  const root = 0.5, lead0 = 2 + 2 * next(), y0 = -0.25;
  const at = (f: number): Station => {
    const z = root + f * span;
    return {
      z,
      lead: lead0 + f * span * Math.tan(sweep),
      chord: rootChord * (1 - (1 - taper) * f),
      y: y0 + f * span * Math.tan(dihedral),
    };
  };
  // Cosine-spaced points around an airfoil: upper surface from the trailing edge to the nose, then lower.
  const xs = cosineLoops(side);
  const upper = (x: number) => nacaCamber(m, p, x) + nacaThickness(t, x);
  const lower = (x: number) => nacaCamber(m, p, x) - nacaThickness(t, x);
  // A piece cut from the wing (an aileron, a slat) ends in a flat face at its cut: both skins there.
  const section = sectionDrawer(xs, upper, lower);
  const kink = index % 2 === 0;
  const wingStations = (kink ? [0, 0.35, 1] : [0, 1]).map(at);
  const wing = loft(wingStations.map((s) => section(s)));
  // The Krueger: a plate in the lower skin from a to b of the local chord, 3–5 points along it.
  const a = 0.02 + 0.04 * next(), b = a + 0.1 + 0.08 * next(), thick = 0.008 + 0.012 * next();
  const s0 = 0.02 + 0.06 * next(), s1 = kink ? 0.33 : 0.25 + 0.15 * next();
  const along = 3 + Math.floor(next() * 3);
  const plate = (s: Station): Vec3[] => {
    const top: Vec3[] = [], bottom: Vec3[] = [];
    for (let k = 0; k < along; k++) {
      const x = a + (b - a) * k / (along - 1), yl = s.y + lower(x) * s.chord - 0.002 * s.chord;
      top.push([s.lead + x * s.chord, yl, s.z]);
      bottom.push([s.lead + x * s.chord, yl - thick * s.chord, s.z]);
    }
    return [...top, ...bottom.reverse()];
  };
  const ends = [at(s0), at(s1)];
  const krueger = loft(ends.map(plate));
  const hingeAt = (s: Station): Vec3 => [
    s.lead + a * s.chord,
    s.y + lower(a) * s.chord - (0.002 + thick / 2) * s.chord,
    s.z,
  ];
  const [h0, h1] = ends.map(hingeAt);
  const truth: ClassTruth = {
    origin: [0, 1, 2].map((k) => (h0[k] + h1[k]) / 2) as Vec3,
    axis: normalize([0, 1, 2].map((k) => h1[k] - h0[k]) as Vec3),
    span: Math.hypot(h1[0] - h0[0], h1[1] - h0[1], h1[2] - h0[2]),
    chord: (b - a) * (ends[0].chord + ends[1].chord) / 2,
  };
  // Outboard: slats (every other aircraft) and an aileron cut from the wing's trailing edge.
  const extras: { name: readonly [string, string]; mesh: ClassMesh }[] = [];
  if (index % 2 === 1) {
    const slat = loft([at(s1 + 0.05), at(0.95)].map((s) => section(s, 0, 0.12)));
    // Named as the Krueger's are, a droop nose (a 747's outboard variable-camber flaps) must stay one.
    const droop = options.generic ? ["LE_Flap_Outbd_L", "LE_Flap_Outbd_R"] as const : undefined;
    extras.push({ name: droop ?? ["Slat_L", "Slat_R"], mesh: slat });
  }
  if (!options.tabs) {
    extras.push({
      name: ["Aileron_L", "Aileron_R"],
      mesh: loft([at(0.7), at(0.95)].map((s) => section({ ...s, y: s.y + 0.004 * s.chord }, 0.78, 1))),
    });
  }
  const names = options.generic
    ? GENERIC_NAMES[index % GENERIC_NAMES.length]
    : KRUEGER_NAMES[index % KRUEGER_NAMES.length];
  const authored = index % 2 === 0, mirrored = index % 3 === 1;
  const scene = newScene();
  const toScene = (v: Vec3): Vec3 => [-v[2], v[1], v[0]];
  // A part given in the left's aircraft coordinates, its origin at `pivot` (authored) or the parent's;
  // under `parent` (a tab under its surface) placed in the parent's space, mirrored with it.
  const add = (
    name: string,
    mesh: ClassMesh,
    right: boolean,
    pivot?: Vec3,
    parent?: { node: ReturnType<typeof addAircraftMesh>; pivot?: Vec3 },
  ) => {
    const flat = right && !mirrored;
    const place = (v: Vec3): Vec3 => (flat ? [v[0], v[1], -v[2]] : v);
    const o = place(pivot ?? [0, 0, 0]), po = place(parent?.pivot ?? [0, 0, 0]);
    const positions: number[] = [];
    for (let i = 0; i < mesh.positions.length; i += 3) {
      const v = place([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]);
      positions.push(v[0] - o[0], v[1] - o[1], v[2] - o[2]);
    }
    // A mirrored copy of the left mesh under a −1 scale keeps the left's winding: as Blender draws it.
    const triangles = flat ? flip(mesh.triangles) : Array.from(mesh.triangles);
    const node = addAircraftMesh(scene, name, positions, triangles, parent?.node);
    const offset: Vec3 = [o[0] - po[0], o[1] - po[1], o[2] - po[2]];
    if (offset.some((x) => x !== 0)) node.setTranslation(toScene(offset));
    if (right && mirrored && !parent) {
      node.setScale([-1, 1, 1]);
      if (pivot) node.setTranslation(toScene([pivot[0], pivot[1], -pivot[2]]));
    }
    return node;
  };
  // With `pieces`, each Krueger is drawn in two objects (`<name>` and `<name>.001`, as Blender splits a
  // mesh by material), each holding half its triangles.
  const halves = (mesh: ClassMesh): ClassMesh[] => {
    const cut = Math.floor(mesh.triangles.length / 6) * 3, all = Array.from(mesh.triangles);
    return [all.slice(0, cut), all.slice(cut)].map((triangles) => ({ positions: mesh.positions, triangles }));
  };
  addAircraftMesh(scene, FUSELAGE.name, FUSELAGE.mesh.positions, FUSELAGE.mesh.triangles);
  add("Wing_L", wing, false);
  add("Wing_R", wing, true);
  for (const e of extras) {
    // With `droopPieces`, slats and droop noses are drawn in two objects too (as the Krueger's are).
    const split = options.droopPieces && e.name[0] !== "Aileron_L";
    for (const [name, right] of [[e.name[0], false], [e.name[1], true]] as const) {
      if (!split) add(name, e.mesh, right);
      else halves(e.mesh).forEach((piece, k) => add(k ? `${name}.001` : name, piece, right));
    }
  }
  for (const [name, right] of [[names[0], false], [names[1], true]] as const) {
    const pivot = authored ? truth.origin : undefined;
    if (!options.pieces) add(name, krueger, right, pivot);
    else halves(krueger).forEach((piece, k) => add(k ? `${name}.001` : name, piece, right, pivot));
  }
  const mirror = (v: Vec3): Vec3 => [v[0], v[1], -v[2]];
  // Spoilers: 2–4 plates on the upper skin ahead of the trailing edge, outboard of the Krueger, each
  // hinged at its forward edge (drawn last, so the rest of the aircraft is as without them).
  const spoilers: NonNullable<KruegerSample["spoilers"]> = [];
  if (options.spoilers) {
    const n = 2 + Math.floor(next() * 3), c0 = 0.55 + 0.07 * next(), c1 = c0 + 0.1 + 0.06 * next();
    const th = 0.006 + 0.01 * next(),
      from = 0.36,
      to = 0.68,
      pattern = SPOILER_NAMES[index % SPOILER_NAMES.length];
    for (let j = 0; j < n; j++) {
      const f0 = from + (to - from) * j / n + 0.005, f1 = from + (to - from) * (j + 1) / n - 0.005;
      const plateOn = (st: Station): Vec3[] => {
        const bottom: Vec3[] = [], top: Vec3[] = [];
        for (let k = 0; k < along; k++) {
          const x = c0 + (c1 - c0) * k / (along - 1), yu = st.y + upper(x) * st.chord + 0.002 * st.chord;
          bottom.push([st.lead + x * st.chord, yu, st.z]);
          top.push([st.lead + x * st.chord, yu + th * st.chord, st.z]);
        }
        return [...top, ...bottom.reverse()];
      };
      const stations = [at(f0), at(f1)], mesh = loft(stations.map(plateOn));
      const [q0, q1] = stations.map((st): Vec3 => [
        st.lead + c0 * st.chord,
        st.y + upper(c0) * st.chord + (0.002 + th / 2) * st.chord,
        st.z,
      ]);
      const spoilerTruth: ClassTruth = {
        origin: [0, 1, 2].map((k) => (q0[k] + q1[k]) / 2) as Vec3,
        axis: normalize([0, 1, 2].map((k) => q1[k] - q0[k]) as Vec3),
        span: Math.hypot(q1[0] - q0[0], q1[1] - q0[1], q1[2] - q0[2]),
        chord: (c1 - c0) * (stations[0].chord + stations[1].chord) / 2,
      };
      const [left, right] = pattern.map((w) => w.replace("#", String(j + 1)));
      add(left, mesh, false, authored ? spoilerTruth.origin : undefined);
      add(right, mesh, true, authored ? spoilerTruth.origin : undefined);
      spoilers.push({ name: left, side: "left", truth: spoilerTruth }, {
        name: right,
        side: "right",
        truth: { ...spoilerTruth, origin: mirror(spoilerTruth.origin), axis: mirror(spoilerTruth.axis) },
      });
    }
  }
  // An aileron with a trim tab drawn as its child: the aileron cut back over the tab's span, the tab
  // filling the cut-out, each hinged at its forward edge at mid-thickness (drawn last, as spoilers).
  function aileronTabs(): NonNullable<KruegerSample["tabs"]> {
    const t0 = 0.72 + 0.08 * next(), t1 = t0 + 0.08 + 0.06 * next(), xt = 1 - 0.22 * (0.2 + 0.1 * next());
    const lift = (st: Station): Station => ({ ...st, y: st.y + 0.004 * st.chord });
    const aileron = joined([
      loft([at(0.7), at(t0)].map((st) => section(lift(st), 0.78, 1))),
      loft([at(t0), at(t1)].map((st) => section(lift(st), 0.78, xt))),
      loft([at(t1), at(0.95)].map((st) => section(lift(st), 0.78, 1))),
    ]);
    const tab = loft([at(t0 + 0.002), at(t1 - 0.002)].map((st) => section(lift(st), xt + 0.002, 1)));
    const hinge = (x: number, f0: number, f1: number, chordShare: number): ClassTruth => {
      const [q0, q1] = [at(f0), at(f1)].map((st): Vec3 => [
        st.lead + x * st.chord,
        st.y + 0.004 * st.chord + (upper(x) + lower(x)) / 2 * st.chord,
        st.z,
      ]);
      return {
        origin: [0, 1, 2].map((k) => (q0[k] + q1[k]) / 2) as Vec3,
        axis: normalize([0, 1, 2].map((k) => q1[k] - q0[k]) as Vec3),
        span: Math.hypot(q1[0] - q0[0], q1[1] - q0[1], q1[2] - q0[2]),
        chord: chordShare * (at(f0).chord + at(f1).chord) / 2,
      };
    };
    const aileronTruth = hinge(0.78, 0.7, 0.95, 0.22),
      tabTruth = hinge(xt + 0.002, t0 + 0.002, t1 - 0.002, 1 - xt);
    const [al, ar, tl, tr] = TAB_NAMES[index % TAB_NAMES.length];
    const aileronPivot = authored ? aileronTruth.origin : undefined,
      tabPivot = authored ? tabTruth.origin : undefined;
    for (const [a, t, right] of [[al, tl, false], [ar, tr, true]] as const) {
      const node = add(a, aileron, right, aileronPivot);
      add(t, tab, right, tabPivot, { node, pivot: aileronPivot });
    }
    const onRight = (truth: ClassTruth): ClassTruth => ({
      ...truth,
      origin: mirror(truth.origin),
      axis: mirror(truth.axis),
    });
    return [
      { name: al, kind: "aileron", side: "left", truth: aileronTruth },
      { name: ar, kind: "aileron", side: "right", truth: onRight(aileronTruth) },
      { name: tl, kind: "trim_tab", side: "left", truth: tabTruth },
      { name: tr, kind: "trim_tab", side: "right", truth: onRight(tabTruth) },
    ];
  }
  return {
    scene,
    panels: [
      { name: names[0], side: "left", truth },
      {
        name: names[1],
        side: "right",
        truth: { ...truth, origin: mirror(truth.origin), axis: mirror(truth.axis) },
      },
    ],
    ...(options.spoilers ? { spoilers } : {}),
    ...(options.tabs ? { tabs: aileronTabs() } : {}),
    description: `sweep ${(sweep * 180 / Math.PI).toFixed(0)}°, ${side} a side, Krueger ${
      ((b - a) * 100).toFixed(0)
    } % of chord${kink ? ", kinked" : ""}${authored ? ", pivot authored" : ""}${
      mirrored ? ", mirrored" : ""
    }`,
  };
}

function flip(triangles: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < triangles.length; i += 3) out.push(triangles[i], triangles[i + 2], triangles[i + 1]);
  return out;
}
