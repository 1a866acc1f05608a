/**
 * Whole aircraft (`surface_classes.ts`) whose control surfaces carry three habits of real users' files,
 * one per scene: **damage-state copies** drawn beside the intact surface (IL-2's `AroneL_D0`…`_D3`, the
 * higher ones dented, holed, torn short and bent; `_dmg`, `_damaged`, `_destroyed`, `_broken`, `_wreck`;
 * DCS's `_DAMAGE`; War Thunder's `_dm` damage-model boxes, half the time in an `xray` group); **bevelled
 * noses** (a wedge of two facets, a box nose with chamfered corners, three flat facets: the hinge where a
 * round nose's centre would be); and **horns and pushrods** in the surface's mesh (a horn below with a
 * pushrod running 1–3 chords forward toward the body, a horn above or a pair, a mass-balance arm
 * reaching forward into the wing with its weight, chunky boxes as game models draw them; and, against
 * false comfort, a horn and pushrod on surfaces hung on a dropped hinge, their brackets in the mesh;
 * plates, boxes and 6–12-sided rods merged into the surface's mesh or as its child nodes,
 * `linkage_shapes.ts`). Each intact surface's true hinge
 * is the construction's; a damage copy's truth is its intact surface's hinge (a game swaps the copy in
 * where the intact one hangs). Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { cross, dot, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import type { BevelOptions } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import type { HabitTruth } from "./exporter_habits.ts";
import { newScene } from "./fixtures.ts";
import { type HornFrame, type Linkage, linkage } from "./linkage_shapes.ts";
import {
  canardAircraft,
  type ClassMesh,
  type ClassSample,
  type ClassTruth,
  joined,
  sweptWingAircraft,
  vTailAircraft,
} from "./surface_classes.ts";

/** The habits, cycled by seed. */
export const ROUGHS = [
  "damage_levels",
  "damage_words",
  "dcs_damage",
  "wt_dm",
  "bevel_wedge",
  "bevel_box",
  "bevel_facets",
  "horn_pushrod",
  "horn_above",
  "balance_arm",
  "chunky_horns",
  "dropped_linkage",
] as const;

/** One rough habit. */
export type Rough = (typeof ROUGHS)[number];

/** A surface's truth; a damage copy's names the intact surface it stands in for. */
export interface RoughTruth extends HabitTruth {
  /** For a damage copy: the intact surface's name (its truth is that surface's hinge). */
  readonly copyOf?: string;
  /** A control horn with no rod hangs off it: from its shape alone a bracket (weak is fair). */
  readonly hornAlone?: boolean;
  /** With `hornAlone`: the span places its horns stand at (one or two). */
  readonly hornPlaces?: number;
}

/** A generated scene with its surfaces' truths. */
export interface RoughSample {
  readonly doc: Document;
  readonly truths: RoughTruth[];
  readonly rough: Rough;
  readonly description: string;
}

/** Aircraft coordinates (aft, up, left) to the default world (−Z forward, +Y up, +X right). */
const toWorld = (p: ArrayLike<number>): Vec3 => [-p[2], p[1], p[0]];

