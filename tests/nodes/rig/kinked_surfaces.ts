/**
 * Control surfaces that span a planform kink, as real models have them: an aileron or flap across a
 * cranked wing's crank (the outboard part swept more, or less) or a gull wing's bend (the outboard
 * part's dihedral changed), exported as inboard and outboard objects sharing one name, or numbered
 * `.001`, or as one object: a mesh bent at the kink, or the two parts loose in one mesh. The wing ahead bends with it. Each piece's true
 * hinge is its own straight line; a bent single mesh has two, and no one line is right for both.
 * Built on `surface_classes.ts` (a swept wing's or a canard aircraft's ailerons); the kink lies at one
 * of the surface's stations (a row of vertices), as a modeller bends or cuts it. Deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import type { HabitTruth } from "./exporter_habits.ts";
import { newScene } from "./fixtures.ts";
import {
  canardAircraft,
  type ClassMesh,
  type ClassSample,
  type ClassTruth,
  joined,
  sweptWingAircraft,
} from "./surface_classes.ts";

/** The kinks, cycled by seed. */
export const KINKS = [
  "cranked_pieces",
  "cranked_numbered",
  "gull_pieces",
  "cranked_one",
  "gull_one",
  "cranked_loose",
] as const;

/** One way a kinked surface is exported. */
export type Kink = (typeof KINKS)[number];

/** A kinked panel's truths: one per piece; a single bent mesh has both segments' (longer first). */
export interface KinkTruth extends HabitTruth {
  /** For a bent single mesh: the other segment's hinge (the shorter). */
  readonly other?: HabitTruth;
}

/** A generated scene with its kinked panels' truths. */
export interface KinkSample {
  readonly doc: Document;
  readonly truths: KinkTruth[];
  readonly kink: Kink;
  readonly description: string;
}

/** Aircraft coordinates (aft, up, left) to the default world (−Z forward, +Y up, +X right). */
const toWorld = (p: ArrayLike<number>): Vec3 => [-p[2], p[1], p[0]];

/** Turns `p` about the line through `at` along unit `axis` by `radians`. */
function turnAbout(p: Vec3, at: Vec3, axis: Vec3, radians: number): Vec3 {
  const v = [0, 1, 2].map((k) => p[k] - at[k]) as Vec3;
  const c = Math.cos(radians), s = Math.sin(radians);
  const d = v[0] * axis[0] + v[1] * axis[1] + v[2] * axis[2];
  const x: Vec3 = [
    axis[1] * v[2] - axis[2] * v[1],
    axis[2] * v[0] - axis[0] * v[2],
    axis[0] * v[1] - axis[1] * v[0],
  ];
  return [0, 1, 2].map((k) => at[k] + v[k] * c + x[k] * s + axis[k] * d * (1 - c)) as Vec3;
}