/** The sample of `seed`: a base aircraft (by seed / habits) given the habit of `seed`. */
export function roughSample(seed: number, rough: Rough = ROUGHS[seed % ROUGHS.length]): RoughSample {
  const next = prng(seed * 92821 + 17);
  const base = Math.floor(seed / ROUGHS.length) % 3;
  const bevel = rough.startsWith("bevel_") ? bevelOf(rough, next) : undefined;
  // Bevelled noses need the airfoil options: always the canard aircraft, low-poly every other round.
  const lowPoly = Math.floor(seed / ROUGHS.length) % 2 === 1 ? { around: [10, 16] as const } : {};
  // A flap on a dropped hinge, its brackets in its mesh, with a horn and pushrod: its pivot is the truth.
  const drop: { drop?: number } = rough === "dropped_linkage" ? { drop: 0.08 + 0.17 * next() } : {};
  const sample: ClassSample = bevel
    ? canardAircraft(next, 2 * seed, { bevel, ...lowPoly })
    : rough === "dropped_linkage"
    ? canardAircraft(next, 2 * seed, drop)
    : base === 0
    ? canardAircraft(next, 2 * seed, lowPoly)
    : base === 1
    ? sweptWingAircraft(next)
    : vTailAircraft(next, seed);
  const doc = newScene();
  const truths: RoughTruth[] = [];
  for (const f of sample.fixed) addAircraftMesh(doc, f.name, f.mesh.positions, f.mesh.triangles);
  const word = ["dmg", "damaged", "destroyed", "broken", "wreck", "Damaged", "DMG"][Math.floor(7 * next())];
  const group = rough === "wt_dm" && next() < 0.5 ? addGroup(doc, "xray") : undefined;
  for (const p of sample.panels) {
    const truth = p.truth;
    const world = (name: string, copyOf?: string): RoughTruth => ({
      name,
      origin: toWorld(truth!.origin),
      axis: toWorld(truth!.axis),
      span: truth!.span,
      side: p.side,
      ...(copyOf ? { copyOf } : {}),
    });
    if (!truth) {
      addAircraftMesh(doc, p.name, p.mesh.positions, p.mesh.triangles);
      continue;
    }
    if (rough === "damage_levels") {
      // IL-2: D0 intact, D1 dented, D2 dented and holed, D3 torn short and bent.
      const intact = `${p.name}_D0`;
      addAircraftMesh(doc, intact, p.mesh.positions, p.mesh.triangles);
      truths.push(world(intact));
      const levels = [
        dented(p.mesh, truth, 0.02 + 0.02 * next(), next),
        holed(dented(p.mesh, truth, 0.03 + 0.03 * next(), next), 0.15 + 0.2 * next(), next),
        bentTip(torn(p.mesh, truth, 0.4 + 0.35 * next()), truth, 8 + 20 * next(), next),
      ];
      levels.forEach((mesh, i) => {
        addAircraftMesh(doc, `${p.name}_D${i + 1}`, mesh.positions, mesh.triangles);
        truths.push(world(`${p.name}_D${i + 1}`, intact));
      });
      continue;
    }
    // The nose's centre lies about a tenth of the chord above the skin's pivot line's drop.
    const lift = drop.drop !== undefined ? drop.drop + 0.1 : 0;
    const drawn = meshOf(rough, p.mesh, truth, next, lift);
    const node = addAircraftMesh(doc, p.name, drawn.mesh.positions, drawn.mesh.triangles);
    // Horns and rods as child nodes: the surface's own node holds them at its origin.
    for (const child of drawn.children) {
      addAircraftMesh(
        doc,
        `${child.name}${child.index ? `.${String(child.index).padStart(3, "0")}` : ""}`,
        child.mesh.positions,
        child.mesh.triangles,
        node,
      );
    }
    truths.push({
      ...world(p.name),
      ...(drawn.hornAlone ? { hornAlone: true, hornPlaces: drawn.places } : {}),
    });
    if (rough === "damage_words" || rough === "dcs_damage" || rough === "wt_dm") {
      const name = rough === "damage_words"
        ? `${p.name}_${word}`
        : rough === "dcs_damage"
        ? `${p.name.toUpperCase()}_DAMAGE`
        : `${p.name.toLowerCase()}_dm`;
      const mesh = rough === "wt_dm"
        ? damageBox(p.mesh, next)
        : next() < 0.5
        ? holed(dented(p.mesh, truth, 0.02 + 0.04 * next(), next), 0.1 + 0.3 * next(), next)
        : bentTip(torn(p.mesh, truth, 0.5 + 0.3 * next()), truth, 5 + 25 * next(), next);
      addAircraftMesh(doc, name, mesh.positions, mesh.triangles, group);
      truths.push(world(name, p.name));
    }
  }
  return {
    doc,
    truths,
    rough,
    description: `seed ${seed} ${rough}${bevel ? ` (${bevel.shape})` : ""}: ${sample.description}`,
  };
}

/** A node grouping others at the scene's root. */
function addGroup(doc: Document, name: string): Node {
  const node = doc.createNode(name);
  doc.getRoot().getDefaultScene()!.addChild(node);
  return node;
}

/** The bevel of a `bevel_*` habit, its tilt and chamfer drawn. */
function bevelOf(rough: Rough, next: () => number): BevelOptions {
  const shape = rough.slice("bevel_".length) as BevelOptions["shape"];
  return { shape, tilt: (next() - 0.5) * 0.5, chamfer: 0.25 + 0.45 * next() };
}

/** The panel's mesh with the habit's horns, pushrods or arms merged in, and those drawn as child nodes. */
function meshOf(
  rough: Rough,
  mesh: ClassMesh,
  truth: ClassTruth,
  next: () => number,
  lift = 0,
): {
  mesh: ClassMesh;
  children: { name: string; index: number; mesh: ClassMesh }[];
  hornAlone: boolean;
  places: number;
} {
  const parts = [mesh];
  const children: { name: string; index: number; mesh: ClassMesh }[] = [];
  // On a dropped hinge the horn stands off the surface's skin, `lift` chords above the pivot.
  const frame = surfaceFrame(truth, lift);
  // The span direction toward the body: inboard on a wing or tailplane, down a fin.
  const lateral = truth.origin[2] * truth.axis[2];
  const inboard = Math.abs(truth.origin[2]) > 0.1 * truth.span
    ? -Math.sign(lateral) || 1
    : -Math.sign(truth.axis[1]) || 1;
  let hornAlone = false;
  const add = (l: Linkage) => {
    if (!l.rod) hornAlone = true;
    if (!l.children) parts.push(l.horn, ...(l.rod ? [l.rod] : []));
    else {
      children.push({ name: l.hornName, index: children.length, mesh: l.horn });
      if (l.rod) children.push({ name: l.rodName, index: children.length, mesh: l.rod });
    }
  };
  // One or two stations along the span, a fifth to four fifths out.
  const stations = Array.from({ length: next() < 0.5 ? 1 : 2 }, () => -0.3 + 0.6 * next());
  for (const s of stations) {
    const at: HornFrame = (c, d, w = 0) => frame.point(c, d, s, w);
    if (rough === "horn_pushrod" || rough === "dropped_linkage") {
      add(linkage(at, 1, 0.2 + 0.25 * next(), 1 + 2 * next(), inboard, next));
    }
    if (rough === "horn_above") {
      add(linkage(at, -1, 0.2 + 0.2 * next(), next() < 0.5 ? 0.5 + 1.5 * next() : 0, inboard, next));
      if (next() < 0.4) add(linkage(at, 1, 0.2 + 0.2 * next(), 0, inboard, next));
    }
    if (rough === "balance_arm") {
      // An arm from the nose forward into the wing, a weight at its end.
      const reach = 0.4 + 0.5 * next(), w = 0.02, size = 0.06 + 0.06 * next();
      parts.push(frame.box([-reach, 0.02], [-w, w], s, w));
      parts.push(frame.box([-reach - size, -reach + size], [-size, size], s, 2 * size));
    }
    if (rough === "chunky_horns") {
      // Game models' boxes: a thick horn, a bar 1.5-2.5 chords forward most of the time.
      const deep = 0.3 + 0.3 * next();
      add(linkage(at, 1, deep, next() < 0.7 ? 1.5 + next() : 0, inboard, next, true));
    }
  }
  return { mesh: joined(parts), children, hornAlone, places: stations.length };
}

/**
 * A surface's hinge frame: a point `c` chords aft of the hinge, `d` chords below the surface, at span
 * fraction `s` from the middle and `w` chords further along the span.
 */
export interface SurfaceFrame {
  point(c: number, d: number, s: number, w?: number): Vec3;
  /** A box over chords `c` aft and `d` down, `w` chords either side of span fraction `s`. */
  box(c: readonly [number, number], d: readonly [number, number], s: number, w: number): ClassMesh;
}