/** The sample of `seed`: ailerons bent at 30–70 % of their span by 6–20°, exported as `kink`. */
export function kinkedSample(seed: number, kink: Kink = KINKS[seed % KINKS.length]): KinkSample {
  const next = prng(seed * 7919 + 13);
  const sample: ClassSample = Math.floor(seed / KINKS.length) % 2 === 0
    ? sweptWingAircraft(next)
    : canardAircraft(next, 2 * seed + 1);
  const fraction = 0.3 + 0.4 * next(), degrees = 6 + 14 * next(), sense = next() < 0.5 ? -1 : 1;
  const gull = kink.startsWith("gull");
  const doc = newScene();
  const truths: KinkTruth[] = [];
  // The bend of each side, found from its aileron and applied to its wing too.
  const bends = new Map<string, (p: Vec3) => Vec3>();
  const pieces = new Map<string, { inboard: ClassTruth; outboard: ClassTruth }>();
  const kinks = new Map<string, number>(), longerInboard = new Map<string, boolean>();
  const splits = new Map<string, (p: Vec3) => boolean>();
  for (const panel of sample.panels) {
    if (panel.kind !== "aileron" || !panel.truth) continue;
    const t = panel.truth;
    const out = Math.sign(t.origin[2]) * Math.sign(t.axis[2]) || 1;
    const outward = t.axis.map((v) => v * out) as Vec3;
    // Stations lie across the span direction (the hinge without its sweep): the kink at the interior
    // one nearest the drawn fraction.
    const across = normalize([0, outward[1], outward[2]]);
    const acrossOf = (p: ArrayLike<number>) => p[1] * across[1] + p[2] * across[2];
    const ends = [-0.5, 0.5].map((f) => t.origin.map((v, k) => v + outward[k] * f * t.span) as Vec3);
    const [a0, a1] = ends.map(acrossOf);
    const stations = new Set<number>();
    const positions = panel.mesh.positions;
    for (let i = 0; i < positions.length; i += 3) {
      stations.add(Math.round(acrossOf([positions[i], positions[i + 1], positions[i + 2]]) * 1e5) / 1e5);
    }
    const want = a0 + fraction * (a1 - a0), room = 0.1 * (a1 - a0);
    const inner = [...stations].filter((v) => v > a0 + room && v < a1 - room)
      .sort((x, y) => Math.abs(x - want) - Math.abs(y - want) || x - y);
    if (!inner.length) continue;
    const cut = inner[0], f = (cut - a0) / (a1 - a0);
    kinks.set(panel.name, cut);
    const at = ends[0].map((v, k) => v + (ends[1][k] - v) * f) as Vec3;
    // Cranked: about the vertical; gull: about the chordwise line, both mirrored side to side.
    const about: Vec3 = gull ? [1, 0, 0] : [0, 1, 0];
    const radians = sense * Math.sign(t.origin[2]) * degrees * Math.PI / 180;
    bends.set(panel.side, (p) => acrossOf(p) > cut + 1e-6 ? turnAbout(p, at, about, radians) : p);
    splits.set(panel.name, (p) => acrossOf(p) > cut + 1e-6);
    const inSpan = f * t.span, outSpan = (1 - f) * t.span;
    const inboard = { ...t, span: inSpan, origin: at.map((v, k) => v - outward[k] * inSpan / 2) as Vec3 };
    const outAxis = normalize(turnAbout(outward, [0, 0, 0], about, radians));
    const outboard = {
      ...t,
      span: outSpan,
      axis: outAxis,
      origin: at.map((v, k) => v + outAxis[k] * outSpan / 2) as Vec3,
    };
    longerInboard.set(panel.name, f >= 0.5);
    pieces.set(panel.name, { inboard, outboard });
  }
  const bent = (mesh: ClassMesh, side: string): ClassMesh => {
    const bend = bends.get(side);
    if (!bend) return mesh;
    const positions: number[] = [];
    for (let i = 0; i < mesh.positions.length; i += 3) {
      positions.push(...bend([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]));
    }
    return { positions, triangles: Array.from(mesh.triangles) };
  };
  const world = (name: string, t: ClassTruth, side: "left" | "right"): HabitTruth => ({
    name,
    origin: toWorld(t.origin),
    axis: toWorld(t.axis),
    span: t.span,
    side,
  });
  for (const f of sample.fixed) {
    const side = /^Wing_L$/.test(f.name) ? "left" : /^Wing_R$/.test(f.name) ? "right" : "";
    addAircraftMesh(doc, f.name, bent(f.mesh, side).positions, f.mesh.triangles);
  }
  for (const p of sample.panels) {
    const split = pieces.get(p.name);
    if (!split) {
      addAircraftMesh(doc, p.name, p.mesh.positions, p.mesh.triangles);
      if (p.truth) truths.push(world(p.name, p.truth, p.side));
      continue;
    }
    const mesh = bent(p.mesh, p.side);
    if (kink.endsWith("_one") || kink.endsWith("_loose")) {
      // One object: bent at the kink (welded there), or the two parts loose in one mesh.
      const one = kink.endsWith("_one")
        ? mesh
        : joined(cutAt(p.mesh, splits.get(p.name)!).map((m) => bent(m, p.side)));
      addAircraftMesh(doc, p.name, one.positions, one.triangles);
      const [longer, shorter] = longerInboard.get(p.name)
        ? [split.inboard, split.outboard]
        : [split.outboard, split.inboard];
      truths.push({ ...world(p.name, longer, p.side), other: world(p.name, shorter, p.side) });
      continue;
    }
    // Cut at the kink's station (by each triangle's centre): the outboard bent away from it.
    const [inboard, outboard] = cutAt(p.mesh, splits.get(p.name)!).map((m) => bent(m, p.side));
    const names = [p.name, kink === "cranked_numbered" ? `${p.name}.001` : p.name];
    addAircraftMesh(doc, names[0], inboard.positions, inboard.triangles);
    addAircraftMesh(doc, names[1], outboard.positions, outboard.triangles);
    truths.push(world(names[0], split.inboard, p.side), world(names[1], split.outboard, p.side));
  }
  return {
    doc,
    truths,
    kink,
    description: `seed ${seed} ${kink} ${degrees.toFixed(0)}° at ${
      (100 * fraction).toFixed(0)
    } %: ${sample.description}`,
  };
}

/** The mesh cut in two by each triangle's centre (`outboard` true: the second), each with its own vertices. */
function cutAt(mesh: ClassMesh, outboard: (p: Vec3) => boolean): [ClassMesh, ClassMesh] {
  const halves: number[][] = [[], []];
  const t = mesh.triangles, p = mesh.positions;
  for (let k = 0; k + 2 < t.length; k += 3) {
    const c = [0, 1, 2].map((j) => [0, 1, 2].reduce((s, v) => s + p[3 * t[k + v] + j], 0) / 3);
    halves[outboard(c as Vec3) ? 1 : 0].push(t[k], t[k + 1], t[k + 2]);
  }
  return halves.map((triangles) => {
    const index = new Map<number, number>(), positions: number[] = [];
    const renumbered = triangles.map((v) => {
      if (!index.has(v)) index.set(v, index.size), positions.push(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
      return index.get(v)!;
    });
    return { positions, triangles: renumbered };
  }) as unknown as [ClassMesh, ClassMesh];
}