/** The frame of {@link SurfaceFrame} about `truth`'s hinge, `lift` chords above it (a dropped hinge's skin). */
export function surfaceFrame(truth: ClassTruth, lift = 0): SurfaceFrame {
  const aft: Vec3 = [1, 0, 0];
  const chordwise = normalize(aft.map((v, k) => v - dot(aft, truth.axis) * truth.axis[k]) as Vec3);
  let down = cross(truth.axis, chordwise);
  if (down[1] > 0) down = down.map((v) => -v) as Vec3;
  const point = (c: number, d: number, s: number, w = 0): Vec3 =>
    truth.origin.map((v, k) =>
      v + c * truth.chord * chordwise[k] + (d - lift) * truth.chord * down[k] +
      (s * truth.span + w * truth.chord) * truth.axis[k]
    ) as Vec3;
  const box: SurfaceFrame["box"] = (c, d, s, w) => {
    const positions: number[] = [];
    for (let i = 0; i < 8; i++) positions.push(...point(c[i & 1], d[(i >> 1) & 1], s, (i & 4 ? 1 : -1) * w));
    const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
    return { positions, triangles: faces.flatMap(([a, b, cc, e]) => [a, b, cc, a, cc, e]) };
  };
  return { point, box };
}

/** Every vertex moved at random by up to `amount` of the chord: a dented copy. */
function dented(mesh: ClassMesh, truth: ClassTruth, amount: number, next: () => number): ClassMesh {
  const positions = Array.from(mesh.positions, (v) => v + (next() - 0.5) * 2 * amount * truth.chord);
  return { positions, triangles: mesh.triangles };
}

/** A `fraction` of the triangles dropped at random: a holed copy. */
function holed(mesh: ClassMesh, fraction: number, next: () => number): ClassMesh {
  const t = mesh.triangles, kept: number[] = [];
  for (let k = 0; k + 2 < t.length; k += 3) if (next() >= fraction) kept.push(t[k], t[k + 1], t[k + 2]);
  return { positions: mesh.positions, triangles: kept };
}

/** Along-span position of `p` from the root end, a fraction of the span (0 root, 1 tip). */
function spanFraction(p: ArrayLike<number>, truth: ClassTruth): number {
  const out = Math.sign(truth.origin[2]) * Math.sign(truth.axis[2]) || 1;
  let along = 0;
  for (let k = 0; k < 3; k++) along += (p[k] - truth.origin[k]) * truth.axis[k] * out;
  return along / truth.span + 0.5;
}

/** Only the triangles within `keep` of the span from the root: a copy torn short. */
function torn(mesh: ClassMesh, truth: ClassTruth, keep: number): ClassMesh {
  const t = mesh.triangles, p = mesh.positions, kept: number[] = [];
  for (let k = 0; k + 2 < t.length; k += 3) {
    const c = [0, 1, 2].map((j) => (p[3 * t[k] + j] + p[3 * t[k + 1] + j] + p[3 * t[k + 2] + j]) / 3);
    if (spanFraction(c, truth) <= keep) kept.push(t[k], t[k + 1], t[k + 2]);
  }
  return { positions: p, triangles: kept };
}

/** The outer half of the copy bent down about the chordwise line by up to `degrees`, growing outward. */
function bentTip(mesh: ClassMesh, truth: ClassTruth, degrees: number, next: () => number): ClassMesh {
  const sign = next() < 0.5 ? -1 : 1;
  const positions = Array.from(mesh.positions);
  for (let i = 0; i < positions.length; i += 3) {
    const f = spanFraction(positions.slice(i, i + 3), truth);
    if (f <= 0.5) continue;
    const a = sign * (f - 0.5) * 2 * degrees * Math.PI / 180;
    // Sheared up or down along the lift direction in proportion to the distance out: a bent tip.
    positions[i + 1] += Math.tan(a) * (f - 0.5) * truth.span;
  }
  return { positions, triangles: mesh.triangles };
}

/** The box round the mesh along the aircraft's axes, a little larger: a damage model's coarse part. */
function damageBox(mesh: ClassMesh, next: () => number): ClassMesh {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], mesh.positions[i]),
      max[i % 3] = Math.max(max[i % 3], mesh.positions[i]);
  }
  const grow = 0.02 * next();
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    for (let k = 0; k < 3; k++) positions.push((i >> k) & 1 ? max[k] + grow : min[k] - grow);
  }
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  return { positions, triangles: faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]) };
}
